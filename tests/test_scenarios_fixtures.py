"""Runs every fixture of tests/scenarios through the engine (until the pytest plugin does).

Once pyproject.toml sets `dmtool_scenarios = tests/scenarios`, the plugin collects the YAML
files itself and these items skip, so nothing runs twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.loading import read_document
from dmtool.scenarios.commands import run_one
from dmtool.scenarios.pytest_plugin import roots
from dmtool.scenarios.report import failure_section

FIXTURES = Path(__file__).parent / "scenarios"
FILES = sorted(FIXTURES.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture(path: Path, request: pytest.FixtureRequest) -> None:
    if FIXTURES.resolve() in roots(request.config):
        pytest.skip("the dmtool_scenarios pytest plugin runs this fixture")
    loaded = read_document(path, f"tests/scenarios/{path.name}")
    assert loaded.document is not None, loaded.diagnostics
    result = run_one(loaded.document)
    if result.status == "skipped":
        pytest.skip(result.skip_reason or "skipped")
    assert result.status == "passed", failure_section(result)


def test_fixtures_exist() -> None:
    assert len(FILES) >= 34

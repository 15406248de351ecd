"""A clean one-file check (a pre-commit hook run, P3) loads only what a clean file needs:
the modules that explain schema errors and print excerpts wait for a file that has some."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CODA = ROOT / "content" / "wanderers" / "hollis-brandt" / "codas" / "a-boys-blueprint.yaml"
ONLY_FOR_FINDINGS = ("dmtool.validation.key_placement", "dmtool.reporters._excerpt")

_PROBE = """
import sys
from dmtool.cli import main
sys.argv = ["dmtool", "check", "--no-cache", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
print(" ".join(m for m in {modules!r} if m in sys.modules) or "-", file=sys.stderr)
"""


def _loaded_by_a_check_of(path: Path) -> set[str]:
    run = subprocess.run([sys.executable, "-c", _PROBE.format(modules=ONLY_FOR_FINDINGS),
                          str(path)], capture_output=True, text=True, check=False, cwd=ROOT)
    return set(run.stderr.strip().splitlines()[-1].split()) - {"-"}


def test_a_clean_file_loads_neither() -> None:
    assert CODA.is_file()
    assert _loaded_by_a_check_of(CODA) == set()


@pytest.mark.parametrize("case", ["DM101", "DM104"])
def test_a_file_that_fails_its_schema_loads_both(case: str) -> None:
    assert _loaded_by_a_check_of(ROOT / "tests" / "cases" / case) == set(ONLY_FOR_FINDINGS)

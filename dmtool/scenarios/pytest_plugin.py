"""pytest plugin: collect scenario fixtures as test items when the ini option names folders.

Switched on by `dmtool_scenarios = tests/scenarios` (one folder per line) in the pytest
configuration; without it the plugin collects nothing, so installing dmtool never changes
other projects' test runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

INI = "dmtool_scenarios"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(INI, "Folders whose scenario fixtures (kind: scenario) run as test items "
                  "(one per line; empty turns the plugin off).", type="linelist", default=[])


def roots(config: pytest.Config) -> list[Path]:
    """The configured fixture folders, resolved against the rootdir; empty means off."""
    try:
        lines = config.getini(INI)
    except ValueError:
        return []
    return [(config.rootpath / line).resolve() for line in lines if line.strip()]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    folders = roots(parent.config)
    resolved = file_path.resolve()
    if any(resolved.is_relative_to(folder) for folder in folders):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailure(Exception):
    """Carries a failed fixture's result to repr_failure."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.id)
        self.result = result


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from dmtool.loading import read_document

        loaded = read_document(self.path)
        data = loaded.document.data if loaded.document is not None else None
        if isinstance(data, dict) and data.get("kind") != "scenario":
            return
        name = str(data.get("id")) if isinstance(data, dict) else self.path.stem
        item = ScenarioItem.from_parent(self, name=name)
        if isinstance(data, dict):
            item.extra_keyword_matches.update(str(r) for r in data.get("rules", []))
        yield item


class ScenarioItem(pytest.Item):
    # pytest-lsp's runtest wrapper (1.0.1) fails every item without `funcargs` (it returns
    # before yielding); a fixture item has no function arguments, so it has none to give.
    funcargs: dict[str, object] = {}  # noqa: RUF012 - never written, only read

    def runtest(self) -> None:
        from dmtool.loading import read_document
        from dmtool.scenarios.commands import run_one

        loaded = read_document(self.path, self._display())
        if loaded.document is None:
            raise ScenarioFailure(_load_failure(self, loaded.diagnostics))
        result = run_one(loaded.document)
        if result.status == "skipped":
            pytest.skip(result.skip_reason or "skipped")
        if result.status != "passed":
            raise ScenarioFailure(result)

    def _display(self) -> str:
        try:
            return self.path.resolve().relative_to(self.config.rootpath.resolve()).as_posix()
        except ValueError:
            return self.path.as_posix()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            from dmtool.scenarios.report import failure_section

            return failure_section(excinfo.value.result)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.name}"


def _load_failure(item: ScenarioItem, diagnostics: list[Any]) -> Any:
    from dmtool.scenarios.runner import FixtureResult

    return FixtureResult(item._display(), item.name, status="error", diagnostics=diagnostics)

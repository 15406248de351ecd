"""Every folder under tests/cases/ is a small content tree with the diagnostics it must produce.

A folder is named after the code it demonstrates (`DM202` or `DM202-some-detail`); its
`expected.txt` lists every diagnostic `dmtool check .` must report, run from inside the
folder, as `path:line:col: severity CODE` lines; a `command.txt` (e.g. `dmtool test`) runs
another command instead. Every catalogue code needs such a folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.diagnostics import catalogue

CASES = Path(__file__).parent / "cases"
CASE_DIRS = sorted(p for p in CASES.iterdir() if p.is_dir() and re.match(r"DM\d{3}", p.name))


def _expected(case: Path) -> list[str]:
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def _command(case: Path) -> list[str]:
    """`dmtool check .` unless the case's command.txt names another command (e.g. `dmtool test`)."""
    command_file = case / "command.txt"
    words = command_file.read_text(encoding="utf-8").split() if command_file.is_file() else []
    return (words[1:] if words[:1] == ["dmtool"] else words) or ["check"]


def _diagnostics(report: dict) -> list[dict]:  # type: ignore[type-arg]
    if "diagnostics" in report:
        return report["diagnostics"]
    return [d for result in report.get("results", []) for d in result.get("diagnostics", [])]


def _actual(case: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(case)
    result = CliRunner().invoke(cli, [*_command(case), ".", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    for diagnostic in _diagnostics(report):
        _assert_author_language(diagnostic)
    return sorted(
        f"{d['path']}:{d['line']}:{d['column']}: {d['severity']} {d['code']}"
        for d in _diagnostics(report)
    )


# What Python, not an author, writes: a dumped list of mappings, a dict repr, a cut-off
# dump, a path such as entries[11] or effects[2].if (the JSON pointer is its own field).
_DUMPS = re.compile(r"\[\{|\{'|[^{\[]\.\.\.[}\]]|[a-z_]\[\d+\]|\]\.[a-z_]")


def _assert_author_language(diagnostic: dict) -> None:  # type: ignore[type-arg]
    for field in ("message", "hint"):
        text = diagnostic.get(field) or ""
        assert not _DUMPS.search(text), f"{diagnostic['code']} {field} speaks Python: {text}"
        assert "entries[" not in text and "Traceback" not in text, text


@pytest.mark.parametrize("case", CASE_DIRS, ids=[c.name for c in CASE_DIRS])
def test_case_produces_exactly_its_diagnostics(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _expected(case)
    code = case.name[:5]
    assert any(line.endswith(f" {code}") for line in expected), (
        f"{case.name}/expected.txt must list at least one {code}"
    )
    assert _actual(case, monkeypatch) == expected


# Legal look-alikes of a case (`legal-DM309-mutual`): content shaped like the case's mistake
# that is not one, so the check must report nothing there.
LEGAL_DIRS = sorted(p for p in CASES.iterdir() if p.is_dir() and p.name.startswith("legal-DM"))


@pytest.mark.parametrize("case", LEGAL_DIRS, ids=[c.name for c in LEGAL_DIRS])
def test_a_legal_look_alike_produces_nothing(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _expected(case) == []
    assert _actual(case, monkeypatch) == []


def test_every_code_has_a_case() -> None:
    covered = {c.name[:5] for c in CASE_DIRS if (c / "expected.txt").is_file()}
    missing = sorted(set(catalogue()) - covered)
    assert not missing, f"codes without a case folder under tests/cases/: {missing}"


def test_every_case_names_a_known_code() -> None:
    unknown = sorted({c.name[:5] for c in CASE_DIRS} - set(catalogue()))
    assert not unknown

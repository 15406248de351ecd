"""The DM3xx case folders produce exactly their graph findings (the full comparison, other
codes included, is the lead's tests/test_cases.py; this one keeps the graph stage honest
while other rules change)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.validation.pipeline import CheckOptions, run_check

CASES = sorted((Path(__file__).parent / "cases").glob("DM3*"))


def _expected(case: Path) -> list[str]:
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    return sorted(line for line in lines if " DM3" in line and not line.startswith("#"))


def test_there_are_several_cases_per_finding_kind() -> None:
    names = [c.name for c in CASES]
    for code in ("DM301", "DM302", "DM303", "DM305", "DM306", "DM307"):
        assert sum(n.startswith(code) for n in names) >= 2, code


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_has_exactly_its_graph_findings(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(case)
    report = run_check(CheckOptions(paths=(Path("."),), select=frozenset({"DM3"})))
    found = sorted(
        f"{d.location.path}:{d.location.line}:{d.location.column}: {d.severity.value} {d.code}"
        for d in report.diagnostics
    )
    assert found == _expected(case)

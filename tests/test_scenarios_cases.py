"""The DM4xx case folders produce exactly the diagnostics their expected.txt lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.diagnostics import catalogue
from dmtool.scenarios.commands import folder_diagnostics

CASES = Path(__file__).parent / "cases"
FOLDERS = sorted(CASES.glob("DM4*"))


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_case_folder(folder: Path) -> None:
    expected = sorted((folder / "expected.txt").read_text().split("\n"))
    found = sorted(f"{d.location}: {d.severity.value} {d.code}"
                   for d in folder_diagnostics(folder))
    assert found == [line for line in expected if line], found
    assert any(line.endswith(folder.name) for line in found)


def test_every_engine_code_has_a_case() -> None:
    codes = {code for code in catalogue() if code.startswith("DM4")}
    assert codes == {f.name for f in FOLDERS}

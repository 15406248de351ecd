"""`dmtool explain CODE` shows the problem and its fix, and both are true.

Each catalogue entry's `example` is text of its code's case folder (tests/cases/), which
test_cases.py proves produces the code; here the example is replaced by the entry's
`fixed` text in a copy of that folder, and the code must go away (at least that instance
of it, and no new one may appear). A handful of codes are about files rather than text
(an encoding, a NUL byte, a size, a link, an empty folder): their examples describe the
situation in parentheses, and the fix of each situation is tried the same way.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.diagnostics import catalogue
from tests.test_cases import CASE_DIRS, _command, _diagnostics, _expected

REPO = Path(__file__).resolve().parents[1]
TEXT_CODES = sorted(code for code, info in catalogue().items() if not info.example.startswith("("))


def _copy(case: Path, tmp_path: Path) -> Path:
    """The case folder at the same depth as in the repository, so modelines still resolve."""
    (tmp_path / "schemas").symlink_to(REPO / "schemas", target_is_directory=True)
    target = tmp_path / "tests" / "cases" / case.name
    shutil.copytree(case, target, symlinks=True)
    return target


def _found(case: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    monkeypatch.chdir(case)
    command = _command(case)
    extra = ["--no-cache"] if command[0] == "check" else []
    result = CliRunner().invoke(cli, [*command, ".", "--format", "json", *extra])
    assert result.exit_code in (0, 1), result.output
    return Counter((d["path"], d["code"]) for d in _diagnostics(json.loads(result.stdout)))


def _before(case: Path) -> Counter[tuple[str, str]]:
    """What the case reports as it stands: its expected.txt, which test_cases.py checks."""
    return Counter((line.split(":")[0], line.split()[-1]) for line in _expected(case))


def _where_written(code: str, text: str) -> tuple[Path, Path]:
    """(case folder, file) holding the example text exactly once."""
    for case in (c for c in CASE_DIRS if c.name[:5] == code):
        for path in sorted(p for p in case.rglob("*") if p.is_file() and not p.is_symlink()):
            try:
                if path.read_text(encoding="utf-8").count(text) == 1:
                    return case, path
            except UnicodeDecodeError:
                continue
    raise AssertionError(f"{code}'s example is not written (once) in any of its case folders:\n"
                         f"{text}")


def _assert_fixed(code: str, before: Counter[tuple[str, str]],
                  after: Counter[tuple[str, str]]) -> None:
    had = sum(n for (_, c), n in before.items() if c == code)
    has = sum(n for (_, c), n in after.items() if c == code)
    assert had > 0, f"the bad example does not produce {code}"
    assert has < had, f"the fixed example still produces {code} ({has} of {had})"
    grown = [key for key, n in after.items() if key[1] == code and n > before[key]]
    assert not grown, f"the fix produces {code} elsewhere: {grown}"


def test_every_code_shows_a_fix() -> None:
    missing = [code for code, info in catalogue().items() if info.fixed is None]
    assert not missing, f"catalogue entries without a fixed example: {missing}"


@pytest.mark.parametrize("code", TEXT_CODES)
def test_the_example_shows_the_code_and_the_fix_removes_it(
        code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = catalogue()[code]
    assert info.fixed is not None
    case, path = _where_written(code, info.example)
    copy = _copy(case, tmp_path)
    target = copy / path.relative_to(case)
    target.write_text(target.read_text(encoding="utf-8").replace(info.example, info.fixed),
                      encoding="utf-8")
    _assert_fixed(code, _before(case), _found(copy, monkeypatch))


def _reencode(folder: Path) -> None:
    for path in folder.glob("*.yaml"):
        path.write_text(path.read_bytes().decode("latin-1"), encoding="utf-8")


def _drop_nul(folder: Path) -> None:
    for path in folder.glob("*.yaml"):
        path.write_bytes(path.read_bytes().replace(b"\x00", b""))


def _raise_limit(folder: Path) -> None:
    (folder / "dmtool.toml").write_text("max-file-size = 4096\n", encoding="utf-8")


def _mend_link(folder: Path) -> None:
    for path in folder.glob("*.yaml"):
        if path.is_symlink():
            target = folder / os.readlink(path)
            target.write_text(
                "# yaml-language-server: $schema=../../../schemas/devour-card.schema.json\n"
                "kind: devour-card\nid: the-voice-below\nicons: [red]\ntext: It hums.\n",
                encoding="utf-8")


def _add_content(folder: Path) -> None:
    (folder / "card.yaml").write_text(
        "# yaml-language-server: $schema=../../../schemas/devour-card.schema.json\n"
        "kind: devour-card\nid: a-card\nicons: [red]\ntext: It hums.\n", encoding="utf-8")


SITUATIONS: dict[str, Callable[[Path], None]] = {
    "DM007": _reencode, "DM008": _drop_nul, "DM009": _raise_limit, "DM010": _mend_link,
    "DM019": _add_content,
}


def test_every_situation_has_its_fix() -> None:
    described = {code for code, info in catalogue().items() if info.example.startswith("(")}
    assert described == set(SITUATIONS)


@pytest.mark.parametrize("code", sorted(SITUATIONS))
def test_the_situation_shows_the_code_and_its_fix_removes_it(
        code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = next(c for c in CASE_DIRS if c.name[:5] == code)
    copy = _copy(case, tmp_path)
    SITUATIONS[code](copy)
    _assert_fixed(code, _before(case), _found(copy, monkeypatch))


def test_explain_prints_the_example_and_the_fix() -> None:
    result = CliRunner().invoke(cli, ["explain", "DM105"])
    assert result.exit_code == 0
    text = result.output
    assert text.index("Example:\n      - gotoo: 12") < text.index("Fixed:\n      - goto: 12")
    deletion = CliRunner().invoke(cli, ["explain", "DM401"]).output
    assert "Fixed:\n    (delete those lines)" in deletion

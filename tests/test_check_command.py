"""`dmtool check` options end to end: formats, --strict, --select/--ignore, config, -o."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with one warning (DM017, no modeline) and one error (DM202)."""
    folder = tmp_path / "tests" / "cases" / "mixed"
    shutil.copytree(ROOT / "tests" / "cases" / "DM202", folder)
    shutil.copy(ROOT / "tests" / "cases" / "DM017" / "bare.yaml", folder / "bare.yaml")
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    monkeypatch.chdir(folder)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return folder


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", *args])
    return result.exit_code, result.stdout


def test_errors_exit_1_and_text_names_file_line_column(tree: Path) -> None:
    code, out = _run(".", "--no-color")
    assert code == 1
    assert "dangling.yaml:7:16: error DM202" in out
    assert "bare.yaml:1:1: warning DM017" in out
    assert "\x1b[" not in out


def test_ignore_and_select_filter_codes(tree: Path) -> None:
    code, out = _run(".", "--ignore", "DM202", "--no-color")
    assert code == 0 and "DM202" not in out and "DM017" in out
    code, out = _run(".", "--select", "DM2", "--no-color")
    assert code == 1 and "DM017" not in out and "DM202" in out


def test_strict_makes_warnings_fail(tree: Path) -> None:
    assert _run(".", "--ignore", "DM202")[0] == 0
    assert _run(".", "--ignore", "DM202", "--strict")[0] == 1


def test_configuration_file_is_honoured_and_flags_win(tree: Path) -> None:
    (tree / "dmtool.toml").write_text('ignore = ["DM202"]\nstrict = true\n', encoding="utf-8")
    assert _run(".")[0] == 1  # strict from the file: the DM017 warning fails
    _code, out = _run(".", "--format", "json")
    assert {d["code"] for d in json.loads(out)["diagnostics"]} == {"DM017"}


def test_github_format_is_chosen_on_github_actions(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    _, out = _run(".")
    assert "::error file=dangling.yaml,line=7,col=16" in out
    assert "::warning file=bare.yaml,line=1,col=1" in out


def test_output_file_is_written_and_stdout_stays_empty(tree: Path) -> None:
    code, out = _run(".", "--format", "sarif", "-o", "report.sarif")
    assert code == 1 and out == ""
    sarif = json.loads((tree / "report.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"DM017", "DM202"}


def test_checking_one_file_still_sees_the_whole_content_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A coda awarded in the storybook exists in another file: no false DM202."""
    shutil.copytree(ROOT / "content", tmp_path / "content")
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    monkeypatch.chdir(tmp_path)
    code, out = _run("content/wanderers/hollis-brandt/storybook.yaml", "--no-color")
    assert code == 0, out
    book = tmp_path / "content/wanderers/hollis-brandt/storybook.yaml"
    text = book.read_text(encoding="utf-8")
    first_coda = next(line for line in text.splitlines() if "gain_coda:" in line)
    book.write_text(text.replace(first_coda, first_coda + "-typo", 1), encoding="utf-8")
    code, out = _run("content/wanderers/hollis-brandt/storybook.yaml", "--no-color")
    assert code == 1 and "DM202" in out and "did you mean" in out

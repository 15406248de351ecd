"""`dmtool balance` refuses what it cannot trust, before the first game: content that fails
`dmtool check` (in --content or --against) is reported as `dmtool play` reports it, with
exit 1; a report path that cannot be written is a usage error (exit 2)."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from dmtool.cli import main
from tests.new_support import empty_project, new

BOOK = "wanderers/ilse-marrow/storybook.yaml"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A content folder holding one new wanderer (the packaged games beneath it)."""
    monkeypatch.chdir(tmp_path)
    new(empty_project(tmp_path), "wanderer", "Ilse Marrow")
    return tmp_path / "content"


def _balance(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["dmtool", "balance", "--wanderer", "ilse-marrow",
                                      "--games", "3", "--jobs", "1", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out + captured.err


def _break(book: Path, old: str, new: str) -> None:
    text = book.read_text(encoding="utf-8")
    assert old in text
    book.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_content_that_fails_check_is_not_played(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _break(tree / BOOK, "      - end: event\n", "      - goto: 999\n")
    code, output = _balance(monkeypatch, capsys, "--json", "report.json")
    assert code == 1
    assert "DM301" in output and "no game was played" in output
    assert not Path("report.json").exists()


def test_a_broken_tree_to_compare_against_is_not_played(
        tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "before"
    other.mkdir()
    new(empty_project(other), "wanderer", "Ilse Marrow")
    other = other / "content"
    _break(other / BOOK, "kind: storybook", "kind: storybook\nkind: twice")
    code, output = _balance(monkeypatch, capsys, "--against", str(other))
    assert code == 1 and "no game was played" in output
    assert "not in content" not in output  # the syntax error is said as check says it


def test_a_report_path_that_cannot_be_written_is_refused_first(
        tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    Path("notes").write_text("a file, not a folder\n", encoding="utf-8")
    code, output = _balance(monkeypatch, capsys, "--games", "100000", "--html", "notes/r.html")
    assert code == 2 and "will not write the report" in output
    assert "games in" not in output  # nothing was played


def test_the_report_records_its_version_and_content(
        tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = _balance(monkeypatch, capsys, "--json", "report.json")
    assert code == 0
    report = json.loads(Path("report.json").read_text(encoding="utf-8"))
    assert report["content"] == str(tree) and len(report["content_digest"]) == 12
    _break(tree / BOOK, "Nothing happens yet in round 1.", "Rain.")
    _balance(monkeypatch, capsys, "--json", "again.json")
    again = json.loads(Path("again.json").read_text(encoding="utf-8"))
    assert again["content_digest"] != report["content_digest"]


def test_a_scheduler_nothing_listens_at_is_said_before_the_content_is_checked(
        tree: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A refused port fails at once: before the seconds a check of the content takes
    (here the content is broken, and the address is what is reported)."""
    _break(tree / BOOK, "      - end: event\n", "      - goto: 999\n")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, output = _balance(monkeypatch, capsys, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert code == 2, output
    assert "cannot reach a Dask scheduler" in output and "DM301" not in output

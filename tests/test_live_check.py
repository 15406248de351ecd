"""LiveCheck (validation/live.py), the daemon's check: every run gives the --no-cache answer.

The daemon keeps one session and trusts a file's stat to stand for its bytes, on the
check cache's terms. So each way a stale cache was met (issue 11) is met here again by a
live check that saw the tree before the change: its next answer must be the answer of a
fresh check without a cache. Stats are made trustworthy at once (the clock's racy window
set to nothing) so that the fast path is the one taken, and each change waits out the
file system's timestamp tick, so that it shows in the change time as it would for a user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest
from watchfiles import Change

from dmtool.commands.rules import register_rules
from dmtool.daemon.ahead import CheckAhead, _about_content
from dmtool.diagnostics import Report
from dmtool.loading import SourceDocument
from dmtool.packaged import GAME_FOLDERS
from dmtool.validation import filekeys
from dmtool.validation.live import LiveCheck
from dmtool.validation.pipeline import CheckOptions, run_check
from tests.test_cache_correctness import BAD, GOOD, _deny_reading, _tree

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"

register_rules()  # the story graph and the scenario rules, as `dmtool check` runs them

Answer = list[tuple[str, str, str, int, int, str]]


def _answer(report: Report) -> Answer:
    return sorted((d.code, d.severity.value, d.location.path, d.location.line,
                   d.location.column, d.message) for d in report.diagnostics)


def _agrees(live: LiveCheck, options: CheckOptions) -> Answer:
    """The live answer, asserted equal to a fresh uncached check's (files checked too)."""
    fresh = run_check(options)
    answer = live.run(options)
    assert _answer(answer) == _answer(fresh)
    assert answer.files_checked == fresh.files_checked
    return _answer(answer)


def _codes(answer: Answer) -> set[str]:
    return {code for code, *_ in answer}


def _tick() -> None:
    """Past the file system's timestamp granularity (a kernel tick), as between two saves."""
    time.sleep(0.02)


@pytest.fixture(autouse=True)
def _trusted_stats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filekeys, "RACY_NS", -(1 << 62))


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    root = _tree(tmp_path)
    for game in GAME_FOLDERS:  # games of its own (none): the packaged ones stay out of the counts
        (root / game).mkdir()
    return root


def _options(folder: Path) -> CheckOptions:
    return CheckOptions(paths=(folder,), cache_dir=None)


def test_a_same_size_edit_with_the_time_put_back_is_seen(tree: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    document = tree / "codas" / "quiet-hour.yaml"
    before = document.stat()
    assert "DM015" not in _codes(_agrees(live, options))
    _tick()
    document.write_text(BAD, encoding="utf-8")
    os.utime(document, ns=(before.st_atime_ns, before.st_mtime_ns))  # `touch -r`
    assert document.stat().st_size == before.st_size
    assert "DM015" in _codes(_agrees(live, options))


def test_a_copy_made_with_cp_p_is_seen(tree: Path, tmp_path: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    document = tree / "codas" / "quiet-hour.yaml"
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text(BAD, encoding="utf-8")
    os.utime(elsewhere, ns=(document.stat().st_atime_ns, document.stat().st_mtime_ns))
    assert "DM015" not in _codes(_agrees(live, options))
    _tick()
    subprocess.run(["cp", "-p", str(elsewhere), str(document)], check=True)
    assert "DM015" in _codes(_agrees(live, options))


def test_a_file_made_unreadable_is_reported(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, options = LiveCheck(), _options(tree)
    document = tree / "codas" / "quiet-hour.yaml"
    _agrees(live, options)
    _tick()
    document.chmod(0)
    if os.geteuid() == 0:
        _deny_reading(document, monkeypatch)  # root reads anything: be a user for this file
    try:
        assert "DM010" in _codes(_agrees(live, options))
    finally:
        document.chmod(0o600)


def test_moving_the_schemas_a_modeline_points_to_is_seen(tree: Path, tmp_path: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    assert "DM018" not in _codes(_agrees(live, options))
    (tmp_path / "schemas").rename(tmp_path / "schemas-moved")
    assert "DM018" in _codes(_agrees(live, options))
    (tmp_path / "schemas-moved").rename(tmp_path / "schemas")
    assert "DM018" not in _codes(_agrees(live, options))


def test_a_retargeted_symbolic_link_is_seen(tree: Path, tmp_path: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    document = tree / "codas" / "quiet-hour.yaml"
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    (drafts / "good.yaml").write_text(GOOD.replace("../../", "../content/../"), encoding="utf-8")
    (drafts / "bad.yaml").write_text(BAD.replace("../../", "../content/../"), encoding="utf-8")
    document.unlink()
    document.symlink_to(drafts / "good.yaml")
    assert "DM015" not in _codes(_agrees(live, options))
    _tick()
    document.unlink()
    document.symlink_to(drafts / "bad.yaml")
    assert "DM015" in _codes(_agrees(live, options))


def test_files_added_and_removed_are_seen(tree: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    _agrees(live, options)
    _tick()
    alone = _agrees(live, options)
    _tick()
    other = tree / "codas" / "second.yaml"
    other.write_text(GOOD, encoding="utf-8")  # the same id twice
    assert "DM201" in _codes(_agrees(live, options))
    _tick()
    other.unlink()
    assert _agrees(live, options) == alone


def test_a_file_in_a_new_folder_is_seen(tree: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    _agrees(live, options)
    _tick()
    (tree / "codas" / "more").mkdir()
    (tree / "codas" / "more" / "late.yaml").write_text(BAD.replace("../../", "../../../"),
                                                       encoding="utf-8")
    assert "DM015" in _codes(_agrees(live, options))


def test_an_edited_schema_makes_a_new_session(tree: Path, tmp_path: Path) -> None:
    schemas = tmp_path / "own-schemas"
    shutil.copytree(ROOT / "schemas", schemas)
    live = LiveCheck()
    options = CheckOptions(paths=(tree,), cache_dir=None, schema_dir=schemas)
    _agrees(live, options)
    first = live.session
    coda = schemas / "coda.schema.json"
    _tick()
    coda.write_text(coda.read_text(encoding="utf-8").replace('"title"', '"titel"'),
                    encoding="utf-8")
    _agrees(live, options)
    assert live.session is not first


def test_nothing_is_read_again_when_nothing_changed_and_only_the_edited_file_after_an_edit(
        tree: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    for number in range(5):
        (tree / "codas" / f"other-{number}.yaml").write_text(
            GOOD.replace("quiet-hour", f"other-{number}"), encoding="utf-8")
    _agrees(live, options)
    read = live.files_read
    assert read == 6
    _agrees(live, options)
    assert live.files_read == read
    _tick()
    (tree / "codas" / "other-3.yaml").write_text(BAD.replace("quiet-hour", "other-3"),
                                                 encoding="utf-8")
    assert "DM015" in _codes(_agrees(live, options))
    assert live.files_read == read + 1


def test_a_racy_stat_is_never_trusted(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A file changed a moment ago is read again on every run, so that an edit within the
    # same timestamp tick (which leaves every stat field as it was) is seen, even while
    # the folders around it are long unchanged. The racy window is made short here.
    monkeypatch.setattr(filekeys, "RACY_NS", 300_000_000)
    live, options = LiveCheck(), _options(tree)
    _agrees(live, options)
    time.sleep(0.4)  # the tree is old now: its stats are trusted
    _agrees(live, options)
    read = live.files_read
    _agrees(live, options)
    assert live.files_read == read  # nothing read again
    (tree / "codas" / "quiet-hour.yaml").write_text(GOOD.replace("Quiet", "Still"),
                                                    encoding="utf-8")
    _agrees(live, options)
    _agrees(live, options)
    assert live.files_read == read + 2  # the racy file, on both runs


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_every_case_answers_as_a_fresh_check(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES / case)
    live = LiveCheck()
    options = _options(Path("."))
    _agrees(live, options)
    _agrees(live, options)  # and again, from what it kept


def test_the_real_content_answers_as_a_fresh_check_before_and_after_an_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "content", tmp_path / "content")
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    monkeypatch.chdir(tmp_path)
    live, options = LiveCheck(), _options(Path("content"))
    _agrees(live, options)
    book = next(Path("content").rglob("storybook.yaml"))
    _tick()
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace("go_to: ", "go_to: 9", 1), encoding="utf-8")
    assert _agrees(live, options) != []


def _broken_links(answer: Answer, book: Path) -> int:
    return sum(code == "DM301" and path == book.as_posix() for code, _, path, *_ in answer)


def _document_of(live: LiveCheck, path: Path) -> SourceDocument | None:
    return next(state.result.document for state in live.session.files.values()
                if state.display == path.as_posix())


def test_an_edited_book_parses_only_the_touched_entries_and_answers_as_a_fresh_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "content", tmp_path / "content")
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    monkeypatch.chdir(tmp_path)
    live, options = LiveCheck(), _options(Path("content"))
    book = Path("content/wanderers/hollis-brandt/storybook.yaml")
    broken_links = _broken_links(_agrees(live, options), book)
    text = book.read_text(encoding="utf-8")
    new_entry = "  - entry: 998\n    kind: event\n    title: Lost\n    text: x\n    effects:\n      - goto: 1\n"
    edits = [
        text.replace("            - goto: 11\n", "            - goto: 9911\n", 1),  # a broken link
        text,                                                                  # put back
        text.replace("\n  - entry: 2\n", "\n" + new_entry + "  - entry: 2\n", 1),  # a new entry
        text.replace("\n    title: ", "\n    title: ", 1),                      # and back again
        text.replace("\n    title: ", "\n    title: 'open\n", 1),              # unreadable
        text,
    ]
    spliced = 0
    for number, edited in enumerate(edits):
        before = _document_of(live, book)
        _tick()
        book.write_text(edited, encoding="utf-8")
        answer = _agrees(live, options)
        after = _document_of(live, book)
        if before is not None and after is not None and before.fast_path and after.fast_path:
            assert after.data["entries"][-1] is before.data["entries"][-1]  # not parsed again
            spliced += 1
        assert _broken_links(answer, book) == broken_links + (number == 0)
    assert spliced == 4  # all but the unreadable text and the one after it


def test_a_save_is_checked_ahead_before_anyone_asks(tree: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    _agrees(live, options)
    lock = threading.Lock()
    ahead = CheckAhead(live, lock)
    ahead.start()
    try:
        quiet_hour = tree / "codas" / "quiet-hour.yaml"
        _saved_until_checked(live, lock, quiet_hour, BAD)  # unasked
        with lock:
            assert "DM015" in _codes(_agrees(live, options))  # and the answer is right
        # A folder made since is watched too: once a run has listed it, a save in it is
        # checked ahead as well. (Made whole, then moved in: one change, its file in it.)
        made = tree.parent / "made"
        made.mkdir()
        (made / "late-hour.yaml").write_text(GOOD, encoding="utf-8")
        made.rename(tree / "codas" / "more")
        late_hour = tree / "codas" / "more" / "late-hour.yaml"
        _wait_until(lambda: _own_codes(live, lock, late_hour) == set(),
                    "the new folder was not checked ahead")
        _saved_until_checked(live, lock, late_hour, BAD)
    finally:
        ahead.stop()
    _wait_until(lambda: all(thread.name != "dmtool-check-ahead"
                            for thread in threading.enumerate()), "the thread did not end")


def _own_codes(live: LiveCheck, lock: threading.Lock, path: Path) -> set[str] | None:
    """The codes of a file's own findings in the live session (None: not in it)."""
    with lock:
        state = live.session.files.get(path) if live.session is not None else None
        return None if state is None else {d.code for d in state.result.diagnostics}


def _saved_until_checked(live: LiveCheck, lock: threading.Lock, path: Path, bad: str) -> None:
    """Save `bad` (DM015) to `path` until a check ahead has found it there: a save made
    while the watch starts (after the first run, or over a new folder) is seen by the
    next request, not ahead of it, so each try saves again, as an author would."""
    deadline = time.monotonic() + 20
    while True:
        _tick()
        path.write_text(bad, encoding="utf-8")
        tried = time.monotonic() + 1
        while time.monotonic() < tried:
            codes = _own_codes(live, lock, path)
            if codes is not None and "DM015" in codes:
                return
            time.sleep(0.01)
        assert time.monotonic() < deadline, "the save was not checked ahead"


def _wait_until(done: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + 20
    while not done():
        assert time.monotonic() < deadline, failure
        time.sleep(0.01)


def test_only_changes_to_content_start_a_check_ahead(tmp_path: Path) -> None:
    watched, inside = str(tmp_path), str(tmp_path / "codas")
    (tmp_path / "codas").mkdir()
    (tmp_path / ".git").mkdir()
    folders = frozenset({watched, inside})

    def about(change: Change, *parts: str) -> bool:
        return _about_content(change, os.path.join(watched, *parts), folders)

    assert about(Change.modified, "codas", "entry.yaml")
    assert about(Change.added, "Codas.YML")
    assert about(Change.deleted, "codas", "entry.yaml")
    assert not about(Change.modified, "notes.txt")
    assert about(Change.added, ".git")  # a folder made in a watched folder
    assert about(Change.deleted, "codas")  # a watched folder removed
    assert not about(Change.deleted, "gone")  # nothing known by that name, and no YAML
    assert not about(Change.added, ".git", "config.yaml")  # in a folder the run left out
    assert not about(Change.modified, "..", "elsewhere.yaml")


def test_what_a_run_replaced_is_freed_only_when_released(tree: Path) -> None:
    live, options = LiveCheck(), _options(tree)
    _agrees(live, options)
    assert live.session is not None
    old = weakref.ref(live.session.files[tree / "codas" / "quiet-hour.yaml"].result)
    _tick()
    (tree / "codas" / "quiet-hour.yaml").write_text(BAD, encoding="utf-8")
    _agrees(live, options)
    assert old() is not None  # kept: the daemon frees it after its answer is sent
    live.release()
    assert old() is None


def test_a_run_asked_for_something_else_is_not_the_last_report_again(tree: Path) -> None:
    live = LiveCheck()
    (tree / "codas" / "second.yaml").write_text(BAD.replace("quiet-hour", "second"),
                                                encoding="utf-8")
    whole, one = _options(tree), _options(tree / "codas" / "second.yaml")
    selected = CheckOptions(paths=(tree,), cache_dir=None, select=frozenset({"DM015"}))
    ignored = CheckOptions(paths=(tree,), cache_dir=None, ignore=frozenset({"DM015"}))
    # Each differs from the one before in one thing only, so each must be answered anew.
    answers = [_agrees(live, options)
               for options in (whole, selected, whole, ignored, whole, one, whole)]
    assert answers[0] == answers[2] == answers[4] == answers[6] != answers[5]
    assert _codes(answers[1]) == {"DM015"} and "DM015" not in _codes(answers[3])
    replayed = live.run(whole)
    replayed.diagnostics.clear()  # a caller's own copy: the next answer is whole again
    assert _agrees(live, whole) == answers[0]

"""`dmtool check --watch`: the first run in full, then only new and fixed diagnostics."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from cli_support import children_hear_ctrl_c

from bench.corpus import build_corpus
from bench.watch_bench import measure
from dmtool.diagnostics import Diagnostic
from dmtool.lsp.watch import Watcher, render_run
from dmtool.validation.pipeline import CheckOptions, run_check
from tests.lsp_support import copy_workspace

CODA = Path("content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml")


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _break(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("id: the-wheel-turned", "id: the-wheel-turnt"), encoding="utf-8")
    return text


def test_a_change_reports_only_what_appeared_and_what_went_away(workspace):
    watcher = Watcher((Path("content"),))
    first = watcher.start()
    assert first.first and len(first.new) == len(first.report.diagnostics) > 0
    original = _break(workspace / CODA)
    broken = watcher.changed({(workspace / CODA).absolute()})
    # The storybook's three uses of the old id break (and nothing cascades from them).
    assert sorted(d.code for d in broken.new) == ["DM202", "DM202", "DM202"]
    assert broken.fixed == []
    assert all("the-wheel-turned" in d.message for d in broken.new)
    output = render_run(broken, color=False)
    assert output.startswith("3 new:\n\ncontent/wanderers/hollis-brandt/storybook.yaml:")
    assert output.endswith(" in 144 files.\n") and "Found 3 errors" in output
    (workspace / CODA).write_text(original, encoding="utf-8")
    mended = watcher.changed({(workspace / CODA).absolute()})
    assert mended.new == [] and sorted(d.code for d in mended.fixed) == ["DM202", "DM202", "DM202"]
    assert "3 fixed:\n  content/wanderers/hollis-brandt/storybook.yaml:" in render_run(mended, color=False)
    again = watcher.changed({(workspace / CODA).absolute()})
    assert render_run(again, color=False).startswith("No change in the diagnostics.")


def test_a_moved_diagnostic_is_not_news(workspace):
    watcher = Watcher((Path("content"),))
    watcher.start()
    storybook = workspace / "content/wanderers/hollis-brandt/storybook.yaml"
    _ = _break(workspace / CODA)
    watcher.changed({(workspace / CODA).absolute()})
    text = storybook.read_text(encoding="utf-8")
    storybook.write_text(text.replace("entries:\n", "entries:\n  # a note that moves every line\n", 1),
                         encoding="utf-8")
    moved = watcher.changed({storybook.absolute()})
    assert moved.new == [] and moved.fixed == []


def _lines(stream, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


def _read_until(lines: queue.Queue[str], marker: str, seen: list[str]) -> None:
    while not any(marker in line for line in seen):
        seen.append(lines.get(timeout=60))


def test_watch_mode_end_to_end(workspace):
    command = [sys.executable, "-m", "dmtool.cli", "check", "--watch", "content", "--no-color"]
    with children_hear_ctrl_c():
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, cwd=workspace,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
    with process:
        lines: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True)
        reader.start()
        seen: list[str] = []
        try:
            _read_until(lines, "Watching content/ for changes", seen)
            assert any(line.startswith("Found ") for line in seen)
            seen.clear()
            original = _break(workspace / CODA)
            _read_until(lines, "Watching", seen)
            assert seen[0] == "3 new:\n" and any("DM202" in line for line in seen)
            seen.clear()
            (workspace / CODA).write_text(original, encoding="utf-8")
            _read_until(lines, "Watching", seen)
            assert seen[0] == "3 fixed:\n"
        finally:
            process.send_signal(signal.SIGINT)
            try:
                code = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()  # fail, rather than hang in Popen's exit waiting for it
                raise
            reader.join(timeout=30)
        assert code == 0


def test_watch_prints_text_only(workspace):
    refused = subprocess.run([sys.executable, "-m", "dmtool.cli", "check", "--watch", "--format", "json"],
                             cwd=workspace, capture_output=True, text=True, check=False, timeout=120)
    assert refused.returncode == 2
    assert "--watch prints text to the terminal; drop --format, --output and --statistics" in refused.stderr
    statistics = subprocess.run([sys.executable, "-m", "dmtool.cli", "check", "--watch", "--statistics"],
                                cwd=workspace, capture_output=True, text=True, check=False, timeout=120)
    assert statistics.returncode == 2 and "drop --format" in statistics.stderr


def test_the_live_benchmark_finds_what_a_fresh_check_finds(tmp_path: Path) -> None:
    """bench/watch_bench.py (P2b in the live session) times a real re-check: after its edits,
    the session's diagnostics are those of a fresh check of the edited tree."""
    (tmp_path / "schemas").symlink_to(Path(__file__).resolve().parents[1] / "schemas")
    [book] = build_corpus(tmp_path / "content", content=Path("content").resolve(),
                          storybooks=1, entries=60)
    before = book.read_text(encoding="utf-8")
    seconds, found = measure(tmp_path / "content", book, runs=2)
    assert book.read_text(encoding="utf-8") != before and seconds > 0
    assert found == len(run_check(CheckOptions(paths=(tmp_path / "content",))).diagnostics)


# ---------------------------------------------------------------- the live answer is a fresh one

HOLLIS = Path("content/wanderers/hollis-brandt")
BOOK = HOLLIS / "storybook.yaml"
WANDERER = HOLLIS / "wanderer.yaml"
CARD = HOLLIS / "existence-cards/tarred-boots.yaml"
MANIFEST = HOLLIS / "manifest.yaml"
RING = HOLLIS / "codas/marens-ring.yaml"
RING_AGAIN = HOLLIS / "codas/marens-ring-again.yaml"


def _replace(path: Path, old: str, new: str) -> list[Path]:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return [path]


def _delete(path: Path) -> list[Path]:
    path.unlink()
    return [path]


def _write(path: Path, text: str) -> list[Path]:
    path.write_text(text, encoding="utf-8")
    return [path]


# Each step edits the tree on disk and names the files it touched; they add up.
EDITS: list[tuple[str, Callable[[], list[Path]]]] = [
    ("storybook prose", lambda: _replace(BOOK, "a bell strikes once", "a bell strikes twice")),
    ("storybook link", lambda: _replace(BOOK, "- goto: 11\n", "- goto: 9999\n")),
    ("storybook link mended", lambda: _replace(BOOK, "- goto: 9999\n", "- goto: 11\n")),
    ("wanderer", lambda: _replace(WANDERER, "    - tarred-boots\n", "")),
    ("card renamed", lambda: _replace(CARD, "id: tarred-boots", "id: tarred-boot")),
    ("card owner", lambda: _replace(CARD, "wanderer: hollis-brandt", "wanderer: emily-hawkins")),
    ("manifest count", lambda: _replace(MANIFEST, "    count: 3\n", "    count: 4\n")),
    ("a deleted file", lambda: _delete(RING)),
    ("a new file", lambda: _write(RING_AGAIN, "kind: coda\nid: marens-ring\nwanderer: hollis-brandt\n"
                                  "title: Maren's Ring\nflavor: Found again.\n")),
    ("a file made invalid", lambda: _replace(CARD, "cost: 2", "cost: [2")),
    ("a file made invalid in its schema", lambda: _replace(CARD, "cost: [2", "cost: two")),
    ("and valid again", lambda: _replace(CARD, "cost: two", "cost: 2")),
    ("a suppression", lambda: _replace(BOOK, "- goto: 11\n", "- goto: 9999  # dmtool: ignore[DM301] "
                                       "a test of suppressions\n")),
    ("an unused suppression", lambda: _replace(BOOK, "- goto: 9999  #", "- goto: 11  #")),
    ("storybook made invalid", lambda: _replace(BOOK, "kind: event\n", "kind: evnt\n")),
    ("two files at once", lambda: [*_replace(BOOK, "kind: evnt\n", "kind: event\n"),
                                   *_replace(CARD, "id: tarred-boot\n", "id: tarred-boots\n")]),
    # A misspelt reference is read as the id it resembles, until that id is defined.
    ("a misspelt reference", lambda: _replace(WANDERER, "    - hold-your-breath\n",
                                              "    - hold-your-breat\n")),
    ("the misspelling defined", lambda: _write(
        CARD.with_name("hold-your-breat.yaml"),
        CARD.with_name("hold-your-breath.yaml").read_text(encoding="utf-8").replace(
            "id: hold-your-breath", "id: hold-your-breat"))),
    ("and gone again", lambda: _delete(CARD.with_name("hold-your-breat.yaml"))),
]


def _seen(diagnostics: Iterable[Diagnostic]) -> list[tuple[object, ...]]:
    return [(d.location.path, d.location.line, d.location.column, d.code, d.severity.value,
             d.message, d.hint, tuple((r.path, r.line, r.column) for r in d.related))
            for d in diagnostics]


def test_every_edit_gets_the_answer_of_a_fresh_check_in_the_same_order(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session reuses the findings of every rule that read nothing an edit changed; after
    each edit of a sequence over every kind of change its answer is a fresh check's, rule
    order included, and the rules that read nothing changed are not run again."""
    from dmtool.validation import session as session_module
    from dmtool.validation.rules.reads import run_recorded
    from dmtool.validation.session import CheckSession

    ran: list[str] = []

    def recorded(rule, corpus):  # type: ignore[no-untyped-def]
        ran.append(rule.__module__.rsplit(".", 1)[-1])
        return run_recorded(rule, corpus)

    monkeypatch.setattr(session_module, "run_recorded", recorded)
    watcher = Watcher((Path("content"),))
    watcher.start()
    for step, edit in EDITS:
        ran.clear()
        run = watcher.changed({(workspace / p).absolute() for p in edit()})
        rerun = set(ran)
        fresh = CheckSession()
        fresh.load([Path("content")])
        assert _seen(watcher.session.report().diagnostics) == _seen(fresh.report().diagnostics), step
        checked = run_check(CheckOptions(paths=(Path("content"),), cache_dir=None))
        assert _seen(run.report.sorted()) == _seen(checked.sorted()), step
        if step == "storybook prose":
            # Only the rules that read storybooks (or everything) ran again.
            assert {"rule", "storybooks"} <= rerun, rerun  # rule: the story graph's
            assert not {"chapters", "campaigns", "wanderer_cards", "wanderer_shapes"} & rerun
        if step == "manifest count":
            assert "manifests" in rerun and "storybooks" not in rerun, rerun


def test_the_language_servers_way_gets_the_answer_of_a_fresh_check(workspace: Path) -> None:
    """The same edits as unsaved buffers (CheckSession.update) and removals, as the
    language server gives them."""
    from dmtool.validation.session import CheckSession

    session = CheckSession()
    session.load([Path("content")])
    session.report()
    for step, edit in EDITS:
        for path in edit():  # named as the session found them: relative, as loaded
            if path.exists():
                session.update(path, path.read_text(encoding="utf-8"))
            else:
                session.remove(path)
        fresh = CheckSession()
        fresh.load([Path("content")])
        assert _seen(session.report().diagnostics) == _seen(fresh.report().diagnostics), step

"""`dmtool check --watch`: the first run in full, then only new and fixed diagnostics."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bench.corpus import build_corpus
from bench.watch_bench import measure
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
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          cwd=workspace, env={**os.environ, "PYTHONUNBUFFERED": "1"}) as process:
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
            code = process.wait(timeout=30)
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

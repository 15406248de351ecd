"""dmtool.writing: the guarded, atomic writer every command goes through."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dmtool.writing import (
    AlreadyExists,
    ChangedMeanwhile,
    WriteFailed,
    WriteRefused,
    check_writable,
    create_file,
    exclusive,
    rewrite_file,
    write_report,
)
from dmtool.writing import files as files_module
from dmtool.writing.temporaries import FOLDER_MARKER, PREFIX, state_dir, sweep


def test_create_never_replaces_anything(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b.yaml"
    create_file(path, "one\n")
    assert path.read_text() == "one\n"
    with pytest.raises(AlreadyExists):
        create_file(path, "two\n")
    linked = tmp_path / "link.yaml"
    linked.symlink_to(path)
    with pytest.raises(AlreadyExists):
        create_file(linked, "three\n")
    assert path.read_text() == "one\n"
    dangling = tmp_path / "dangling.yaml"  # a link to a file not made yet: made through it
    dangling.symlink_to(tmp_path / "target.yaml")
    create_file(dangling, "four\n")
    assert dangling.is_symlink() and (tmp_path / "target.yaml").read_text() == "four\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "a", "b.yaml", "dangling.yaml", "link.yaml", "target.yaml"]


def test_rewrite_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("mine\n")
    with pytest.raises(ChangedMeanwhile, match="changed while dmtool was working"):
        rewrite_file(path, "formatted\n", expected=b"what was read earlier\n")
    assert path.read_text() == "mine\n"
    with pytest.raises(ChangedMeanwhile):
        rewrite_file(tmp_path / "gone.yaml", "x", expected=b"")


def test_rewrite_goes_through_a_link_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "real" / "state.yaml"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "state.yaml"
    link.symlink_to(target)
    rewrite_file(link, "new\n", expected=b"old\n")
    assert link.is_symlink() and target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in target.parent.iterdir()) == ["state.yaml"]


def test_a_failed_write_keeps_the_old_bytes_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.txt"
    path.write_text("old")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files_module.os, "replace", full)
    with pytest.raises(WriteFailed, match=r"report\.txt: no space left on the device"):
        write_report(path, "new")
    assert path.read_text() == "old" and sorted(tmp_path.iterdir()) == [path]


def test_project_files_are_never_written(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    (tmp_path / "docs").mkdir()
    for writer in (lambda p: write_report(p, "x"), lambda p: create_file(p, "x"),
                   lambda p: rewrite_file(p, "x", expected=b"[project]\n"), check_writable):
        for path in (tmp_path / "pyproject.toml", tmp_path / "docs" / "new.md",
                     tmp_path / ".git" / "config"):
            with pytest.raises(WriteRefused):
                writer(path)
    assert (tmp_path / "pyproject.toml").read_text() == "[project]\n"
    assert not any((tmp_path / "docs").iterdir()) and not (tmp_path / ".git").exists()


def _dead_journal(entries: list[dict[str, str]], token: str = "0123456789ab") -> Path:
    folder = state_dir() / "pending"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{token}.pending"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return folder


def test_the_sweep_removes_only_what_a_dead_journal_names_and_marks(tmp_path: Path) -> None:
    token = "0123456789ab"
    ours = tmp_path / f"{PREFIX}{token}-1.tmp"
    ours.write_text("half a file")
    unlisted = tmp_path / f"{PREFIX}{token}-9.tmp"  # right pattern, but never journaled
    unlisted.write_text("an author's file")
    marked = tmp_path / f"{PREFIX}{token}-2.tmp"
    marked.mkdir()
    (marked / FOLDER_MARKER).write_text(token)
    (marked / "index.html").write_text("half a site")
    unmarked = tmp_path / f"{PREFIX}{token}-3.tmp"  # listed, but the marker is not there
    unmarked.mkdir()
    (unmarked / "keep.txt").write_text("x")
    other = tmp_path / f"{PREFIX}ffffffffffff-4.tmp"  # another journal's name
    other.write_text("x")
    folder = _dead_journal([{"file": str(ours)}, {"folder": str(marked)},
                            {"folder": str(unmarked)}, {"file": str(other)}], token)
    sweep(folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [unlisted.name, unmarked.name, other.name])
    assert not (folder / f"{token}.pending").exists()


def test_the_sweep_puts_a_swapped_out_folder_back(tmp_path: Path) -> None:
    token = "0123456789ab"
    staging = tmp_path / f"{PREFIX}{token}-1.tmp"
    (staging / "old").mkdir(parents=True)
    (staging / FOLDER_MARKER).write_text(token)
    (staging / "old" / "index.html").write_text("the previous site")
    site = tmp_path / "site"  # killed between the two renames: no site at all
    sweep(_dead_journal([{"folder": str(staging)},
                         {"restore": str(staging / "old"), "to": str(site)}], token))
    assert (site / "index.html").read_text() == "the previous site"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_journal_killed_while_starting_is_swept_by_the_next_start(tmp_path: Path) -> None:
    """A writer killed between creating its journal and naming it leaves `<token>.new`
    in the state folder (found by the kill test); the next process to start one removes it."""
    state = tmp_path / "state"
    script = (
        "import os\n"
        "from dmtool.writing.temporaries import journal\n"
        "real = os.replace\n"
        "def stop(*args):\n"
        "    os.kill(os.getpid(), 9)\n"
        "os.replace = stop\n"
        "journal()\n"
    )
    env = dict(os.environ, DMTOOL_STATE_DIR=str(state))
    subprocess.run([sys.executable, "-c", script], env=env, check=False)
    assert [p.suffix for p in (state / "pending").iterdir()] == [".new"]
    subprocess.run([sys.executable, "-c", "from dmtool.writing.temporaries import journal; "
                    "journal().record(file='x')"], env=env, check=True)
    assert list((state / "pending").iterdir()) == []


def test_a_live_writer_is_never_swept(tmp_path: Path) -> None:
    """Another process's journal is locked while it lives; its temporaries stay."""
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from dmtool.writing.temporaries import journal\n"
        "j = journal(); t = Path(sys.argv[1]) / j.name('.tmp'); j.record(file=str(t))\n"
        "t.write_text('busy'); print(t, flush=True); time.sleep(30)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        temp = Path(child.stdout.readline().strip())
        sweep(state_dir() / "pending")
        assert temp.read_text() == "busy"
    finally:
        child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()
    sweep(state_dir() / "pending")
    assert not temp.exists()


def test_exclusive_serialises_read_change_write(tmp_path: Path) -> None:
    counter = tmp_path / "n.txt"
    counter.write_text("0")
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from dmtool.writing import exclusive, rewrite_file\n"
        "p = Path(sys.argv[1])\n"
        "for _ in range(20):\n"
        "    with exclusive(p):\n"
        "        raw = p.read_bytes()\n"
        "        rewrite_file(p, str(int(raw) + 1), expected=raw)\n"
    )
    children = [subprocess.Popen([sys.executable, "-c", script, str(counter)]) for _ in range(3)]
    assert [c.wait() for c in children] == [0, 0, 0]
    assert counter.read_text() == "60"
    with exclusive(counter):  # and the lock is free again
        pass
    assert os.listdir(tmp_path) == ["n.txt"]

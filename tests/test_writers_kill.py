"""Killed at any point, a writer leaves the old bytes or the new ones, and the next run
leaves no temporary behind (issue 12: "after a kill, fmt leaves hidden .NAME.*.tmp files of
full size beside the content, and site leaves <out>.tmp-XXXX folders").

Each writer runs as a real process. Its writing steps are wrapped so that each announces
itself on standard error; the test picks a step at random (seeded), the process stops
inside that step, and the test sends SIGKILL there. Some runs also take the fallbacks (no
O_TMPFILE, no renameat2), so that named temporaries and the two-rename swap are killed too.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dmtool.authoring import format_text
from dmtool.authoring.keyorder import KeyOrder
from dmtool.engine.dawn_of_madness.campaign import read_campaign
from dmtool.validation.cache import CACHE_ENV, CACHE_TAG, unframe
from dmtool.writing.temporaries import PREFIX

REPO = Path(__file__).resolve().parents[1]
# Kills per writer: each mode once, at a seeded random step. Each kill costs two real runs
# (the killed one, then the one that must tidy), and the suite has a time budget.
KILLS = 2
CHILD = """
import os, sys, time
kill_at = int(os.environ.get("KILL_AT", "-1"))
kill_mark = os.environ.get("KILL_MARK", "")
mode = os.environ.get("KILL_MODE", "")
steps = 0

def mark(step):
    global steps
    sys.stderr.write("@@" + step + "\\n")
    sys.stderr.flush()
    if steps == kill_at or step == kill_mark:
        time.sleep(120)  # inside the chosen step: the test kills the process now
    steps += 1

def around(owner, name):
    real = getattr(owner, name)
    def wrapper(*args, **kwargs):
        mark(name + ":before")
        result = real(*args, **kwargs)
        mark(name + ":after")
        return result
    setattr(owner, name, wrapper)

import dmtool.writing.files as files
import dmtool.writing.folders as folders
import dmtool.sitegen.build as site_build
for name in ("_open_temporary", "_fill", "_link_unnamed"):
    around(files, name)
around(os, "replace")
around(os, "link")
for name in ("make_folder", "_swap"):
    around(folders, name)
around(site_build, "_mkdocs")
if "no-tmpfile" in mode and hasattr(os, "O_TMPFILE"):
    del os.O_TMPFILE
if "no-exchange" in mode:
    folders._exchange = lambda first, second: False
from dmtool.cli import main
sys.argv = ["dmtool", *sys.argv[1:]]
main()
"""


def run(command: list[str], cwd: Path, *, kill_at: int | None = None, mode: str = "",
        kill_mark: str = "") -> int:
    """Run `dmtool COMMAND`; with `kill_at`, SIGKILL it inside its writing step number
    `kill_at` (counted from 0), with `kill_mark` inside the first step of that name (such
    as "replace:before"). Returns the number of steps it announced."""
    if kill_mark:
        kill_at = 10**6  # the mark decides
    env = dict(os.environ, KILL_AT=str(-1 if kill_at is None else kill_at), KILL_MODE=mode,
               KILL_MARK=kill_mark)
    child = subprocess.Popen([sys.executable, "-c", CHILD, *command], cwd=cwd, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    steps = 0
    for line in child.stderr:
        if line.startswith("@@"):
            if steps == kill_at or (kill_mark and line.strip() == "@@" + kill_mark):
                child.send_signal(signal.SIGKILL)
                break
            steps += 1
    child.stderr.close()
    child.wait(timeout=300)
    if kill_at is not None:
        assert child.returncode == -signal.SIGKILL, f"step {kill_at} never came ({steps} did)"
    return steps


def leftovers(root: Path) -> list[str]:
    """Whatever dmtool might have left: its temporaries, and names of earlier versions'."""
    found = [p.relative_to(root).as_posix() for p in root.rglob("*")
             if (p.name.startswith(PREFIX) and p.name != ".dmtool-site")
             or p.name.endswith(".tmp") or ".tmp-" in p.name
             or ".old-" in p.name or p.name.startswith("dmtool-site-src-")]
    journals = Path(os.environ["DMTOOL_STATE_DIR"]) / "pending"
    if journals.is_dir():
        found += [f"journal {p.name}" for p in journals.iterdir()]
    return found


def kill_and_recover(command: list[str], project: Path, reset: Callable[[], None],
                     holds_old_or_new: Callable[[], None], *, modes: tuple[str, ...],
                     seed: str, marks: tuple[str, ...] = ()) -> None:
    """Kill `command` at random steps (and inside the first step named by each of `marks`,
    in each mode); each time check the bytes, then let the next run finish and check that
    nothing is left behind."""
    for mark in marks:
        for mode in modes:
            reset()
            run(command, project, kill_mark=mark, mode=mode)
            holds_old_or_new()
            run(command, project, mode=mode)
            holds_old_or_new()
            assert leftovers(project) == [], f"left behind after a kill at {mark} ({mode})"
    steps = {}
    for mode in modes:  # each mode takes its own steps (the fallbacks take others)
        reset()
        steps[mode] = run(command, project, mode=mode)
        assert steps[mode] > 0, "the writer announced no writing step"
        holds_old_or_new()
    rng = random.Random(seed)
    for attempt in range(KILLS):
        reset()
        mode = modes[attempt % len(modes)]
        run(command, project, kill_at=rng.randrange(steps[mode]), mode=mode)
        holds_old_or_new()
        run(command, project, mode=mode)  # the next run: it sweeps, then does its own work
        holds_old_or_new()
        assert leftovers(project) == [], f"left behind after a kill ({mode or 'default'})"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # The writers' own state folder: the journal of this test process (alive, so rightly
    # never swept) must not count as something a killed writer left.
    monkeypatch.setenv("DMTOOL_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "project"
    content = root / "content"
    content.mkdir(parents=True)
    # The writers' temporary folder (the site's pages go there) is searched for leftovers too.
    (root / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(root / "tmp"))
    shutil.copy(REPO / "tests/cases/DM502/the-drowned-map.yaml", content / "map.yaml")
    (content / "map.yaml").write_text(
        (content / "map.yaml").read_text().replace("../../../schemas/", f"{REPO}/schemas/"))
    (root / "schemas").symlink_to(REPO / "schemas")
    return root


def test_fmt(project: Path) -> None:
    target = project / "content" / "map.yaml"
    messy = target.read_text().replace(": ", ":    ").replace("\n", "\n\n\n") + "# end\n"
    formatted = format_text(messy, order=KeyOrder(REPO / "schemas"))
    assert formatted != messy

    def holds_old_or_new() -> None:
        assert target.read_text() in (messy, formatted)

    kill_and_recover(["fmt", "content"], project, lambda: target.write_text(messy),
                     holds_old_or_new, modes=("", "no-tmpfile"), seed="fmt")


def test_check_report(project: Path) -> None:
    # Without the cache: whether a run saves it depends on the clock (a stat taken within
    # RACY_NS of the file's last change is not remembered), so the writing steps of two
    # runs would differ and a chosen step might never come. The cache file's own safety
    # is a checksum (tests/test_cache_correctness.py).
    command = ["check", "content", "--no-cache", "-o", "report.txt"]
    report = project / "report.txt"
    run(command, project)
    new = report.read_text()

    def holds_old_or_new() -> None:
        assert report.read_text() in ("the previous report\n", new)

    kill_and_recover(command, project,
                     lambda: report.write_text("the previous report\n"), holds_old_or_new,
                     modes=("", "no-tmpfile"), seed="check")


def test_check_cache(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: "a check killed at the cache rename leaves
    .dmtool-cache/.check-<salt>.cache.<pid>.tmp; it is never removed". The cache is removed
    before each run, so that every run claims its folder and saves it (the same steps)."""
    cache = project / "cache"
    command = ["check", "content", "--no-daemon"]

    def reset() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    def holds_old_or_new() -> None:
        for path in cache.iterdir() if cache.is_dir() else []:
            if path.name == CACHE_TAG[0]:
                assert path.read_bytes() == CACHE_TAG[1]
            elif path.name.startswith("check-"):
                assert unframe(path.read_bytes()) is not None, "a torn cache file"
            else:  # the .gitignore, or a temporary the next run sweeps (checked below)
                assert path.name == ".gitignore" or path.name.startswith(PREFIX), path.name

    monkeypatch.setenv(CACHE_ENV, str(cache))
    kill_and_recover(command, project, reset, holds_old_or_new, modes=("", "no-tmpfile"),
                     seed="cache", marks=("replace:before",))


def test_graph_drawing_witnesses_and_cache(project: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`graph` writes a drawing (replacing the last), witness fixtures (new files only) and
    what it derived into the check cache."""
    for source in (REPO / "tests/cases/DM303-condition").glob("*.yaml"):
        (project / "content" / source.name).write_text(
            source.read_text().replace("../../../schemas/", f"{REPO}/schemas/"))
    command = ["graph", "content", "-o", "map.dot", "--witness", "--witness-dir", "witnesses"]
    monkeypatch.setenv(CACHE_ENV, str(project / "cache"))
    reference = tmp_path / "reference"
    shutil.copytree(project, reference, symlinks=True)
    run(command, reference)
    drawing = (reference / "map.dot").read_text()
    expected = {p.name: p.read_bytes() for p in (reference / "witnesses").iterdir()}
    assert drawing and expected

    def reset() -> None:
        shutil.rmtree(project / "cache", ignore_errors=True)
        shutil.rmtree(project / "witnesses", ignore_errors=True)
        (project / "map.dot").write_text("the previous drawing\n")

    def holds_old_or_new() -> None:
        assert (project / "map.dot").read_text() in ("the previous drawing\n", drawing)
        for path in (project / "witnesses").iterdir() if (project / "witnesses").is_dir() else []:
            if not path.name.startswith(PREFIX):  # a temporary is swept by the next run
                assert path.read_bytes() == expected[path.name], path.name

    kill_and_recover(command, project, reset, holds_old_or_new, modes=("", "no-tmpfile"),
                     seed="graph")


def test_new_wanderer(project: Path, tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    shutil.copytree(project, reference, symlinks=True)
    run(["new", "wanderer", "Ilse Marrow", "--dir", "content/wanderers"], reference)
    expected = {p.relative_to(reference): p.read_bytes()
                for p in (reference / "content" / "wanderers").rglob("*.yaml")}
    assert len(expected) == 31
    folder = project / "content" / "wanderers"

    def reset() -> None:
        shutil.rmtree(folder, ignore_errors=True)

    def holds_old_or_new() -> None:
        for path in folder.rglob("*") if folder.is_dir() else []:
            # Every file there is whole: absent or the new bytes. A named temporary of
            # the killed run may remain until the next run sweeps it (checked below).
            if path.is_file() and not path.name.startswith(PREFIX):
                assert path.read_bytes() == expected[path.relative_to(project)], path

    kill_and_recover(["new", "wanderer", "Ilse Marrow", "--dir", "content/wanderers"], project,
                     reset, holds_old_or_new, modes=("", "no-tmpfile"), seed="new")


def test_play_campaign(project: Path) -> None:
    state = project / "campaign.yaml"
    command = ["play", "--quiet", "--seed", "5", "--campaign", "campaign.yaml", "--content",
               str(REPO / "content")]  # the project's own content/ holds no wanderer
    run(command, project)
    old = state.read_bytes()

    def holds_old_or_new() -> None:
        if state.read_bytes() != old:
            campaign, problems = read_campaign(state)
            assert campaign is not None and campaign.games_played == 2, problems

    kill_and_recover(command, project, lambda: state.write_bytes(old), holds_old_or_new,
                     modes=("", "no-tmpfile"), seed="play")


def test_site(project: Path) -> None:
    out = project / "site"
    run(["site", "content", "-o", "site"], project)
    (out / "index.html").write_text("the previous site")

    def holds_old_or_new() -> None:
        assert (out / ".dmtool-site").is_file() and (out / "index.html").is_file()
        marker = (out / ".dmtool-site").read_text().splitlines()
        listed = marker[marker.index(next(m for m in marker if m.startswith("# Files"))) + 1:]
        assert listed and all((out / name).is_file() for name in listed)

    def reset() -> None:
        (out / "index.html").write_text("the previous site")

    kill_and_recover(["site", "content", "-o", "site"], project, reset, holds_old_or_new,
                     modes=("", "no-exchange"), seed="site")

"""One mistake, one message: each slip of tests/mistakes_table.py, planted alone in a copy of
content/, gives exactly one new diagnostic (no cascade in the file or in any other).

The copy is made once for the module and each mistake is undone after its check. Checks
run in process with a check cache, so only the changed file is read again; each written
file gets an mtime of its own, so the cache can never mistake one version for another.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest

from dmtool.diagnostics import Diagnostic
from dmtool.validation.pipeline import CheckOptions, run_check
from tests.mistakes_table import MISTAKES, Mistake

REPO = Path(__file__).resolve().parents[1]
_STAMPS = count(1)


class Workspace:
    """A copy of content/ and schemas/ with a check cache, and the clean run's findings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(REPO / "content", root / "content")
        shutil.copytree(REPO / "schemas", root / "schemas")
        self.cache = root / "cache"
        self.baseline = self.findings()

    def findings(self) -> set[tuple[str, int, int, str, str]]:
        return {_key(d) for d in self.check()}

    def check(self) -> list[Diagnostic]:
        here = os.getcwd()
        os.chdir(self.root)
        try:
            return run_check(CheckOptions(paths=(Path("content"),), cache_dir=self.cache)).diagnostics
        finally:
            os.chdir(here)

    def write(self, path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")
        stamp = 1_000_000_000 * (1_600_000_000 + next(_STAMPS))
        os.utime(path, ns=(stamp, stamp))


def _key(diagnostic: Diagnostic) -> tuple[str, int, int, str, str]:
    loc = diagnostic.location
    return (loc.path, loc.line, loc.column, diagnostic.code, diagnostic.message)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    yield Workspace(tmp_path_factory.mktemp("one-mistake"))


def test_the_clean_copy_has_no_errors(workspace: Workspace) -> None:
    assert not [d for d in workspace.baseline if d[3] < "DM2" or d[3] == "DM202"]


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.name for m in MISTAKES])
def test_one_mistake_gives_one_diagnostic(workspace: Workspace, mistake: Mistake) -> None:
    path = workspace.root / "content" / mistake.file
    original = path.read_text(encoding="utf-8")
    assert mistake.old in original, f"{mistake.file} no longer contains {mistake.old!r}"
    line = mistake.line or original[: original.index(mistake.old)].count("\n") + 1
    try:
        workspace.write(path, original.replace(mistake.old, mistake.new, 1))
        found = [d for d in workspace.check() if _key(d) not in workspace.baseline]
    finally:
        workspace.write(path, original)
    shown = "\n".join(f"{d.location} {d.code} {d.message} (hint: {d.hint})" for d in found)
    assert len(found) == 1, f"{mistake.slip} slip in {mistake.file} gave:\n{shown}"
    (diagnostic,) = found
    assert (diagnostic.code, diagnostic.location.path, diagnostic.location.line) == (
        mistake.code, f"content/{mistake.file}", line), shown
    assert mistake.hint in (diagnostic.hint or ""), shown


def test_every_kind_of_content_file_is_tried() -> None:
    tried = {m.file for m in MISTAKES}
    kinds_tried = {_kind(REPO / "content" / f) for f in tried}
    every_kind = {_kind(p) for p in (REPO / "content").rglob("*.yaml")}
    assert every_kind <= kinds_tried, sorted(every_kind - kinds_tried)
    for file in tried:
        slips = {m.slip for m in MISTAKES if m.file == file}
        assert {"key", "type", "missing", "indent"} <= slips, file


def _kind(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("kind:"):
            return line.split(":", 1)[1].strip()
    return ""

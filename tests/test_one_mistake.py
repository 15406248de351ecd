"""One mistake, one message: each slip of tests/mistakes_table.py, planted alone in a copy of
content/, gives exactly one new diagnostic (no cascade in the file or in any other).

The copy is loaded once into a CheckSession (the in-process API the language server uses):
each mistake is an edit of one file's text, checked without touching the disk, then
undone, so only that file is parsed again and the cross-file rules rerun.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from dmtool.diagnostics import Diagnostic
from dmtool.validation.schemas import SchemaSet
from dmtool.validation.session import CheckSession
from tests.mistakes_table import MISTAKES, Mistake

REPO = Path(__file__).resolve().parents[1]


class Workspace:
    """A copy of content/ and schemas/ loaded in a session, and the clean run's findings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(REPO / "content", root / "content")
        shutil.copytree(REPO / "schemas", root / "schemas")
        self.session = CheckSession(schemas=SchemaSet(root / "schemas"))
        self.session.load([Path("content")])
        self.baseline = {_key(d) for d in self.check()}

    def check(self) -> list[Diagnostic]:
        return self.session.report().diagnostics

    def edit(self, file: str, text: str) -> None:
        self.session.update(Path("content") / file, text)


def _key(diagnostic: Diagnostic) -> tuple[str, int, int, str, str]:
    loc = diagnostic.location
    return (loc.path, loc.line, loc.column, diagnostic.code, diagnostic.message)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("one-mistake")
    here = os.getcwd()
    os.chdir(root)  # display paths are relative to the working directory
    try:
        yield Workspace(root)
    finally:
        os.chdir(here)


def test_the_clean_copy_has_no_errors(workspace: Workspace) -> None:
    assert not [d for d in workspace.baseline if d[3] < "DM2" or d[3] == "DM202"]


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.name for m in MISTAKES])
def test_one_mistake_gives_one_diagnostic(workspace: Workspace, mistake: Mistake) -> None:
    original = (workspace.root / "content" / mistake.file).read_text(encoding="utf-8")
    assert mistake.old in original, f"{mistake.file} no longer contains {mistake.old!r}"
    line = mistake.line or original[: original.index(mistake.old)].count("\n") + 1
    try:
        workspace.edit(mistake.file, original.replace(mistake.old, mistake.new, 1))
        found = [d for d in workspace.check() if _key(d) not in workspace.baseline]
    finally:
        workspace.edit(mistake.file, original)
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


def test_deleting_an_ending_names_it_once(workspace: Workspace) -> None:
    """Not a schema error with a dump of the other endings: DM258 says which one is missing."""
    file = "wanderers/hollis-brandt/storybook.yaml"
    original = (workspace.root / "content" / file).read_text(encoding="utf-8")
    try:
        workspace.edit(file, original[: original.index("  - ending: D\n")])
        found = [d for d in workspace.check() if _key(d) not in workspace.baseline]
    finally:
        workspace.edit(file, original)
    assert [(d.code, d.message) for d in found] == [
        ("DM258", "the storybook has no ending D; write each of the endings A, B, C and D once")]

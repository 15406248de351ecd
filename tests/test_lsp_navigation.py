"""Definition and references beyond the storybook: rooms in a chapter, monsters, round trackers."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from dmtool.lsp.context import RequestContext, Tools
from dmtool.lsp.navigation import definition, references
from dmtool.lsp.schema_nav import ReferenceFinder, SchemaNavigator
from dmtool.lsp.workspace import LiveWorkspace
from tests.lsp_support import REPO, STORYBOOK, position_of

CHAPTER = Path("content/deep-madness/rise-of-dagon/chapters/1-rite-of-bile.yaml")


@pytest.fixture(scope="module")
def live() -> tuple[LiveWorkspace, Tools]:
    workspace = LiveWorkspace.for_folders([REPO])
    workspace.load()
    workspace.analyse()
    navigator = SchemaNavigator(workspace.session.schemas)
    return workspace, Tools(navigator, ReferenceFinder(navigator))


def _context(live, relative: Path) -> RequestContext:
    workspace, tools = live
    path = REPO / relative
    return RequestContext(workspace.snapshot, tools, path, path.read_text(encoding="utf-8"))


def test_a_room_number_goes_to_the_room_on_the_chapter_board(live):
    context = _context(live, CHAPTER)
    found = definition(context, position_of(REPO / CHAPTER, "room_deck: [19, 26, 29, 34]", 24))
    assert [f.range.start for f in found] == [position_of(REPO / CHAPTER, "34]", 0)]
    uses = references(context, position_of(REPO / CHAPTER, "34]", 0), False)
    assert [u.range.start for u in uses] == [position_of(REPO / CHAPTER, "{room: 34", 7),
                                             position_of(REPO / CHAPTER, "29, 34]", 4, nth=1)]


def test_a_monster_id_goes_to_its_document(live):
    context = _context(live, STORYBOOK)
    found = definition(context, position_of(REPO / STORYBOOK, "terror: the-tolling-deacon", 9))
    assert [f.uri.rsplit("/", 1)[-1] for f in found] == ["the-tolling-deacon.yaml"]


def test_a_round_tracker_entry_means_the_entry_of_every_storybook(live):
    trackers = next((REPO / "content").rglob("round-trackers.yaml"))
    context = _context(live, trackers.relative_to(REPO))
    text = trackers.read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.split("\n")) if "entry:" in row)
    column = text.split("\n")[line].index("entry:") + 7
    found = definition(context, types.Position(line=line, character=column))
    assert found and all(f.uri.endswith("storybook.yaml") for f in found)

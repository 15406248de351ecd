"""Quick fixes put back what the diagnostic says is missing: applied, the file checks clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from dmtool.lsp.actions import code_actions
from dmtool.lsp.context import RequestContext, Tools
from dmtool.lsp.convert import char_column, to_lsp, uri_of
from dmtool.lsp.schema_nav import ReferenceFinder, SchemaNavigator
from dmtool.lsp.workspace import LiveWorkspace
from tests.lsp_support import STORYBOOK, copy_workspace

CODA = Path("content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> tuple[LiveWorkspace, Tools, Path]:
    folder = copy_workspace(tmp_path_factory.mktemp("actions"))
    live = LiveWorkspace.for_folders([folder])
    live.load()
    navigator = SchemaNavigator(live.session.schemas)
    return live, Tools(navigator, ReferenceFinder(navigator)), folder


def _offset(text: str, position: types.Position) -> int:
    lines = text.split("\n")  # as an editor does: the position counts UTF-16 units
    return (sum(len(line) + 1 for line in lines[:position.line])
            + char_column(lines[position.line], position.character))


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    for edit in sorted(edits, key=lambda e: _offset(text, e.range.start), reverse=True):
        text = text[:_offset(text, edit.range.start)] + edit.new_text + text[_offset(text, edit.range.end):]
    return text


def _fix(live, path: Path, broken: str, code: str) -> tuple[str, str]:
    """The single quick fix offered for `code` in `broken`: (its title, the fixed text)."""
    workspace, tools, _folder = live
    workspace.change(path, broken)
    snapshot = workspace.analyse()
    found = [d for d in snapshot.diagnostics[path] if d.code == code]
    assert len(found) == 1, snapshot.diagnostics[path]
    diagnostic = to_lsp(found[0], broken, None)
    context = RequestContext(snapshot, tools, path, broken)
    actions = code_actions(context, types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri_of(path)), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic])))
    assert len(actions) == 1
    return actions[0].title, _apply(broken, actions[0].edit.changes[uri_of(path)])


def test_a_missing_modeline_is_added(live):
    path = (live[2] / CODA).absolute()
    original = path.read_text(encoding="utf-8")
    title, fixed = _fix(live, path, original.split("\n", 1)[1], "DM017")
    assert title == "Add the schema modeline"
    assert fixed == original


def test_an_entry_that_runs_out_gets_the_end_its_kind_needs(live):
    path = (live[2] / STORYBOOK).absolute()
    original = path.read_text(encoding="utf-8")
    # Entry 1 is a round event: without its last line it leaves the reader stranded.
    broken = original.replace("          - gain_existence: 1\n      - end: event\n",
                              "          - gain_existence: 1\n", 1)
    assert broken != original
    title, fixed = _fix(live, path, broken, "DM302")
    assert title == "Add '- end: event'"
    assert fixed == original


def test_a_test_side_that_runs_out_gets_an_end_encounter(live):
    path = (live[2] / STORYBOOK).absolute()
    original = path.read_text(encoding="utf-8")
    start = original.index("roll: {red: [hand]}")
    end_at = original.index("- end: encounter\n", start)
    line_start = original.rindex("\n", 0, end_at) + 1
    broken = original[:line_start] + original[end_at + len("- end: encounter\n"):]
    title, fixed = _fix(live, path, broken, "DM302")
    assert title == "Add '- end: encounter'"
    assert fixed == original


def test_a_test_without_its_fail_side_gets_one_that_ends(live):
    path = (live[2] / STORYBOOK).absolute()
    lines = path.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if "roll: {red: [hand]}" in line)
    fail = next(i for i in range(first, len(lines)) if lines[i].strip() == "fail:")
    indent = len(lines[fail]) - len(lines[fail].lstrip(" "))
    end = next(i for i in range(fail + 1, len(lines))
               if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip(" ")) <= indent)
    broken = "\n".join(lines[:fail] + lines[end:])
    title, fixed = _fix(live, path, broken, "DM302")
    assert title == "Add 'fail: [end: encounter]'"
    side = [" " * indent + "fail:", " " * (indent + 2) + "- end: encounter"]
    assert fixed == "\n".join(lines[:fail] + side + lines[end:])


def test_a_did_you_mean_after_an_emoji_replaces_the_misspelt_word(live):
    # The editor counts columns in UTF-16 units, where an emoji takes two: the fix must
    # still replace the misspelt id, not the characters one column to its right.
    path = (live[2] / STORYBOOK).absolute()
    lines = path.read_text(encoding="utf-8").split("\n")
    first = lines.index("          - label: Read the letter aloud to the others")
    flow = ('          - {label: "\U0001F514 Read the letter aloud", effects: [{score: {B: 2}}, '
            '{spawn_encounter: {card: %s, shard: random}}, end: event]}')
    fixed_text = "\n".join(lines[:first] + [flow % "the-commendation-medal"] + lines[first + 5:])
    broken = "\n".join(lines[:first] + [flow % "the-comendation-medal"] + lines[first + 5:])
    title, fixed = _fix(live, path, broken, "DM202")
    assert title == "Replace with 'the-commendation-medal'"
    assert fixed == fixed_text


def test_a_modeline_that_points_nowhere_is_pointed_at_the_schema(live):
    """A modeline into a virtual environment that was made again elsewhere (DM018)."""
    path = (live[2] / CODA).absolute()
    original = path.read_text(encoding="utf-8")
    _first, rest = original.split("\n", 1)
    stale = "# yaml-language-server: $schema=../../../../old-venv/schemas/coda.schema.json"
    title, fixed = _fix(live, path, stale + "\n" + rest, "DM018")
    assert title == "Point the modeline at dmtool's schema"
    assert fixed == original

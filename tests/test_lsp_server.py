"""`dmtool lsp` end to end: a real client (pytest-lsp) over stdio on a copy of content/.

One server serves the module's tests in order, as an author's editor would: open the
storybook, break and fix a goto without saving, jump, hover, complete, fix, format.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from lsprotocol import types

from tests.lsp_support import (
    STORYBOOK,
    diagnostics_for,
    open_file,
    position_of,
    replace_all,
    server_fixtures,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
CODA = Path("content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml")


workspace, client = server_fixtures("lsp")


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def test_a_broken_goto_is_flagged_while_typing_and_cleared_when_fixed(client, workspace):
    path = workspace / STORYBOOK
    uri = open_file(client, path)
    await diagnostics_for(client, uri, lambda found: not found)
    text = path.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("goto: 11", "goto: 9999", 1), 2)
    found = await diagnostics_for(client, uri, lambda found: any(d.code == "DM301" for d in found))
    broken = next(d for d in found if d.code == "DM301")
    assert broken.range.start == position_of(path, "goto: 11")
    assert "9999" in broken.message
    assert broken.code_description is not None and broken.code_description.href.endswith("DM301.md")
    explained = Path(broken.code_description.href.removeprefix("file://")).read_text(encoding="utf-8")
    assert "DM301" in explained
    assert path.read_text(encoding="utf-8") == text, "nothing is saved"
    replace_all(client, uri, text, 3)
    await diagnostics_for(client, uri, lambda found: not found)


async def test_an_edit_in_one_file_updates_the_diagnostics_of_another(client, workspace):
    storybook_uri = (workspace / STORYBOOK).as_uri()
    coda = workspace / CODA
    uri = open_file(client, coda)
    text = coda.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("id: the-wheel-turned", "id: the-wheel-turnt"), 2)
    found = await diagnostics_for(client, storybook_uri,
                                  lambda found: any(d.code == "DM202" for d in found))
    assert any("the-wheel-turned" in d.message for d in found)
    replace_all(client, uri, text, 3)
    await diagnostics_for(client, storybook_uri, lambda found: not found)


async def test_definition_of_an_entry_number_is_that_entry(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=_doc(path.as_uri()), position=position_of(path, "goto: 11", 7)))
    assert [(f.uri, f.range.start) for f in found] == [
        (path.as_uri(), position_of(path, "- entry: 11", 2))]


async def test_definition_of_a_coda_id_is_its_document(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=_doc(path.as_uri()), position=position_of(path, "has_coda: the-wheel-turned", 12)))
    assert [f.uri for f in found] == [(workspace / CODA).as_uri()]


async def test_references_of_an_entry_list_what_sends_the_reader_there(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=_doc(path.as_uri()), position=position_of(path, "- entry: 11", 9),
        context=types.ReferenceContext(include_declaration=False)))
    assert [(f.uri, f.range.start) for f in found] == [
        (path.as_uri(), position_of(path, "goto: 11", 6))]


async def test_hover_on_an_entry_number_shows_its_title_and_effects(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(path.as_uri()), position=position_of(path, "goto: 11", 7)))
    assert found is not None
    assert "Entry 11: The Surveyor Tips His Hat" in found.contents.value
    assert "add 2 points to ending D" in found.contents.value  # the describer's words


async def test_hover_on_a_test_gives_its_pass_chance_at_starting_sentience(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(path.as_uri()), position=position_of(path, "roll: {red: [hand]}", 2)))
    assert found is not None
    # Hollis Brandt rolls two red dice; a red die meets a hand on 3 faces of 6 (two hands and
    # the wild sphere), so the test fails only when both dice miss: 1 - (1/2)^2.
    assert "75.0%" in found.contents.value and "(3/4)" in found.contents.value
    assert "red 2" in found.contents.value


async def test_completion_of_an_entry_number_offers_entries_with_titles(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(path.as_uri()), position=position_of(path, "goto: 11", 6)))
    assert found is not None
    by_label = {item.label: item for item in found.items}
    assert by_label["11"].detail == "The Surveyor Tips His Hat (event)"
    assert len(by_label) == 153


async def test_a_did_you_mean_fix_is_a_code_action(client, workspace):
    path = workspace / STORYBOOK
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("- goto: 11", "- gotoo: 11", 1), 4)
    found = await diagnostics_for(client, uri, lambda found: any(d.code == "DM105" for d in found))
    diagnostic = next(d for d in found if d.code == "DM105")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=_doc(uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic])))
    assert actions is not None and len(actions) == 1
    (edit,) = actions[0].edit.changes[uri]
    assert edit.new_text == "goto"
    assert edit.range.start == position_of(path, "goto: 11")
    replace_all(client, uri, text, 5)
    await diagnostics_for(client, uri, lambda found: not found)


async def test_format_document_gives_dmtool_fmt_layout(client, workspace):
    path = workspace / CODA
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("id: the-wheel-turned", "id:    the-wheel-turned"), 6)
    await diagnostics_for(client, uri, lambda found: True)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=_doc(uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None and len(edits) == 1
    assert edits[0].new_text == text


async def test_outline_groups_entries_by_block_and_ending(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=_doc(path.as_uri())))
    names = [symbol.name for symbol in found]
    assert names[:3] == ["Round events", "Encounters", "Reality shards"]
    assert names[3:] == ["Ending A", "Ending B", "Ending C", "Ending D"]  # every finale entry has its ending
    events = found[0].children
    assert events[0].name == "1 The Bell Under the Water"
    assert sum(len(s.children) for s in found) == 153
    # An entry's symbol covers the whole entry, from its dash to its last effect, so the
    # editor's breadcrumbs follow the cursor through it; its name is its number's key.
    first = events[0]
    assert first.range.start == position_of(path, "- entry: 1")
    assert first.range.end == position_of(path, "      - end: event", len("      - end: event"))
    assert first.selection_range.start == position_of(path, "entry: 1")
    for group in found:
        assert all(_inside(child.range, group.range) for child in group.children)
        assert _inside(group.selection_range, group.range)


async def test_the_outline_after_an_edit_describes_the_edited_text(client, workspace):
    # The server writes each version's outline as soon as its analysis is published (it
    # was asked for one before): what it answers must be the new text's, not the last.
    path = workspace / STORYBOOK
    uri = path.as_uri()
    asked = types.DocumentSymbolParams(text_document=_doc(uri))
    before = await client.text_document_document_symbol_async(asked)
    text = path.read_text(encoding="utf-8")
    edited = text.replace("title: The Bell Under the Water\n",
                          "title: The Bell Under the Water, Rung\n    # a line more\n", 1)
    edited = edited.replace("goto: 11", "goto: 9999", 1)  # to know when it is analysed
    replace_all(client, uri, edited, 20)
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM301" for d in found))
    after = await client.text_document_document_symbol_async(asked)
    assert after[0].children[0].name == "1 The Bell Under the Water, Rung"
    assert after[0].children[1].range.start.line == before[0].children[1].range.start.line + 1
    assert after[-1].range.end.line == before[-1].range.end.line + 1
    replace_all(client, uri, text, 21)
    await diagnostics_for(client, uri, lambda found: not found)
    assert await client.text_document_document_symbol_async(asked) == before


def _inside(inner: types.Range, outer: types.Range) -> bool:
    def order(at: types.Position) -> tuple[int, int]:
        return (at.line, at.character)
    return order(outer.start) <= order(inner.start) and order(inner.end) <= order(outer.end)


async def test_each_entry_folds_from_its_first_line_to_its_last(client, workspace):
    path = workspace / STORYBOOK
    found = await client.text_document_folding_range_async(types.FoldingRangeParams(
        text_document=_doc(path.as_uri())))
    assert len(found) == 153
    assert (found[0].start_line, found[0].end_line) == (
        position_of(path, "- entry: 1").line, position_of(path, "      - end: event").line)
    assert all(one.end_line < other.start_line for one, other in pairwise(found))


async def test_workspace_symbols_find_entries_by_number_or_title(client, workspace):
    path = workspace / STORYBOOK
    by_number = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="10"))
    names = [s.name for s in by_number]
    assert all(name.split(" ", 1)[0].startswith("10") for name in names) and names
    by_title = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="bell under"))
    assert [s.name for s in by_title] == ["1 The Bell Under the Water"]
    (bell,) = by_title
    assert bell.location.uri == path.as_uri()
    assert bell.location.range.start == position_of(path, "- entry: 1")


async def test_pull_diagnostics_give_what_was_published(client, workspace):
    path = workspace / STORYBOOK
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("goto: 11", "goto: 9999", 1), 40)
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM301" for d in found))
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=_doc(uri)))
    assert [d.code for d in report.items] == [d.code for d in client.diagnostics[uri]]
    assert "DM301" in [d.code for d in report.items]
    replace_all(client, uri, text, 41)
    await diagnostics_for(client, uri, lambda found: not found)

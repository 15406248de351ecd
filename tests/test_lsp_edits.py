"""The edits and views authors of a numbered gamebook use most, through a real client:
renumbering an entry and renaming an id across files (refused when the new one is taken
or malformed), semantic tokens and code lenses."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from dmtool.cli import cli
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
ORRIN_COTTAGE = Path("content/wanderers/hollis-brandt/world-shards/orrin-cottage.yaml")
VESTRY_DOOR = Path("content/wanderers/hollis-brandt/finale-encounter-cards/the-vestry-door.yaml")
TOKEN_TYPES = ["enumMember", "class", "function"]
MODIFIERS = ["declaration", "unresolved"]

workspace, client = server_fixtures("lsp-edits")


def _doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=path.as_uri())


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """The text with the edits made (one-line ranges on ASCII lines, as these are)."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        line = lines[start.line]
        lines[start.line] = line[:start.character] + edit.new_text + line[end.character:]
    return "\n".join(lines)


def _edited(found: types.WorkspaceEdit, workspace: Path) -> dict[Path, list[types.TextEdit]]:
    assert found.changes is not None
    return {Path(uri.removeprefix("file://")).relative_to(workspace): edits
            for uri, edits in found.changes.items()}


async def _rename(client, path: Path, position: types.Position, new_name: str) -> types.WorkspaceEdit:
    return await client.text_document_rename_async(types.RenameParams(
        text_document=_doc(path), position=position, new_name=new_name))


async def test_renumbering_an_entry_changes_every_link_to_it_across_files(client, workspace):
    storybook, card, shard = workspace / STORYBOOK, workspace / VESTRY_DOOR, workspace / ORRIN_COTTAGE
    uri = open_file(client, storybook)
    await diagnostics_for(client, uri, lambda found: not found)
    at = position_of(storybook, "- entry: 390", 9)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=_doc(storybook), position=at))
    assert prepared.placeholder == "390"
    assert (prepared.range.start, prepared.range.end) == (at, position_of(storybook, "- entry: 390", 12))
    texts = {path: (workspace / path).read_text(encoding="utf-8")
             for path in (STORYBOOK, VESTRY_DOOR, ORRIN_COTTAGE)}
    assert "entry: 399\n" not in texts[STORYBOOK]
    found = _edited(await _rename(client, storybook, at, "399"), workspace)
    assert set(found) == {STORYBOOK, VESTRY_DOOR, ORRIN_COTTAGE}
    # A finale card's spawning condition and a world shard's finale encounter name it
    # from other files.
    assert [e.range.start for e in found[VESTRY_DOOR]] == [position_of(card, "visited: 390", 9)]
    assert [e.range.start for e in found[ORRIN_COTTAGE]] == [position_of(shard, "390", 0)]
    assert all(e.new_text == "399" for edits in found.values() for e in edits)
    renumbered = {path: _apply(text, found[path]) for path, text in texts.items()}
    assert "- entry: 399\n" in renumbered[STORYBOOK] and "visited: 399}" in renumbered[VESTRY_DOOR]
    # Made in the editor, the edit leaves no link broken, in any of the files.
    uris = {path: open_file(client, workspace / path) for path in texts}
    for path, text in renumbered.items():
        replace_all(client, uris[path], text, 2)
    await diagnostics_for(client, uri, lambda found: not found)
    for path in texts:
        await diagnostics_for(client, uris[path], lambda found: not found)
    # Renumbered back, the files are as they were.
    back = _edited(await _rename(client, storybook, at, "390"), workspace)
    assert {path: _apply(renumbered[path], back[path]) for path in texts} == texts
    for path, text in texts.items():
        replace_all(client, uris[path], text, 3)
    await diagnostics_for(client, uri, lambda found: not found)


async def test_renumbering_changes_gotos_starts_and_card_entries(client, workspace):
    storybook = workspace / STORYBOOK
    found = _edited(await _rename(client, storybook, position_of(storybook, "goto: 11", 7), "1011"),
                    workspace)
    assert [e.range.start for e in found[STORYBOOK]] == [
        position_of(storybook, "goto: 11", 6), position_of(storybook, "- entry: 11", 9)]
    start = _edited(await _rename(client, storybook, position_of(storybook, "start: 300", 8), "299"),
                    workspace)
    assert position_of(storybook, "start: 300", 7) in [e.range.start for e in start[STORYBOOK]]
    assert position_of(storybook, "- entry: 300", 9) in [e.range.start for e in start[STORYBOOK]]
    card = _edited(await _rename(client, storybook, position_of(storybook, "- entry: 400", 9), "401"),
                   workspace)
    assert [e.range.start for e in card[VESTRY_DOOR]] == [position_of(workspace / VESTRY_DOOR, "entry: 400", 7)]


@pytest.mark.parametrize(("new_name", "reason"), [
    ("12", "entry 12 already exists"),
    ("12a", "'12a' is not an entry number"),
    ("0", "'0' is not an entry number: a whole number from 1 to 99999"),
    ("1²", "'1²' is not an entry number"),
])
async def test_a_renumbering_to_a_taken_or_malformed_number_is_refused(client, workspace, new_name, reason):
    storybook = workspace / STORYBOOK
    with pytest.raises(JsonRpcException, match=reason):
        await _rename(client, storybook, position_of(storybook, "- entry: 11", 9), new_name)


async def test_a_number_other_storybooks_share_is_not_renumbered_for_one(client, workspace):
    """The round trackers' entries mean the entries of every storybook: renumbering entry 1
    of one book must not send the other books' readers elsewhere."""
    storybook = workspace / STORYBOOK
    draft = workspace / "content/wanderers/a-draft/storybook.yaml"
    draft_uri = draft.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=draft_uri, language_id="yaml", version=1,
        text="kind: storybook\nid: a-draft\nwanderer: a-draft\nentries:\n  - entry: 1\n    kind: event\n")))
    with pytest.raises(JsonRpcException, match=r"round-trackers\.yaml, which means entry 1 of .*a-draft"):
        await _rename(client, storybook, position_of(storybook, "- entry: 1", 9), "1500")
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=_doc(draft)))
    # Alone again, the book's entry 1 is its own to renumber, round trackers and all.
    found = _edited(await _rename(client, storybook, position_of(storybook, "- entry: 1", 9), "1500"),
                    workspace)
    assert set(found) == {STORYBOOK, Path("content/dawn-of-madness/round-trackers.yaml")}


async def test_renaming_a_coda_id_changes_its_document_and_every_use(client, workspace):
    storybook, coda = workspace / STORYBOOK, workspace / CODA
    at = position_of(storybook, "has_coda: the-wheel-turned", 12)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=_doc(storybook), position=at))
    assert prepared.placeholder == "the-wheel-turned"
    found = _edited(await _rename(client, storybook, at, "the-wheel-stopped"), workspace)
    assert [e.range.start for e in found[CODA]] == [position_of(coda, "id: the-wheel-turned", 4)]
    text, coda_text = storybook.read_text(encoding="utf-8"), coda.read_text(encoding="utf-8")
    assert text.count("the-wheel-turned") == len(found[STORYBOOK]) == 3
    renamed, coda_renamed = _apply(text, found[STORYBOOK]), _apply(coda_text, found[CODA])
    assert "the-wheel-turned" not in renamed + coda_renamed
    uri, coda_uri = open_file(client, storybook), open_file(client, coda)
    replace_all(client, coda_uri, coda_renamed, 2)
    # The coda renamed alone breaks the storybook's uses; with them, nothing is broken.
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM202" for d in found))
    replace_all(client, uri, renamed, 10)
    await diagnostics_for(client, uri, lambda found: not found)
    await diagnostics_for(client, coda_uri, lambda found: not found)
    replace_all(client, uri, text, 11)
    replace_all(client, coda_uri, coda_text, 3)
    await diagnostics_for(client, uri, lambda found: not found)


async def test_renaming_from_the_documents_own_id_line(client, workspace):
    coda = workspace / CODA
    found = _edited(await _rename(client, coda, position_of(coda, "id: the-wheel-turned", 6), "wheel"),
                    workspace)
    assert len(found[STORYBOOK]) == 3 and len(found[CODA]) == 1


@pytest.mark.parametrize(("new_name", "reason"), [
    ("the-river-remembers", "'the-river-remembers' is already taken"),
    ("The Wheel", "'The Wheel' is not an id"),
    ("wheel--turned", "is not an id"),
])
async def test_a_rename_to_a_taken_or_malformed_id_is_refused(client, workspace, new_name, reason):
    storybook = workspace / STORYBOOK
    with pytest.raises(JsonRpcException, match=reason):
        await _rename(client, storybook, position_of(storybook, "has_coda: the-wheel-turned", 12), new_name)


async def test_prose_and_keys_cannot_be_renamed(client, workspace):
    storybook = workspace / STORYBOOK
    for needle in ("title: The Bell Under the Water", "kind: event"):
        prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=_doc(storybook), position=position_of(storybook, needle, 8)))
        assert prepared is None


def _decode(data: list[int]) -> list[tuple[int, int, int, str, set[str]]]:
    """LSP's relative encoding back to (line, start, length, type, modifiers)."""
    tokens, line, start = [], 0, 0
    for at in range(0, len(data), 5):
        delta, column, length, kind, bits = data[at:at + 5]
        line += delta
        start = start + column if delta == 0 else column
        tokens.append((line, start, length, TOKEN_TYPES[kind],
                       {m for i, m in enumerate(MODIFIERS) if bits & (1 << i)}))
    return tokens


async def _tokens(client, path: Path) -> dict[tuple[int, int], tuple[int, str, set[str]]]:
    found = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        text_document=_doc(path)))
    return {(line, start): (length, kind, mods) for line, start, length, kind, mods in _decode(found.data)}


async def test_semantic_tokens_mark_entries_codas_and_tests(client, workspace):
    storybook = workspace / STORYBOOK
    tokens = await _tokens(client, storybook)

    def at(needle: str, offset: int) -> tuple[int, str, set[str]]:
        where = position_of(storybook, needle, offset)
        return tokens[(where.line, where.character)]

    assert at("- entry: 11", 9) == (2, "enumMember", {"declaration"})
    assert at("goto: 11", 6) == (2, "enumMember", set())
    assert at("start: 300", 7) == (3, "enumMember", set())
    assert at("has_coda: the-wheel-turned", 10) == (16, "class", set())
    assert at("gain_coda: the-wheel-turned", 11) == (16, "class", set())
    assert at("- test:", 2) == (4, "function", set())
    text = storybook.read_text(encoding="utf-8")
    assert sum(1 for t in tokens.values() if t[1] == "function") == text.count("test:\n") + text.count("test: {")
    coda = await _tokens(client, workspace / CODA)
    where = position_of(workspace / CODA, "id: the-wheel-turned", 4)
    assert coda[(where.line, where.character)] == (16, "class", {"declaration"})


async def test_an_entry_number_or_coda_that_names_nothing_is_unresolved(client, workspace):
    storybook = workspace / STORYBOOK
    uri = open_file(client, storybook)  # open already, unless this test runs alone
    text = storybook.read_text(encoding="utf-8")
    broken = text.replace("goto: 11", "goto: 9999", 1).replace("has_coda: the-wheel-turned",
                                                                "has_coda: the-wheel-turnt", 1)
    replace_all(client, uri, broken, 20)
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM301" for d in found))
    tokens = await _tokens(client, storybook)
    goto = position_of(storybook, "goto: 11", 6)
    assert tokens[(goto.line, goto.character)] == (4, "enumMember", {"unresolved"})
    coda = position_of(storybook, "has_coda: the-wheel-turned", 10)
    assert tokens[(coda.line, coda.character)] == (15, "class", {"unresolved"})
    # A range asks for its lines only.
    ranged = await client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(
        text_document=_doc(storybook), range=types.Range(start=types.Position(line=goto.line, character=0),
                                                          end=types.Position(line=goto.line, character=40))))
    assert _decode(ranged.data) == [(goto.line, goto.character, 4, "enumMember", {"unresolved"})]
    replace_all(client, uri, text, 21)
    await diagnostics_for(client, uri, lambda found: not found)


async def _lenses(client, path: Path) -> dict[int, list[str]]:
    found = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(path)))
    by_line: dict[int, list[str]] = {}
    for lens in found:
        by_line.setdefault(lens.range.start.line, []).append(lens.command.title)
    return by_line


def _entry_above(path: Path, needle: str) -> int:
    """The number of the entry a line of the storybook belongs to."""
    lines = path.read_text(encoding="utf-8").split("\n")
    line = position_of(path, needle).line
    return next(int(row.split(":")[1]) for row in reversed(lines[:line]) if row.startswith("  - entry: "))


async def test_code_lenses_give_links_in_reachability_and_odds(client, workspace):
    storybook = workspace / STORYBOOK
    lenses = await _lenses(client, storybook)
    assert len(lenses) == 153  # one place per entry
    eleven = lenses[position_of(storybook, "- entry: 11").line]
    assert eleven[:2] == [f"1 link in: from {_entry_above(storybook, 'goto: 11')}",
                          "reachable in the wanderer stage"]
    vestry = lenses[position_of(storybook, "- entry: 400").line]
    assert vestry[0] == "1 link in: from finale encounter card the-vestry-door"
    assert vestry[1] == "reachable in the finale of ending C"
    start = lenses[position_of(storybook, "- entry: 300").line]
    assert "from ending A" in start[0]
    # The pass chance of a test is the one `dmtool odds` reports for it.
    result = CliRunner().invoke(cli, ["odds", str(storybook), "--format", "json"])
    assert result.exit_code == 0, result.output
    (book,) = json.loads(result.output)["storybooks"]
    wheel = _entry_above(storybook, "title: Pinned to the Wheel")
    chance = Fraction(next(t["exact"] for t in book["tests"] if t["node"] == wheel))
    titles = lenses[position_of(storybook, f"- entry: {wheel}").line]
    assert titles[2] == f"test passes {float(chance) * 100:.1f}% ({chance}) at starting sentience"


async def test_a_lens_says_when_an_entry_can_no_longer_be_reached(client, workspace):
    storybook = workspace / STORYBOOK
    uri = open_file(client, storybook)  # open already, unless this test runs alone
    text = storybook.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("- goto: 11", "- end: event", 1), 30)
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM303" for d in found))
    lenses = await _lenses(client, storybook)
    assert lenses[position_of(storybook, "- entry: 11").line][:2] == ["no links in", "never reached"]
    replace_all(client, uri, text, 31)
    await diagnostics_for(client, uri, lambda found: not found)


async def test_a_rename_after_an_entry_is_added_above_edits_the_text_as_it_is_now(client, workspace):
    """Entries the edit left alone keep the references found in them, moved with them."""
    storybook = workspace / STORYBOOK
    uri = open_file(client, storybook)
    text = storybook.read_text(encoding="utf-8")
    added = text.replace("entries:\n  - entry: 1\n", "entries:\n  - entry: 9000\n    kind: event\n"
                         "    title: Added\n    text: Added.\n    effects:\n      - end: event\n"
                         "  - entry: 1\n", 1)
    assert added != text
    await _tokens(client, storybook)  # known before the edit, and moved by it
    replace_all(client, uri, added, 50)
    on_disk = position_of(storybook, "- entry: 390", 9)  # six lines further down in the buffer
    at = types.Position(line=on_disk.line + 6, character=on_disk.character)
    found = _edited(await _rename(client, storybook, at, "399"), workspace)
    edits = found[STORYBOOK]
    assert [e.range.start for e in edits] == [at]
    assert "- entry: 399\n" in _apply(added, edits)
    tokens = await _tokens(client, storybook)
    start, goto = position_of(storybook, "start: 300", 7), position_of(storybook, "goto: 11", 6)
    assert tokens[(start.line + 6, start.character)] == (3, "enumMember", set())
    assert tokens[(goto.line + 6, goto.character)] == (2, "enumMember", set())
    assert tokens[(at.line, at.character)] == (3, "enumMember", {"declaration"})
    assert (start.line, start.character) not in tokens
    replace_all(client, uri, text, 51)
    await diagnostics_for(client, uri, lambda found: not found)


async def test_a_link_in_an_entry_left_alone_is_unresolved_once_its_entry_is_renumbered(client, workspace):
    storybook = workspace / STORYBOOK
    uri = open_file(client, storybook)
    text = storybook.read_text(encoding="utf-8")
    await _tokens(client, storybook)  # the entries' tokens are known before the edit
    replace_all(client, uri, text.replace("  - entry: 11\n", "  - entry: 1011\n", 1), 60)
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM301" for d in found))
    tokens = await _tokens(client, storybook)
    goto, own = position_of(storybook, "goto: 11", 6), position_of(storybook, "- entry: 11", 9)
    assert tokens[(goto.line, goto.character)] == (2, "enumMember", {"unresolved"})
    assert tokens[(own.line, own.character)] == (4, "enumMember", {"declaration"})
    replace_all(client, uri, text, 61)
    await diagnostics_for(client, uri, lambda found: not found)
    tokens = await _tokens(client, storybook)
    assert tokens[(goto.line, goto.character)] == (2, "enumMember", set())

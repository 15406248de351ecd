"""The language server never fails a request: half-typed buffers, random edits, any position."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from lsprotocol import types

from dmtool.lsp.actions import code_actions, format_document
from dmtool.lsp.completion import complete
from dmtool.lsp.context import RequestContext, Tools
from dmtool.lsp.hover import hover
from dmtool.lsp.navigation import definition, references
from dmtool.lsp.outline import outline
from dmtool.lsp.schema_nav import ReferenceFinder, SchemaNavigator
from dmtool.lsp.workspace import LiveWorkspace
from tests.lsp_support import (
    STORYBOOK,
    copy_workspace,
    diagnostics_for,
    open_file,
    position_of,
    replace_all,
    start,
)

# Characters an author's typos are made of, YAML's indicators first.
_TYPED = ":-{}[]#'\"|>&*!%@ \n\t" + "abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> tuple[LiveWorkspace, Tools, Path]:
    workspace = copy_workspace(tmp_path_factory.mktemp("robust"))
    live = LiveWorkspace.for_folders([workspace])
    live.load()
    live.analyse()
    navigator = SchemaNavigator(live.session.schemas)
    return live, Tools(navigator, ReferenceFinder(navigator)), workspace


def _every_request(context: RequestContext, line: int, column: int, *, heavy: bool) -> None:
    position = types.Position(line=line, character=column)
    hover(context, position)
    definition(context, position)
    complete(context, position)
    if heavy:
        references(context, position, True)
        diagnostic = types.Diagnostic(range=types.Range(start=position, end=position), message="x",
                                      source="dmtool", code="DM302",
                                      data={"pointer": "/entries/3/effects", "hint": "did you mean 'goto'?"})
        code_actions(context, types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=""), range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic])))


def test_every_position_of_the_storybook_answers(live):
    workspace, tools, folder = live
    path = folder / STORYBOOK
    text = path.read_text(encoding="utf-8")
    context = RequestContext(workspace.snapshot, tools, path, text)
    lines = text.split("\n")
    # Every 11th line (all the storybook's shapes recur within that), at its start, middle
    # and past its end.
    for number in range(0, len(lines), 11):
        line = lines[number]
        for column in {0, len(line) // 2, len(line) + 3}:
            _every_request(context, number, column, heavy=number % 99 == 0)
    assert outline(context.document)


def test_a_half_typed_buffer_reports_its_syntax_and_keeps_navigation(live):
    workspace, tools, folder = live
    path = folder / STORYBOOK
    text = path.read_text(encoding="utf-8")
    broken = text.replace("  - entry: 11\n", "  - entry: [11\n", 1)
    workspace.change(path, broken)
    snapshot = workspace.analyse()
    assert [d.code for d in snapshot.diagnostics[path.absolute()]] == ["DM001"]
    context = RequestContext(snapshot, tools, path.absolute(), broken)
    assert context.document is not None and context.document.text == text  # the last good one
    found = definition(context, position_of(path, "goto: 11", 7))
    assert [f.range.start for f in found] == [position_of(path, "- entry: 11", 2)]
    workspace.change(path, text)
    assert workspace.analyse().diagnostics[path.absolute()] == ()


def test_random_edits_in_process(live):
    workspace, tools, folder = live
    path = folder / STORYBOOK
    original = path.read_text(encoding="utf-8")
    chance = random.Random(15)
    text = original
    for _ in range(12):
        text = _edit(text, chance)
        workspace.change(path, text)
        snapshot = workspace.analyse()
        context = RequestContext(snapshot, tools, path.absolute(), text)
        lines = text.split("\n")
        for _ in range(20):
            line = chance.randrange(len(lines))
            _every_request(context, line, chance.randrange(len(lines[line]) + 2), heavy=False)
        if chance.random() < 0.25:  # the formatter reads the whole file: now and then
            format_document(context)
    workspace.change(path, original)
    assert workspace.analyse().diagnostics[path.absolute()] == ()


def _edit(text: str, chance: random.Random) -> str:
    """One random edit: typed characters, a deleted span, or a duplicated or dropped line."""
    where = chance.randrange(len(text) + 1)
    choice = chance.randrange(4)
    if choice == 0:
        return text[:where] + "".join(chance.choice(_TYPED) for _ in range(chance.randint(1, 6))) + text[where:]
    if choice == 1:
        return text[:where] + text[where + chance.randint(1, 40):]
    lines = text.split("\n")
    index = chance.randrange(len(lines))
    if choice == 2:
        return "\n".join(lines[:index + 1] + lines[index:])
    return "\n".join(lines[:index] + lines[index + 1:])


@pytest.mark.asyncio
async def test_random_edits_over_stdio_never_fail_a_request(tmp_path):
    workspace = copy_workspace(tmp_path)
    client = await start(workspace)
    try:
        path = workspace / STORYBOOK
        uri = open_file(client, path)
        await diagnostics_for(client, uri, lambda found: True)
        chance = random.Random(7)
        original = text = path.read_text(encoding="utf-8")
        document = types.TextDocumentIdentifier(uri=uri)
        for version in range(2, 22):
            text = _edit(text, chance)
            replace_all(client, uri, text, version)
            lines = text.split("\n")
            line = chance.randrange(len(lines))
            position = types.Position(line=line, character=chance.randrange(len(lines[line]) + 2))
            requests = [
                client.text_document_hover_async(types.HoverParams(text_document=document, position=position)),
                client.text_document_definition_async(types.DefinitionParams(text_document=document, position=position)),
                client.text_document_completion_async(types.CompletionParams(text_document=document, position=position)),
                client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document)),
            ]
            if version % 5 == 0:
                requests.append(client.text_document_formatting_async(types.DocumentFormattingParams(
                    text_document=document, options=types.FormattingOptions(tab_size=2, insert_spaces=True))))
            await asyncio.gather(*requests)
        replace_all(client, uri, original, 30)
        await diagnostics_for(client, uri, lambda found: not found)
        failures = [m.message for m in client.log_messages if "failed" in m.message]
        assert failures == []
    finally:
        await client.shutdown_session()

"""Code actions for the fixes diagnostics suggest, and formatting with `dmtool fmt`'s layout.

Fixes are read from the diagnostic the editor hands back: its code, its range and the
hint it carried (`data.hint`), never from a second analysis. Three kinds exist:
did-you-mean (replace the word with the suggestion), a missing modeline (DM017, insert
it), and an entry branch that neither links on nor ends (DM302, add the `end:` the
message suggests).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lsprotocol import types

from dmtool.authoring import FormatError, format_text
from dmtool.authoring.keyorder import KeyOrder
from dmtool.authoring.scaffold import modeline
from dmtool.lsp.context import RequestContext, value_at
from dmtool.lsp.convert import char_column, line_of, position, uri_of, utf16_column
from dmtool.validation.schemas import default_schema_dir

_WORD = re.compile(r"[\w.-]+")
_DID_YOU_MEAN = re.compile(r"did you mean (?:entry )?'?([^'?]+)'?\?")
# The sides a branching effect may lack, in the order a reader expects them.
_SIDES = {"test": ("pass", "fail"), "if": ("else",)}


def code_actions(context: RequestContext, params: types.CodeActionParams) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    for diagnostic in params.context.diagnostics:
        if diagnostic.source != "dmtool":
            continue
        edit = _fix(context, diagnostic)
        if edit is not None:
            title, edits = edit
            actions.append(types.CodeAction(
                title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri_of(context.path): edits})))
    return actions


def _fix(context: RequestContext, diagnostic: types.Diagnostic) -> tuple[str, list[types.TextEdit]] | None:
    data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
    hint = data.get("hint") or ""
    suggestion = _DID_YOU_MEAN.search(hint)
    if suggestion is not None:
        word = suggestion.group(1)
        return f"Replace with '{word}'", [types.TextEdit(range=_word_range(context.text, diagnostic.range),
                                                         new_text=word)]
    if diagnostic.code == "DM017" and context.kind:
        line = modeline(context.path, context.kind, default_schema_dir())
        return "Add the schema modeline", [types.TextEdit(
            range=types.Range(start=types.Position(line=0, character=0),
                              end=types.Position(line=0, character=0)), new_text=line + "\n")]
    if diagnostic.code == "DM018" and context.kind:
        # A modeline into an environment that is gone: the one `dmtool new` writes now.
        row = diagnostic.range.start.line
        return "Point the modeline at dmtool's schema", [types.TextEdit(
            range=types.Range(start=types.Position(line=row, character=0),
                              end=types.Position(line=row + 1, character=0)),
            new_text=modeline(context.path, context.kind, default_schema_dir()) + "\n")]
    if diagnostic.code == "DM302":
        return _add_end(context, str(data.get("pointer") or ""))
    return None


def _word_range(text: str, where: types.Range) -> types.Range:
    """The diagnostic's range cut to the word at its start (a key, an id or a number)."""
    line = line_of(text, where.start.line)
    start = char_column(line, where.start.character)  # the range counts UTF-16 units
    match = _WORD.match(line, start)
    if match is None:
        return where
    return types.Range(start=where.start, end=types.Position(
        line=where.start.line, character=utf16_column(line, match.end())))


def _parts(pointer: str) -> tuple[str | int, ...]:
    parts: list[str | int] = []
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(part) if part.isdigit() else part)
    return tuple(parts)


def _add_end(context: RequestContext, pointer: str) -> tuple[str, list[types.TextEdit]] | None:
    """Append `- end: <encounter|event>` to the effect list of the branch that runs out."""
    document = context.document
    parts = _parts(pointer)
    if document is None or len(parts) < 2 or parts[0] != "entries":
        return None
    entry = value_at(document.data, parts[:2])
    if not isinstance(entry, dict):
        return None
    ending = "event" if entry.get("kind") == "event" else "encounter"
    effects = _branch_list(parts)
    target = value_at(document.data, effects)
    if isinstance(target, dict):
        return _add_side(context, effects, target, ending)
    if not isinstance(target, list) or not target:
        return None
    last = effects + (len(target) - 1,)
    where = document.locate(last)
    dash_column = where.column - 1 - 2  # items sit two columns in from their dash
    line = _block_end(context.text, where.line - 1, dash_column)
    return f"Add '- end: {ending}'", [_insert(context, line, " " * dash_column + f"- end: {ending}\n")]


def _add_side(context: RequestContext, parts: tuple[str | int, ...], body: dict[str, Any],
              ending: str) -> tuple[str, list[types.TextEdit]] | None:
    """A test or an `if` without the side that runs out: write that side, ending there."""
    side = next((s for s in _SIDES.get(str(parts[-1]), ()) if s not in body), None)
    document = context.document
    if side is None or document is None or not body:
        return None
    where = document.locate(parts + (next(iter(body)),), key=True)  # the body's first key
    column = where.column - 1
    line = _block_end(context.text, where.line - 1, column - 1)
    text = f"{' ' * column}{side}:\n{' ' * (column + 2)}- end: {ending}\n"
    return f"Add '{side}: [end: {ending}]'", [_insert(context, line, text)]


def _insert(context: RequestContext, line: int, text: str) -> types.TextEdit:
    at = position(context.text, line, 0)
    return types.TextEdit(range=types.Range(start=at, end=at), new_text=text)


def _branch_list(parts: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The effect list of the side named by a DM302 pointer."""
    if parts[-1] == "entry":
        return parts[:-1] + ("effects",)
    if len(parts) >= 2 and parts[-2] == "choice":
        return parts + ("effects",)
    return parts


def _block_end(text: str, first: int, dash_column: int) -> int:
    """The first line after line `first` that is outside an item starting at `dash_column`."""
    lines = text.split("\n")
    for number in range(first + 1, len(lines)):
        line = lines[number]
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and len(line) - len(line.lstrip(" ")) <= dash_column:
            return number
    return len(lines) - (1 if lines and lines[-1] == "" else 0)


def format_document(context: RequestContext, schema_dir: Path | None = None) -> list[types.TextEdit] | None:
    """The whole buffer in `dmtool fmt`'s layout; None (no change) when it cannot be done safely."""
    try:
        formatted = format_text(context.text, order=_key_order(schema_dir or default_schema_dir()))
    except FormatError:
        return None
    if formatted == context.text:
        return []
    lines = context.text.split("\n")
    end = types.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                           new_text=formatted)]


_ORDERS: dict[Path, Any] = {}


def _key_order(schema_dir: Path) -> KeyOrder:
    order = _ORDERS.get(schema_dir)
    if order is None:
        order = _ORDERS[schema_dir] = KeyOrder(schema_dir)
    return order

"""Workspace symbols: the entries of every storybook, found by number or by title.

An author of a numbered gamebook thinks "entry 243" or "the one with the bell": a query
of digits finds the entries whose number starts with them, any other query the entries
whose title holds it (case aside). Each symbol covers its entry (see extents.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.convert import position, uri_of
from dmtool.lsp.extents import entry_extents
from dmtool.lsp.targets import Book, kind_of

# An editor shows a list to pick from: more than this many is no help.
MOST = 200


def workspace_symbols(documents: Iterable[SourceDocument], query: str) -> list[types.WorkspaceSymbol]:
    wanted = query.strip().casefold()
    found: list[types.WorkspaceSymbol] = []
    for document in sorted(documents, key=lambda d: d.display):
        if kind_of(document) != "storybook":
            continue
        book = Book(document, ())
        matches = [(number, entry) for number, _parts, entry in book.entries()
                   if _matches(wanted, number, entry.get("title"))]
        if not matches:
            continue
        extents = entry_extents(document, book)
        for number, entry in matches:
            extent = extents[number]
            found.append(types.WorkspaceSymbol(
                name=f"{number} {entry.get('title') or ''}".strip(), kind=types.SymbolKind.Key,
                container_name=str(document.data.get("title") or document.display),
                location=types.Location(uri=uri_of(document.path), range=types.Range(
                    start=position(document.text, extent.first, extent.dash),
                    end=position(document.text, extent.last, extent.end)))))
            if len(found) >= MOST:
                return found
    return found


def _matches(wanted: str, number: int, title: object) -> bool:
    if not wanted:
        return True
    if wanted.isdigit():
        return str(number).startswith(wanted)
    return isinstance(title, str) and wanted in title.casefold()

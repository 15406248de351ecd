"""Semantic tokens: entry numbers (those that lead somewhere and those that do not), codas
and tests, so an editor colours what a gamebook is made of.

The tokens come from the last analysis's document (the places `find references` walks,
targets.py), never from re-reading the text: when the buffer differs from that document
(half typed, or newer than the analysis) there are no tokens to give, and the editor
keeps the ones it has until the next request.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.convert import line_of, utf16_column
from dmtool.lsp.schema_nav import ReferenceFinder
from dmtool.lsp.targets import books_for, kind_of

# The legend: token types and modifiers are sent as indexes into these lists. Standard
# names, so an editor's theme colours them without being told about dmtool.
ENTRY, CODA, TEST = "enumMember", "class", "function"
TOKEN_TYPES = [ENTRY, CODA, TEST]
DECLARATION, UNRESOLVED = "declaration", "unresolved"
TOKEN_MODIFIERS = [DECLARATION, UNRESOLVED]
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

# The documents' tokens, by document and the set of documents they resolve against: an
# editor asks again after each edit and as the view scrolls.
_KEEP = 4
_RECENT: dict[tuple[int, int], tuple[SourceDocument, Any, list[Token]]] = {}
_MAKING = threading.Lock()


class Token(NamedTuple):
    """One token: 0-based line, character column, length in characters, type, modifiers."""

    line: int
    column: int
    length: int
    kind: str
    modifiers: frozenset[str]


def semantic_tokens(document: SourceDocument, documents: Mapping[Any, SourceDocument],
                    finder: ReferenceFinder, lines: tuple[int, int] | None = None) -> types.SemanticTokens:
    """The document's tokens (those on `lines`, first to last inclusive, if given)."""
    key = (id(document), id(documents))
    with _MAKING:  # requests made together wait for one walk, not make one each
        known = _RECENT.get(key)
        if known is not None and known[0] is document and known[1] is documents:
            found = known[2]
        else:
            found = sorted(_tokens(document, list(documents.values()), finder))
            _RECENT[key] = (document, documents, found)
            while len(_RECENT) > _KEEP:
                del _RECENT[next(iter(_RECENT))]
    if lines is not None:
        found = [t for t in found if lines[0] <= t.line <= lines[1]]
    return types.SemanticTokens(data=encode(document.text, found))


def encode(text: str, tokens: list[Token]) -> list[int]:
    """LSP's relative encoding: each token's line and start from the previous token's,
    columns and lengths in UTF-16 code units."""
    data: list[int] = []
    line = start = 0
    for token in tokens:
        source = line_of(text, token.line)
        column = utf16_column(source, token.column)
        length = utf16_column(source, token.column + token.length) - column
        delta = token.line - line
        data += [delta, column - start if delta == 0 else column, length,
                 TOKEN_TYPES.index(token.kind),
                 sum(1 << TOKEN_MODIFIERS.index(m) for m in token.modifiers)]
        line, start = token.line, column
    return data


def _tokens(document: SourceDocument, documents: list[SourceDocument],
            finder: ReferenceFinder) -> Iterator[Token]:
    books = books_for(document, documents)
    numbers = {number for book in books for number, _parts, _entry in book.entries()}
    codas = {d.data.get("id") for d in documents if kind_of(d) == "coda"}
    seen: set[tuple[int, int]] = set()
    for book in books_for(document, [document]):
        if book.document is document:
            for number, parts, _entry in book.entries():
                yield from _token(document, parts + ("entry",), str(number), ENTRY,
                                  {DECLARATION}, seen)
    for parts, place, value in finder.references(kind_of(document), document.data):
        if place.is_entry_number and not isinstance(value, str):
            missing = set() if value in numbers else {UNRESOLVED}
            yield from _token(document, parts, str(value), ENTRY, missing, seen)
        elif isinstance(value, str) and "coda" in place.refers_to:
            missing = set() if value in codas else {UNRESOLVED}
            yield from _token(document, parts, value, CODA, missing, seen)
    if kind_of(document) == "coda" and isinstance(document.data.get("id"), str):
        yield from _token(document, ("id",), str(document.data["id"]), CODA, {DECLARATION}, seen)
    for parts in _tests(document.data, ()):
        yield from _token(document, parts, "test", TEST, set(), seen, key=True)


def _token(document: SourceDocument, parts: tuple[str | int, ...], written: str, kind: str,
           modifiers: set[str], seen: set[tuple[int, int]], *, key: bool = False) -> Iterator[Token]:
    """The token for the value (or key) at `parts`, if the text there is what it says
    (quotes around an id included in neither its start nor its length)."""
    where = document.locate(parts, key=key)
    line, column = where.line - 1, where.column - 1
    source = line_of(document.text, line)
    if source[column:column + 1] in ("'", '"'):
        column += 1
    if source[column:column + len(written)] != written or (line, column) in seen:
        return  # the location fell back to a parent: no token rather than a wrong one
    seen.add((line, column))
    yield Token(line, column, len(written), kind, frozenset(modifiers))


def _tests(node: Any, parts: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
    """The path of every `test:` that rolls dice, wherever it is written."""
    if isinstance(node, dict):
        for name, child in node.items():
            if name == "test" and isinstance(child, dict) and "roll" in child:
                yield parts + (name,)
            yield from _tests(child, parts + (str(name),))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _tests(child, parts + (index,))

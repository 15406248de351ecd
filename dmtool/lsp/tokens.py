"""Semantic tokens: entry numbers (those that lead somewhere and those that do not), codas
and tests, so an editor colours what a gamebook is made of.

The tokens come from the last analysis's document (the places `find references` walks,
schema_nav.py), never from re-reading the text: when the buffer differs from that document
(half typed, or newer than the analysis) there are no tokens to give, and the editor
keeps the ones it has until the next request.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.capabilities import (
    CODA,
    DECLARATION,
    ENTRY,
    TEST,
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
    UNRESOLVED,
)
from dmtool.lsp.context import value_at
from dmtool.lsp.convert import line_of, utf16_column
from dmtool.lsp.extents import Extent, entry_extents
from dmtool.lsp.lines import line_index
from dmtool.lsp.schema_nav import Found, ReferenceFinder
from dmtool.lsp.targets import books_for, kind_of

# The legend (token types and modifiers, sent as indexes into its lists) is stated in
# capabilities.py, which answers `initialize` before lsprotocol is imported.
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

# The tokens of the documents asked about last, by section (an entry of a storybook, or
# everything outside its entries): an editor asks again after each edit, and for the lines
# it shows (a range) before the whole file, which on a long storybook must not wait for
# every entry to be read.
_KEEP = 4
_RECENT: dict[int, _Tokens] = {}
_CACHE = threading.Lock()
_REST = -1  # the section of everything outside the entries
_BATCH = 200  # sections read between two looks at whether the text is still current
# Each storybook's entry tokens, by the entry's text (see _entry_tokens): kept for the
# entries of the last version of each path whose whole tokens were read.
_BY_ENTRY: dict[Any, dict[str, list[Token]]] = {}
# The same for what lies outside the entries, by the text before and after them.
_REST_KEPT: dict[Any, tuple[tuple[str, str], list[Token]]] = {}


class Token(NamedTuple):
    """One token: 0-based line, character column, length in characters, type, modifiers."""

    line: int
    column: int
    length: int
    kind: str
    modifiers: frozenset[str]
    named: Any = None  # what an entry number or coda id names (resolved anew each version)


class _Tokens:
    """One document's tokens as far as they were asked for, against one set of documents."""

    def __init__(self, document: SourceDocument, documents: Mapping[Any, SourceDocument]) -> None:
        self.document = document
        self.documents = documents
        listed = list(documents.values())
        self.books = books_for(document, listed)
        self.numbers = {number for book in self.books for number, _parts, _entry in book.entries()}
        self.codas = {d.data.get("id") for d in listed if kind_of(d) == "coda"}
        own = [b for b in books_for(document, [document]) if b.document is document and not b.prefix]
        # The entries of the document's own book, by index, with their lines.
        self.extents: dict[int, Extent] = {}
        if own:
            self.extents = {int(e.parts[-1]): e for e in entry_extents(document, own[0]).values()}
        self.sections: dict[int, list[Token]] = {}
        self.encoded: list[int] | None = None
        self.texts: set[str] = set()  # the entries' texts whose tokens were asked for


def semantic_tokens(document: SourceDocument, documents: Mapping[Any, SourceDocument],
                    finder: ReferenceFinder, lines: tuple[int, int] | None = None,
                    stale: Callable[[], bool] | None = None) -> types.SemanticTokens | None:
    """The document's tokens (those on `lines`, first to last inclusive, if given); None
    if `stale()` says, while the whole document's are read, that a newer text came."""
    known = _known(document, documents)
    if lines is None:
        if known.encoded is None:
            sections = [_REST, *known.extents]
            for start in range(0, len(sections), _BATCH):  # a long book: stop when stale
                if stale is not None and stale():
                    return None
                _gather(known, finder, sections[start:start + _BATCH])
            known.encoded = encode(document.text, _gather(known, finder, sections))
            kept = _BY_ENTRY.get(document.path, {})  # keep this version's entries' only
            _BY_ENTRY[document.path] = {text: kept[text] for text in known.texts if text in kept}
        return types.SemanticTokens(data=known.encoded)
    first, last = lines
    sections = [index for index, e in known.extents.items() if e.first <= last and first <= e.last]
    lines_of = [e.first for e in known.extents.values()] + [e.last for e in known.extents.values()]
    if not lines_of or first < min(lines_of) or last > max(lines_of):
        sections.append(_REST)  # the lines shown reach outside the entries
    found = [t for t in _gather(known, finder, sections) if first <= t.line <= last]
    return types.SemanticTokens(data=encode(document.text, found))


def _known(document: SourceDocument, documents: Mapping[Any, SourceDocument]) -> _Tokens:
    with _CACHE:
        known = _RECENT.get(id(document))
        if known is None or known.document is not document or known.documents is not documents:
            known = _RECENT[id(document)] = _Tokens(document, documents)
            while len(_RECENT) > _KEEP:
                del _RECENT[next(iter(_RECENT))]
        return known


def _gather(known: _Tokens, finder: ReferenceFinder, sections: list[int]) -> list[Token]:
    """The tokens of these sections, each section read once (two requests may both read
    one: the cost of not making one request wait for another)."""
    found: list[Token] = []
    for section in sections:
        tokens = known.sections.get(section)
        if tokens is None:
            tokens = known.sections[section] = _entry_tokens(known, finder, section)
        found += tokens
    return sorted(found, key=_order)


def _entry_tokens(known: _Tokens, finder: ReferenceFinder, section: int) -> list[Token]:
    """A section's tokens. An entry whose text the last edit left as it was keeps its
    tokens (kept by that text, by line within the entry), moved to where it starts now."""
    if section == _REST:
        return _rest_tokens(known, finder)
    extent = known.extents[section]
    index = line_index(known.document.text)
    written = index.text[index.starts[extent.first]:index.starts[extent.last + 1]]
    kept = _BY_ENTRY.setdefault(known.document.path, {})
    relative = kept.get(written)
    if relative is None:
        made = sorted(_section(known, finder, section), key=_order)
        relative = kept[written] = [t._replace(line=t.line - extent.first) for t in made]
    known.texts.add(written)
    return [t._replace(line=t.line + extent.first, modifiers=_modifiers(known, t)) for t in relative]


def _rest_tokens(known: _Tokens, finder: ReferenceFinder) -> list[Token]:
    """The tokens outside a book's entries, kept by the text before and after them while
    edits stay inside the entries (those after, by line from the entries' end)."""
    if not known.extents:
        return sorted(_section(known, finder, _REST), key=_order)
    head = min(e.first for e in known.extents.values())
    tail = max(e.last for e in known.extents.values())
    index = line_index(known.document.text)
    written = (index.text[:index.starts[head]], index.text[index.starts[tail + 1]:])
    kept = _REST_KEPT.get(known.document.path)
    if kept is None or kept[0] != written:
        made = sorted(_section(known, finder, _REST), key=_order)
        # Lines after the entries are kept as negative offsets from their last line.
        kept = _REST_KEPT[known.document.path] = (written, [
            t if t.line < head else t._replace(line=-(t.line - tail)) for t in made])
    return [t._replace(line=t.line if t.line >= 0 else tail - t.line,
                       modifiers=_modifiers(known, t)) for t in kept[1]]


def _modifiers(known: _Tokens, token: Token) -> frozenset[str]:
    """A token's modifiers against the documents of this version."""
    if token.named is None:
        return token.modifiers
    names = known.numbers if token.kind == ENTRY else known.codas
    return token.modifiers - {UNRESOLVED} if token.named in names else token.modifiers | {UNRESOLVED}


def encode(text: str, tokens: list[Token]) -> list[int]:
    """LSP's relative encoding: each token's line and start from the previous token's,
    columns and lengths in UTF-16 code units."""
    data: list[int] = []
    line = start = 0
    index = line_index(text)
    for token in tokens:
        source = index.line(token.line)
        column = utf16_column(source, token.column)
        length = utf16_column(source, token.column + token.length) - column
        delta = token.line - line
        data += [delta, column - start if delta == 0 else column, length,
                 TOKEN_TYPES.index(token.kind),
                 sum(1 << TOKEN_MODIFIERS.index(m) for m in token.modifiers)]
        line, start = token.line, column
    return data


def _section(known: _Tokens, finder: ReferenceFinder, section: int) -> Iterator[Token]:
    """The tokens of one entry of the document's own book, or of all the rest of it."""
    document = known.document
    data = document.data if isinstance(document.data, dict) else {}
    seen: set[tuple[int, int]] = set()
    if section == _REST:
        prefixes: list[tuple[str | int, ...]] = [(key,) for key in data if key != "entries" or not known.extents]
        if kind_of(document) == "coda" and isinstance(data.get("id"), str):
            yield from _token(document, ("id",), data["id"], CODA, {DECLARATION}, seen)
        for book in books_for(document, [document]):
            if book.document is document and book.prefix:  # a fixture's inline storybook
                for number, parts, _entry in book.entries():
                    yield from _token(document, parts + ("entry",), str(number), ENTRY,
                                      {DECLARATION}, seen)
    else:
        prefixes = [("entries", section)]
        parts = known.extents[section].parts
        entry = value_at(data, parts)
        yield from _token(document, parts + ("entry",), str(entry.get("entry")), ENTRY, {DECLARATION}, seen)
    for prefix in prefixes:
        for parts, place, value in _references(known, finder, prefix):
            if place.is_entry_number and not isinstance(value, str):
                missing = set() if value in known.numbers else {UNRESOLVED}
                yield from _token(document, parts, str(value), ENTRY, missing, seen, named=value)
            elif isinstance(value, str) and "coda" in place.refers_to:
                missing = set() if value in known.codas else {UNRESOLVED}
                yield from _token(document, parts, value, CODA, missing, seen, named=value)
        for parts in _tests(value_at(data, prefix), prefix):
            yield from _token(document, parts, "test", TEST, set(), seen, key=True)


def _references(known: _Tokens, finder: ReferenceFinder, prefix: tuple[str | int, ...]) -> list[Found]:
    """The references under `prefix` alone (one entry, or one key outside the entries):
    after an edit, only the entries whose text changed are walked."""
    return list(finder.references(kind_of(known.document), known.document.data, prefix))


def _token(document: SourceDocument, parts: tuple[str | int, ...], written: str, kind: str,
           modifiers: set[str], seen: set[tuple[int, int]], *, key: bool = False,
           named: Any = None) -> Iterator[Token]:
    """The token for the value (or key) at `parts`, if the text there is what it says
    (quotes around an id included in neither its start nor its length)."""
    line, column = document.line_column(parts, key=key)
    line, column = line - 1, column - 1
    source = line_of(document.text, line)
    if source[column:column + 1] in ("'", '"'):
        column += 1
    if source[column:column + len(written)] != written or (line, column) in seen:
        return  # the location fell back to a parent: no token rather than a wrong one
    seen.add((line, column))
    yield Token(line, column, len(written), kind, frozenset(modifiers), named)


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


def _order(token: Token) -> tuple[int, int]:
    return (token.line, token.column)

"""Document symbols: a storybook's entries by number and title, grouped by block and ending.

Round events, wanderer-stage encounters and reality shards form one group each; finale
and conclusion entries go under the ending whose finale reaches them (following gotos
from its start and its conclusions). Other documents list their top-level keys.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.convert import line_of, location_range, utf16_column
from dmtool.lsp.extents import Extent, entry_extents
from dmtool.lsp.targets import Book, kind_of
from dmtool.model.storybook import iter_effects
from dmtool.storygraph.context import context_for

BLOCKS = (("event", "Round events"), ("exploration", "Encounters"),
          ("reality_shard", "Reality shards"))
Symbol = types.DocumentSymbol
# Outlines kept for the documents asked about last (a few open files).
_KEEP = 4
_RECENT: dict[tuple[int, int], tuple[SourceDocument, Any, list[Symbol]]] = {}
_MAKING = threading.Lock()
# The entry symbols of the last outline of each file, by (the entry's data, its first and
# last lines): an entry a keystroke did not touch keeps its data (loading/splice.py) and,
# unless lines came or went above it, its lines, so its symbol is the one made before.
# A 10,000-entry book's outline is then made again for each key from a few new symbols.
_ENTRY_SYMBOLS: dict[str, dict[tuple[int, int, int], tuple[Any, Symbol]]] = {}


def outline(document: SourceDocument, corpus: Any = None) -> list[Symbol]:
    """The document's symbols; `corpus` (with `of_kind`) names the finale encounters on
    world shards and finale cards, which tie more finale entries to their ending.

    An editor asks again for the same text (after each edit, and as the view scrolls):
    the last answers are kept with the document and corpus they describe."""
    key = (id(document), id(corpus))
    with _MAKING:  # requests made together wait for one outline, not make one each
        known = _RECENT.get(key)
        if known is not None and known[0] is document and known[1] is corpus:
            return known[2]
        symbols = _outline(document, corpus)
        _RECENT[key] = (document, corpus, symbols)
        while len(_RECENT) > _KEEP:
            del _RECENT[next(iter(_RECENT))]
        return symbols


def _outline(document: SourceDocument, corpus: Any) -> list[Symbol]:
    if kind_of(document) == "storybook":
        finale: list[tuple[str, int]] = []
        wanderer = document.data.get("wanderer")
        if corpus is not None and isinstance(wanderer, str):
            finale = [(s.ending, s.entry) for s in context_for(corpus, wanderer).finale
                      if s.ending is not None]
        return _storybook(document, Book(document, ()), finale)
    data = document.data if isinstance(document.data, dict) else {}
    return [_symbol(document, str(key), (key,), types.SymbolKind.Field) for key in data]


def _symbol(document: SourceDocument, name: str, parts: tuple[str | int, ...],
            kind: types.SymbolKind, children: list[Symbol] | None = None,
            detail: str | None = None) -> Symbol:
    where = location_range(document.text, document.locate(parts, key=True))
    extent = where
    if children:
        extent = types.Range(start=min((c.range.start for c in children), key=_order),
                             end=max((c.range.end for c in children), key=_order))
        # The whole group, its own key too (an ending's key stands after its entries).
        extent = types.Range(start=min(where.start, extent.start, key=_order),
                             end=max(where.end, extent.end, key=_order))
    return Symbol(name=name, kind=kind, range=extent, selection_range=where,
                  children=children or None, detail=detail)


def _order(at: types.Position) -> tuple[int, int]:
    return (at.line, at.character)


def _entry_symbol(text: str, name: str, extent: Extent, detail: str | None) -> Symbol:
    """An entry's symbol: it covers the whole entry, and is named at its `entry` key.
    (Its positions are made without attrs' validators, which cost most of a long book's
    outline: each is a line and a column of the text, never negative.)"""
    first = line_of(text, extent.first)
    start = _position(extent.first, utf16_column(first, extent.dash))
    whole = _range(start, _position(extent.last, utf16_column(line_of(text, extent.last), extent.end)))
    key = extent.dash + 2
    if first.startswith("entry:", key):
        named = _range(_position(extent.first, utf16_column(first, key)),
                       _position(extent.first, utf16_column(first, key + len("entry"))))
    else:
        named = _range(start, start)
    return Symbol(name=name, kind=types.SymbolKind.Key, range=whole, selection_range=named,
                  detail=detail)


def _position(line: int, character: int) -> types.Position:
    made = object.__new__(types.Position)
    object.__setattr__(made, "line", line)
    object.__setattr__(made, "character", character)
    return made


def _range(start: types.Position, end: types.Position) -> types.Range:
    made = object.__new__(types.Range)
    object.__setattr__(made, "start", start)
    object.__setattr__(made, "end", end)
    return made


def folding_ranges(document: SourceDocument) -> list[types.FoldingRange]:
    """One fold per entry of a storybook, from its first line to its last."""
    if kind_of(document) != "storybook":
        return []
    return [types.FoldingRange(start_line=e.first, end_line=e.last)
            for e in entry_extents(document, Book(document, ())).values() if e.last > e.first]


def _storybook(document: SourceDocument, book: Book,
               finale: list[tuple[str, int]]) -> list[Symbol]:
    entries = {number: (parts, entry) for number, parts, entry in book.entries()}
    extents = entry_extents(document, book)
    owner = _endings_of(book, entries, finale)
    groups: dict[str, list[Symbol]] = {}
    before = _ENTRY_SYMBOLS.get(document.display, {})
    made: dict[tuple[int, int, int], tuple[Any, Symbol]] = {}
    blocks = dict(BLOCKS)
    for number, (parts, entry) in entries.items():
        kind = entry.get("kind")
        group = blocks.get(kind) if kind.__class__ is str else None
        if group is None:
            letter = owner.get(number)
            group = f"Ending {letter}" if letter else "Finale (no ending reaches it)"
        extent = extents.get(number)
        if extent is not None and extent.parts == parts:
            key = (id(entry), extent.first, extent.last)
            known = before.get(key)
            if known is not None and known[0] is entry:
                symbol = known[1]
            else:
                symbol = _entry_symbol(document.text, _name(number, entry), extent,
                                       str(kind or "") or None)
            made[key] = (entry, symbol)
        else:
            symbol = _symbol(document, _name(number, entry), parts + ("entry",),
                             types.SymbolKind.Key, detail=str(kind or "") or None)
        found = groups.get(group)
        if found is None:
            found = groups[group] = []
        found.append(symbol)
    _ENTRY_SYMBOLS[document.display] = made
    while len(_ENTRY_SYMBOLS) > _KEEP:
        del _ENTRY_SYMBOLS[next(iter(_ENTRY_SYMBOLS))]
    symbols = []
    endings = _endings(book)
    for name in [label for _k, label in BLOCKS] + sorted(g for g in groups if g not in dict(BLOCKS).values()):
        children = groups.get(name)
        if not children:
            continue
        parts: tuple[str | int, ...] = ("entries",)
        detail = None
        if name.startswith("Ending ") and name[7:] in endings:
            parts, detail = endings[name[7:]]
        symbols.append(_symbol(document, name, parts, types.SymbolKind.Namespace, children, detail))
    return symbols


def _name(number: int, entry: Mapping[str, Any]) -> str:
    return f"{number} {entry.get('title') or ''}".strip()


def _endings(book: Book) -> dict[str, tuple[tuple[str | int, ...], str | None]]:
    found = {}
    for index, ending in enumerate(book.data.get("endings") or []):
        if isinstance(ending, dict) and isinstance(ending.get("ending"), str):
            found[ending["ending"]] = (("endings", index, "ending"), ending.get("title"))
    return found


def _endings_of(book: Book, entries: Mapping[int, tuple[Any, Mapping[str, Any]]],
                finale: list[tuple[str, int]]) -> dict[int, str]:
    """Each finale or conclusion entry's ending: the first whose finale reaches it by gotos
    from its start, its conclusions, or the finale encounters of its shards and cards."""
    owner: dict[int, str] = {}
    for ending in book.data.get("endings") or []:
        if not isinstance(ending, dict) or not isinstance(ending.get("ending"), str):
            continue
        starts = [ending.get("start")] + [c.get("entry") for c in ending.get("conclusions") or []
                                          if isinstance(c, dict)]
        starts += [entry for letter, entry in finale if letter == ending["ending"]]
        pending = [n for n in starts if isinstance(n, int)]
        while pending:
            number = pending.pop()
            if number in owner or number not in entries:
                continue
            owner[number] = ending["ending"]
            effects = entries[number][1].get("effects")
            for name, body, _parts in iter_effects(effects if isinstance(effects, list) else [], ()):
                if name == "goto" and isinstance(body, int):
                    pending.append(body)
    return owner

"""Document symbols: a storybook's entries by number and title, grouped by block and ending.

Round events, wanderer-stage encounters and reality shards form one group each; finale
and conclusion entries go under the ending whose finale reaches them (following gotos
from its start and its conclusions). Other documents list their top-level keys.

The answer is written as JSON text, not as protocol objects: an editor asks for the
outline after every key, and a 10,000-entry book's is megabytes, which building 10,000
symbols, unstructuring them and encoding them again per version made cost a quarter of a
second. Here each entry's symbol is written once and kept with the entry's item while
the entry stands on the same lines (an entry a keystroke did not touch keeps its item,
loading/splice.py; only the entries below an edit that added or removed lines move), and
the answer is the kept texts joined.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.convert import line_of, location_range, utf16_column
from dmtool.lsp.extents import EntryLines, Extent, entry_extents, entry_lines
from dmtool.lsp.targets import Book, kind_of
from dmtool.model.storybook import iter_effects
from dmtool.storygraph.context import context_for

BLOCKS = (("event", "Round events"), ("exploration", "Encounters"),
          ("reality_shard", "Reality shards"))
_BLOCK_LABELS = dict(BLOCKS)
# An entry's dash's column in dmtool's layout (`  - entry: 1`).
_DASH = 2
_KEY, _GROUP, _FIELD = (int(types.SymbolKind.Key), int(types.SymbolKind.Namespace),
                        int(types.SymbolKind.Field))
# A position as (line, UTF-16 column), which orders as positions do.
Point = tuple[int, int]
# Outlines kept for the documents asked about last (a few open files).
_KEEP = 4
_RECENT: dict[tuple[int, int], tuple[SourceDocument, Any, str]] = {}
_MAKING = threading.Lock()


class _EntrySymbol(NamedTuple):
    """An entry's symbol as JSON text, kept with its item and the lines it was written for."""

    item: Any
    first: int
    last: int
    text: str
    start: Point
    end: Point


# The entry symbols of the last outline of each file, by the id of the entry's item.
_ENTRY_SYMBOLS: dict[Path, dict[int, _EntrySymbol]] = {}


def outline(document: SourceDocument, corpus: Any = None) -> str:
    """The document's symbols as the JSON text of a `DocumentSymbol[]`; `corpus` (with
    `of_kind`) names the finale encounters on world shards and finale cards, which tie
    more finale entries to their ending.

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


def _outline(document: SourceDocument, corpus: Any) -> str:
    if kind_of(document) == "storybook":
        finale: list[tuple[str, int]] = []
        wanderer = document.data.get("wanderer")
        if corpus is not None and isinstance(wanderer, str):
            finale = [(s.ending, s.entry) for s in context_for(corpus, wanderer).finale
                      if s.ending is not None]
        lines = entry_lines(document)
        if lines is not None:
            return _laid_out(document, lines, finale)
        return _storybook(document, Book(document, ()), finale)
    data = document.data if isinstance(document.data, dict) else {}
    fields = []
    for key in data:
        where = _where(document, (key,))
        fields.append(_symbol_text(str(key), _FIELD, where, where))
    return _listed(fields)


def folding_ranges(document: SourceDocument) -> list[types.FoldingRange]:
    """One fold per entry of a storybook, from its first line to its last."""
    if kind_of(document) != "storybook":
        return []
    return [types.FoldingRange(start_line=e.first, end_line=e.last)
            for e in entry_extents(document, Book(document, ())).values() if e.last > e.first]


# A group's entry symbols, and the first and last positions they cover.
_Members = tuple[list[str], Point, Point]


class _Written(NamedTuple):
    """What a book's outline keeps of one version, by item (lists in the items' order):
    the entry numbers (None for an item that is no entry), the entry symbols' names and
    details as JSON and their block's group (all of which stay while the item does: ''
    for an entry whose group is its ending's, None for an item that is no entry), the
    symbols, and where the keys its groups are named at stand."""

    lines: EntryLines
    numbers: list[int | None]
    names: list[tuple[str, str, str | None]]
    texts: list[str | None]
    keys: dict[tuple[str | int, ...], tuple[Point, Point]]


# By file, what the outline of the last index asked about kept: the next version's
# index, made from it, keeps most of it (see extents.py).
_WRITTEN: dict[Path, _Written] = {}


def _laid_out(document: SourceDocument, lines: EntryLines, finale: list[tuple[str, int]]) -> str:
    """The outline of a book in dmtool's layout, from its entries' index (extents.py)."""
    written = _written(document, lines)
    items, numbers = lines.items, written.numbers
    entry_of = dict(zip(reversed(numbers), reversed(items)))  # the first entry of a number
    owner = _endings_of(lambda number: (None, entry_of[number]) if number in entry_of else None,
                        finale, document.data.get("endings"))
    members: dict[str, list[int]] = {}
    for at, (_name_json, _detail_json, block) in enumerate(written.names):
        number = numbers[at]
        if block is None or number is None:
            continue
        group = block or _ending_group(owner, number)
        found = members.get(group)
        if found is None:
            found = members[group] = []
        found.append(at)
    groups: dict[str, _Members] = {}
    for group, found in members.items():
        first, last = found[0], found[-1]  # the entries stand in the order of their lines
        groups[group] = ([text for at in found if (text := written.texts[at]) is not None],
                         (lines.firsts[first], _DASH), (lines.lasts[last], lines.ends16[last]))
    return _grouped(groups, _endings(Book(document, ())),
                    lambda key: _key_at(document, written, key))


def _written(document: SourceDocument, lines: EntryLines) -> _Written:
    """This version's numbers, entry symbols and keys: those of the last version written
    kept where its index kept the items (the entries' symbols where they did not move,
    the keys before the entries, and after them moved as the entries' end moved)."""
    def write(at: int) -> str | None:
        if numbers[at] is None:
            return None
        first = lines.firsts[at]
        start = (first, _DASH)
        named = (start, start)
        if lines.text.startswith("  - entry:", lines.offsets[at]):
            named = ((first, _DASH + 2), (first, _DASH + 2 + len("entry")))
        name, detail, _block = names[at]
        return _symbol_json(name, _KEY, (start, (lines.lasts[at], lines.ends16[at])), named, detail)

    count = len(lines.items)
    known = _WRITTEN.get(document.path)
    base = lines.base() if lines.base is not None else None
    if known is not None and base is not None and known.lines is base:
        head, tail = lines.kept
        old_tail = len(base.items) - tail
        numbers = (known.numbers[:head] + [_number(item) for item in lines.items[head:count - tail]]
                   + known.numbers[old_tail:])
        names = (known.names[:head] + [_named(item, numbers[at]) for at, item in
                                       enumerate(lines.items[head:count - tail], head)]
                 + known.names[old_tail:])
        after = (known.texts[old_tail:] if lines.moved == 0
                 else [write(at) for at in range(count - tail, count)])
        texts = known.texts[:head] + [write(at) for at in range(head, count - tail)] + after
        entries_end = base.firsts[-1]
        keys = {parts: (where if where[0][0] < entries_end else
                        ((where[0][0] + lines.moved, where[0][1]), (where[1][0] + lines.moved, where[1][1])))
                for parts, where in known.keys.items()}
    else:
        numbers = [_number(item) for item in lines.items]
        names = [_named(item, number) for item, number in zip(lines.items, numbers)]
        texts = [write(at) for at in range(count)]
        keys = {}
    written = _Written(lines, numbers, names, texts, keys)
    _WRITTEN.pop(document.path, None)
    _WRITTEN[document.path] = written
    while len(_WRITTEN) > _KEEP:
        del _WRITTEN[next(iter(_WRITTEN))]
    return written


def _key_at(document: SourceDocument, written: _Written, parts: tuple[str | int, ...]) -> tuple[Point, Point]:
    """Where the key at `parts` is written, found once per file while its lines only move."""
    found = written.keys.get(parts)
    if found is None:
        found = written.keys[parts] = _where(document, parts)
    return found


def _named(item: Any, number: int | None) -> tuple[str, str, str | None]:
    """An entry symbol's name, its detail as a field to add (JSON), and its block's group."""
    if number is None:
        return "", "", None
    kind = item.get("kind")
    block = _BLOCK_LABELS.get(kind, "") if kind.__class__ is str else ""
    return json.dumps(_name(number, item)), _detail_field(_detail(kind)), block


def _detail(kind: Any) -> str | None:
    """What an entry's symbol says beside its name: its kind, unless its group says it
    (every entry under Encounters is an exploration; a 10,000-entry book's outline was a
    tenth longer for saying so each time)."""
    if kind.__class__ is str and kind in _BLOCK_LABELS:
        return None
    return str(kind or "") or None


def _number(item: Any) -> int | None:
    number = item.get("entry") if isinstance(item, dict) else None
    return number if number.__class__ is int else None


def _ending_group(owner: Mapping[int, str], number: int) -> str:
    """The group of a finale or conclusion entry: its ending's, if a finale reaches it."""
    letter = owner.get(number)
    return f"Ending {letter}" if letter else "Finale (no ending reaches it)"


def _storybook(document: SourceDocument, book: Book, finale: list[tuple[str, int]]) -> str:
    """The outline of a book in any other layout, from the document's positions."""
    entries = {number: (parts, entry) for number, parts, entry in book.entries()}
    extents = entry_extents(document, book)
    owner = _endings_of(entries.get, finale, book.data.get("endings"))
    groups: dict[str, _Members] = {}
    before = _ENTRY_SYMBOLS.get(document.path, {})
    made: dict[int, _EntrySymbol] = {}
    for number, (parts, entry) in entries.items():
        kind = entry.get("kind")
        group = (_BLOCK_LABELS.get(kind) if kind.__class__ is str else None) or _ending_group(owner, number)
        extent = extents.get(number)
        detail = _detail(kind)
        if extent is not None and extent.parts == parts:
            symbol = before.get(id(entry))
            if (symbol is None or symbol.item is not entry or symbol.first != extent.first
                    or symbol.last != extent.last):
                symbol = _entry_symbol(document.text, entry, _name(number, entry), extent, detail)
            made[id(entry)] = symbol
            text, start, end = symbol.text, symbol.start, symbol.end
        else:  # a second entry of a number: named at its `entry` key
            where = _where(document, parts + ("entry",))
            text, start, end = _symbol_text(_name(number, entry), _KEY, where, where, detail), *where
        found = groups.get(group)
        if found is None:
            groups[group] = ([text], start, end)
        else:
            found[0].append(text)
            groups[group] = (found[0], min(found[1], start), max(found[2], end))
    _ENTRY_SYMBOLS.pop(document.path, None)
    _ENTRY_SYMBOLS[document.path] = made
    while len(_ENTRY_SYMBOLS) > _KEEP:
        del _ENTRY_SYMBOLS[next(iter(_ENTRY_SYMBOLS))]
    return _grouped(groups, _endings(book), lambda key: _where(document, key))


def _grouped(groups: Mapping[str, _Members],
             endings: Mapping[str, tuple[tuple[str | int, ...], str | None]],
             where: Callable[[tuple[str | int, ...]], tuple[Point, Point]]) -> str:
    """The groups' symbols: the blocks in their order, then the endings' groups; each is
    named at the `entries` key, an ending's at its ending's key."""
    blocks = [label for _kind, label in BLOCKS]
    symbols = []
    for name in blocks + sorted(set(groups) - set(blocks)):
        found = groups.get(name)
        if found is None:
            continue
        children, start, end = found
        key: tuple[str | int, ...] = ("entries",)
        detail = None
        if name.startswith("Ending ") and name[7:] in endings:
            key, detail = endings[name[7:]]
        named = where(key)
        # The whole group, its own key too (an ending's key stands after its entries).
        whole = (min(named[0], start), max(named[1], end))
        symbols.append(_symbol_text(name, _GROUP, whole, named, detail, _listed(children)))
    return _listed(symbols)


def _entry_symbol(text: str, entry: Any, name: str, extent: Extent, detail: str | None) -> _EntrySymbol:
    """An entry's symbol: it covers the whole entry, and is named at its `entry` key."""
    first = line_of(text, extent.first)
    start = (extent.first, utf16_column(first, extent.dash))
    end = (extent.last, utf16_column(line_of(text, extent.last), extent.end))
    key = extent.dash + 2
    named = (start, start)
    if first.startswith("entry:", key):
        named = ((extent.first, utf16_column(first, key)),
                 (extent.first, utf16_column(first, key + len("entry"))))
    written = _symbol_text(name, _KEY, (start, end), named, detail)
    return _EntrySymbol(entry, extent.first, extent.last, written, start, end)


def _where(document: SourceDocument, parts: tuple[str | int, ...]) -> tuple[Point, Point]:
    """Where the key at `parts` is written, as (start, end) points."""
    found = location_range(document.text, document.locate(parts, key=True))
    return ((found.start.line, found.start.character), (found.end.line, found.end.character))


def _symbol_text(name: str, kind: int, whole: tuple[Point, Point], named: tuple[Point, Point],
                 detail: str | None = None, children: str | None = None) -> str:
    """A DocumentSymbol as JSON text (what pygls would write for it; no fields left null)."""
    return _symbol_json(json.dumps(name), kind, whole, named, _detail_field(detail), children)


def _symbol_json(name: str, kind: int, whole: tuple[Point, Point], named: tuple[Point, Point],
                 detail: str = "", children: str | None = None) -> str:
    """_symbol_text of a name already written as JSON, and a detail as a field to add."""
    written = (f'{{"name":{name},"kind":{kind},"range":{_range_text(whole)},'
               f'"selectionRange":{_range_text(named)}{detail}')
    if children is not None:
        written += f',"children":{children}'
    return written + "}"


def _detail_field(detail: str | None) -> str:
    return f',"detail":{json.dumps(detail)}' if detail is not None else ""


def _range_text(where: tuple[Point, Point]) -> str:
    (line, character), (end_line, end_character) = where
    return (f'{{"start":{{"line":{line},"character":{character}}},'
            f'"end":{{"line":{end_line},"character":{end_character}}}}}')


def _listed(texts: list[str]) -> str:
    return "[" + ",".join(texts) + "]"


def _name(number: int, entry: Mapping[str, Any]) -> str:
    return f"{number} {entry.get('title') or ''}".strip()


def _endings(book: Book) -> dict[str, tuple[tuple[str | int, ...], str | None]]:
    found: dict[str, tuple[tuple[str | int, ...], str | None]] = {}
    for index, ending in enumerate(book.data.get("endings") or []):
        if isinstance(ending, dict) and isinstance(ending.get("ending"), str):
            found[ending["ending"]] = (("endings", index, "ending"), ending.get("title"))
    return found


def _endings_of(entry_of: Callable[[int], tuple[Any, Mapping[str, Any]] | None],
                finale: list[tuple[str, int]], endings: Any) -> dict[int, str]:
    """Each finale or conclusion entry's ending: the first whose finale reaches it by gotos
    from its start, its conclusions, or the finale encounters of its shards and cards."""
    owner: dict[int, str] = {}
    for ending in endings if isinstance(endings, list) else []:
        if not isinstance(ending, dict) or not isinstance(ending.get("ending"), str):
            continue
        starts = [ending.get("start")] + [c.get("entry") for c in ending.get("conclusions") or []
                                          if isinstance(c, dict)]
        starts += [entry for letter, entry in finale if letter == ending["ending"]]
        pending = [n for n in starts if isinstance(n, int)]
        while pending:
            number = pending.pop()
            found = entry_of(number) if number not in owner else None
            if found is None:
                continue
            owner[number] = ending["ending"]
            effects = found[1].get("effects")
            for name, body, _parts in iter_effects(effects if isinstance(effects, list) else [], ()):
                if name == "goto" and isinstance(body, int):
                    pending.append(body)
    return owner

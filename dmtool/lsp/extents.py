"""Where each entry of a storybook lies: from its dash to its last line.

The outline's symbols, the folding ranges, the workspace symbols, the code lenses and the
semantic tokens all need every entry's full extent (an editor's breadcrumbs and sticky
scroll follow the cursor only if a symbol covers all of its entry). Each entry ends where
the next begins, less the blank lines and comments between them, and the last one where
the entries end.

A book in dmtool's own layout (each entry's first line is `  - `, see splice.py) is
indexed entry by entry from its text (EntryLines). An editor asks after every key, and a
10,000-entry book's index costs tens of milliseconds from the text; but an edit spliced in
(splice.py) keeps the item of every entry it did not touch, and a kept item's lines are
the same text as before. So the index of an edited version is the last one's with the
entries the edit parsed again read from the text, the entries after them moved by the
characters and lines the edit added or removed. Any other layout is read from the
document's position index.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from dmtool.loading import SourceDocument
from dmtool.loading.splice import ENTRY_LINE, entries_block
from dmtool.lsp.lines import LineIndex, line_index
from dmtool.lsp.targets import Book, Parts

# An entry's dash's column in dmtool's layout.
_DASH = 2


class Extent(NamedTuple):
    """An entry's lines, 0-based and inclusive, and the columns its first and last start
    and end at (characters)."""

    parts: Parts
    first: int
    dash: int
    last: int
    end: int


@dataclass(slots=True, weakref_slot=True)
class EntryLines:
    """The entries of one text in dmtool's layout, item by item (lists in the items' order):
    the offset and 0-based line each starts at (one more of each: where the entries end),
    its last line that holds something, and that line's length in characters and in UTF-16
    units. `base` is the index this one was made from, `kept` how many entries at its start
    and at its end it kept, and `moved` how many lines those at its end moved."""

    text: str
    items: list[Any]
    offsets: list[int]
    firsts: list[int]
    lasts: list[int]
    ends: list[int]
    ends16: list[int]
    base: weakref.ref[EntryLines] | None = None
    kept: tuple[int, int] = (0, 0)
    moved: int = 0


# The last document asked about (the outline, folding, tokens and lenses of one version
# all ask), and by file, the index of the last version whose data is its text's parse.
_LAST: list[tuple[SourceDocument, Book, dict[int, Extent]]] = []
_LINES: list[tuple[SourceDocument, EntryLines | None]] = []
_BY_FILE: dict[Path, EntryLines] = {}
_FILES_KEPT = 4
_LOCK = threading.RLock()


def entry_extents(document: SourceDocument, book: Book) -> dict[int, Extent]:
    """Each well-formed entry's extent, by number (the first entry of a number wins)."""
    with _LOCK:  # requests on worker threads ask together about the same version
        for known, known_book, found in _LAST:
            if known is document and known_book == book:
                return found
        lines = entry_lines(document) if not book.prefix else None
        found = _extents(lines) if lines is not None else _located(document, book)
        _LAST[:] = [(document, book, found)]
        return found


def entry_lines(document: SourceDocument) -> EntryLines | None:
    """The index of a storybook's entries when its text has dmtool's layout; else None."""
    with _LOCK:
        for known, found in _LINES:
            if known is document:
                return found
        found = _entry_lines(document)
        _LINES[:] = [(document, found)]
        return found


def _entry_lines(document: SourceDocument) -> EntryLines | None:
    data = document.data
    items = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        return None
    # Only a document whose data is the parse of its text keeps its entries' items for
    # the next version (a recovered one holds the last good data under a text that did
    # not load); and only an edit spliced in kept items of the last.
    before = _BY_FILE.get(document.path) if document.fast_path else None
    found = None
    if before is not None and document.edit is not None:
        found = _moved(before, document.text, items)
    if found is None:
        found = _read(document.text, items)
    if found is not None and document.fast_path:
        _BY_FILE.pop(document.path, None)
        _BY_FILE[document.path] = found
        while len(_BY_FILE) > _FILES_KEPT:
            del _BY_FILE[next(iter(_BY_FILE))]
    return found


def _read(text: str, items: list[Any]) -> EntryLines | None:
    """The index of every entry, from the text."""
    block = entries_block(text, len(items))
    if block is None:
        return None
    start, stop = block
    offsets, firsts = _starts(text, start, stop, text.count("\n", 0, start))
    if len(offsets) != len(items) + 1:
        return None
    lasts, ends, ends16 = _shapes(text, offsets, firsts)
    return EntryLines(text, items, offsets, firsts, lasts, ends, ends16)


def _moved(before: EntryLines, text: str, items: list[Any]) -> EntryLines | None:
    """The index of an edited version from the last one: the entries whose items both
    keep at their start and at their end stand where they stood (those at the end moved
    by what the edit added or removed); the others are read from the text. None when
    the text does not hold as many of them as there are."""
    old = before.items
    limit = min(len(old), len(items))
    head = 0
    while head < limit and old[head] is items[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] is items[-1 - tail]:
        tail += 1
    if head == 0 and tail == 0:
        return None
    old_tail, new_tail = len(old) - tail, len(items) - tail
    shift = len(text) - len(before.text)
    start, stop = before.offsets[head], before.offsets[old_tail] + shift
    offsets, firsts = _starts(text, start, stop, before.firsts[head])
    if len(offsets) != new_tail - head + 1:
        return None
    moved = firsts[-1] - before.firsts[old_tail]
    lasts, ends, ends16 = _shapes(text, offsets, firsts)
    return EntryLines(
        text, items,
        before.offsets[:head] + offsets[:-1] + [offset + shift for offset in before.offsets[old_tail:]],
        before.firsts[:head] + firsts[:-1] + [first + moved for first in before.firsts[old_tail:]],
        before.lasts[:head] + lasts + [last + moved for last in before.lasts[old_tail:]],
        before.ends[:head] + ends + before.ends[old_tail:],
        before.ends16[:head] + ends16 + before.ends16[old_tail:],
        base=weakref.ref(before), kept=(head, tail), moved=moved)


def _starts(text: str, start: int, stop: int, line: int) -> tuple[list[int], list[int]]:
    """The offsets and lines of the entries from `start` (on line `line`) to `stop`, and
    `stop`'s own; an entry stands at `start` unless it is `stop`."""
    offsets, firsts = [], []
    at = start
    if start != stop:
        if not text.startswith("  - ", start):
            return [], []
        offsets.append(start)
        firsts.append(line)
        while True:
            following = text.find(ENTRY_LINE, at, stop)
            if following < 0:
                break
            line += text.count("\n", at, following + 1)
            at = following + 1
            offsets.append(at)
            firsts.append(line)
    offsets.append(stop)
    firsts.append(line + text.count("\n", at, stop))
    return offsets, firsts


def _shapes(text: str, offsets: list[int], firsts: list[int]) -> tuple[list[int], list[int], list[int]]:
    """For each entry between consecutive offsets: its last line that holds something,
    and that line's length in characters and in UTF-16 units."""
    lasts, ends, ends16 = [], [], []
    for start, stop, first in zip(offsets, offsets[1:], firsts):
        lines = text[start:stop].split("\n")
        last = 0
        for number in range(len(lines) - 1, 0, -1):
            stripped = lines[number].strip()
            if stripped and not stripped.startswith("#"):
                last = number
                break
        written = lines[last]
        lasts.append(first + last)
        ends.append(len(written))
        ends16.append(len(written) if written.isascii() else len(written.encode("utf-16-le")) // 2)
    return lasts, ends, ends16


def _extents(lines: EntryLines) -> dict[int, Extent]:
    extents: dict[int, Extent] = {}
    for position, item in enumerate(lines.items):
        number = item.get("entry") if isinstance(item, dict) else None
        if number.__class__ is int and number not in extents:
            extents[number] = Extent(("entries", position), lines.firsts[position], _DASH,
                                     lines.lasts[position], lines.ends[position])
    return extents


def _located(document: SourceDocument, book: Book) -> dict[int, Extent]:
    """The extents of a book in any layout, from the document's position index."""
    index = line_index(document.text)
    found: list[tuple[int, Parts, int, int]] = []
    for number, parts, _entry in book.entries():
        where = document.locate(parts)
        line = where.line - 1
        dash = index.line(line).rfind("-", 0, max(where.column - 1, 0))
        found.append((number, parts, line, dash if dash >= 0 else where.column - 1))
    extents: dict[int, Extent] = {}
    for at, (number, parts, line, dash) in enumerate(found):
        if at + 1 < len(found) and found[at + 1][2] > line:
            stop = found[at + 1][2]
        else:
            stop = _block_end(index, line, dash)
        last = _last_content(index, line, stop)
        extents.setdefault(number, Extent(parts, line, dash, last, len(index.line(last))))
    return extents


def _block_end(index: LineIndex, first: int, dash: int) -> int:
    """The first line after `first` that holds something at or left of column `dash`."""
    for number in range(first + 1, index.count):
        text = index.line(number)
        stripped = text.lstrip(" ")
        if stripped and not stripped.startswith("#") and len(text) - len(stripped) <= dash:
            return number
    return index.count


def _last_content(index: LineIndex, first: int, stop: int) -> int:
    """The last line before `stop` (and from `first` on) that is not blank or a comment."""
    for number in range(stop - 1, first, -1):
        stripped = index.line(number).strip()
        if stripped and not stripped.startswith("#"):
            return number
    return first

"""Where each entry of a storybook lies: from its dash to its last line, from one index.

The outline's symbols and the folding ranges both need every entry's full extent (an
editor's breadcrumbs and sticky scroll follow the cursor only if a symbol covers all of
its entry). The entries' first lines come from the text when it has dmtool's layout (the lines a
splice finds), else from the document's position index; each entry
ends where the next begins, less the blank lines and comments between them, and the last
one at the first line that stands no further right than its dash.
"""

from __future__ import annotations

from typing import NamedTuple

from dmtool.loading import SourceDocument
from dmtool.loading.splice import entry_lines
from dmtool.lsp.lines import LineIndex, line_index
from dmtool.lsp.targets import Book, Parts


class Extent(NamedTuple):
    """An entry's lines, 0-based and inclusive, and the columns its first and last start
    and end at (characters)."""

    parts: Parts
    first: int
    dash: int
    last: int
    end: int


def entry_extents(document: SourceDocument, book: Book) -> dict[int, Extent]:
    """Each well-formed entry's extent, by number (the first entry of a number wins)."""
    index = line_index(document.text)
    items = book.data.get("entries")
    laid_out = (entry_lines(document.text, len(items))
                if not book.prefix and isinstance(items, list) and items else None)
    found: list[tuple[int, Parts, int, int]] = []
    for number, parts, _entry in book.entries():
        if laid_out is not None:  # dmtool's own layout: each entry's line is known
            found.append((number, parts, laid_out[int(parts[-1])], 2))
            continue
        where = document.locate(parts)  # any other layout: from the position index
        line = where.line - 1
        dash = index.line(line).rfind("-", 0, max(where.column - 1, 0))
        found.append((number, parts, line, dash if dash >= 0 else where.column - 1))
    extents: dict[int, Extent] = {}
    for at, (number, parts, line, dash) in enumerate(found):
        if at + 1 < len(found) and found[at + 1][2] > line:
            stop = found[at + 1][2]
        elif laid_out is not None:
            stop = laid_out[-1]
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

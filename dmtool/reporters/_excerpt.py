"""Source excerpts for the text reporter: one line, a caret under the column, long lines cut."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from dmtool.reporters._common import char_width, visible_char

# The same line breaks ruamel.yaml counts when it numbers lines, so excerpts match positions.
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_RARE_BREAK = re.compile("[\r\x85\u2028\u2029]")
TAB_WIDTH = 4
MAX_WIDTH = 100  # display columns of source shown before a long line is cut around the caret
ELLIPSIS = "..."


@dataclass(frozen=True, slots=True)
class Excerpt:
    """A source line ready to print and where, in display columns, the caret goes."""

    text: str
    caret_start: int
    caret_width: int


class SourceLines:
    """Splits each source into lines once per render, however many diagnostics point into it."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._sources = sources
        self._lines: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        """Line `number` (1-based) of `path`, or None when the source or the line is absent."""
        lines = self._lines.get(path)
        if lines is None:
            text = self._sources.get(path)
            if text is None:
                return None
            # Most files only use LF, and str.split is many times faster than the regex.
            rare = "\r" in text if text.isascii() else _RARE_BREAK.search(text)
            split = _LINE_BREAK.split if rare else _split_lf
            lines = self._lines[path] = split(text)
        if 1 <= number <= len(lines):
            return lines[number - 1]
        return None


def excerpt(
    text: str, *, column: int, end_column: int | None = None, max_width: int = MAX_WIDTH
) -> Excerpt:
    """Lay out one line: tabs expanded, controls made visible, cut around `column` if long.

    `column` is 1-based in characters; `end_column`, when given on the same line, is the
    column just past the last character of the span (as in YAML end marks and SARIF).
    A column past the end of the line puts the caret just after its last character.
    """
    pieces, starts, total = _cells(text)
    count = len(pieces)
    index = min(max(column - 1, 0), count)
    caret_start = starts[index]
    caret_end = caret_start
    if end_column is not None and end_column > column:
        caret_end = starts[min(max(end_column - 1, index), count)]
    caret_width = max(caret_end - caret_start, 1)
    if total <= max_width:
        return Excerpt("".join(pieces), caret_start, caret_width)
    return _cut(pieces, starts, total, caret_start, caret_width, max_width)


def _split_lf(text: str) -> list[str]:
    return text.split("\n")


def _cells(text: str) -> tuple[list[str], list[int], int]:
    """Each character as shown, and the display column where each one starts."""
    if text.isascii() and text.isprintable():  # the usual line: one column per character
        return list(text), list(range(len(text) + 1)), len(text)
    pieces: list[str] = []
    starts: list[int] = []
    position = 0
    for ch in text:
        if ch == "\t":
            piece = " " * (TAB_WIDTH - position % TAB_WIDTH)
            width = len(piece)
        else:
            piece = visible_char(ch)
            width = char_width(piece)
        pieces.append(piece)
        starts.append(position)
        position += width
    starts.append(position)  # one past the end: where a caret after the last character goes
    return pieces, starts, position


def _cut(
    pieces: list[str],
    starts: list[int],
    total: int,
    caret_start: int,
    caret_width: int,
    max_width: int,
) -> Excerpt:
    """Keep a window of about `max_width` columns that shows the caret near its left third."""
    left = max(0, caret_start - max_width // 3)
    right = left + max_width
    if right > total:
        left, right = max(0, total - max_width), total
    first = next(i for i, start in enumerate(starts) if start >= left)
    last = first  # exclusive index of the last whole character that fits
    while last < len(pieces) and starts[last + 1] <= right:
        last += 1
    prefix = ELLIPSIS if first > 0 else ""
    suffix = ELLIPSIS if last < len(pieces) else ""
    shown = "".join(pieces[first:last])
    offset = starts[first] - len(prefix)
    start = caret_start - offset
    end = min(caret_start + caret_width, starts[last]) - offset
    return Excerpt(prefix + shown + suffix, start, max(end - start, 1))

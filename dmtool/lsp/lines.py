"""A document's line index: where each line starts, built once per text.

Every request and every published diagnostic turns (line, column) into an LSP position,
which needs the line's text (LSP counts columns in UTF-16 units). Found by scanning from
the top of the file, that made a request about every entry of a long storybook (the
outline, folding) quadratic; with the line starts kept per text it is one lookup.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate


class LineIndex:
    """The lines of one text, each found in constant time."""

    __slots__ = ("plain", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # Whether "\n" is the text's only line break, once asked (buffers.py).
        self.plain: bool | None = None
        # The offset each line starts at, and one past the text's end (a last line too).
        self.starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))]

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    def line_at(self, offset: int) -> int:
        """The 0-based line that the character at `offset` is on."""
        return bisect_right(self.starts, offset) - 1

    def line(self, number: int) -> str:
        """The 0-based line `number` ('' outside the text), without its line break."""
        if not 0 <= number < self.count:
            return ""
        return self.text[self.starts[number]:self.starts[number + 1] - 1]


@lru_cache(maxsize=8)
def line_index(text: str) -> LineIndex:
    """The index of `text`, built on first use: the same text (an open buffer, a document's
    text) is asked about again and again, and a string's hash is computed only once."""
    return LineIndex(text)

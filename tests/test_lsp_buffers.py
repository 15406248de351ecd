"""Open buffers apply ranged changes through a line index exactly as pygls's documents do."""

from __future__ import annotations

import random

from lsprotocol import types
from pygls.workspace import TextDocument

from dmtool.lsp.buffers import IndexedDocument

# Other line breaks than "\n" take pygls's own way; they are here to show they still work.
TEXTS = ["kind: storybook\nentries:\n  - entry: 1\n    title: Á 𝄞 x\n",
         "a\r\nb\r\n", "one\u2028two\nthree", "", "no break at the end"]


def _change(rng: random.Random, text: str) -> types.TextDocumentContentChangePartial:
    lines = text.split("\n")

    def anywhere() -> types.Position:  # a place in the text, as an editor names it
        line = rng.randrange(len(lines))
        column = rng.randrange(len(lines[line]) + 1)
        units = sum(2 if ord(char) > 0xFFFF else 1 for char in lines[line][:column])
        return types.Position(line=line, character=units)

    start, end = sorted([anywhere(), anywhere()], key=lambda p: (p.line, p.character))
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=start, end=end), text=rng.choice(["", "x", "é\n", "𝄞", "\n  - "]))


def test_ranged_changes_give_the_text_pygls_gives():
    rng = random.Random(5)
    for start in TEXTS:
        ours = IndexedDocument("file:///book.yaml", source=start)
        theirs = TextDocument("file:///book.yaml", source=start)
        for _ in range(300):
            change = _change(rng, theirs.source)
            ours.apply_change(change)
            theirs.apply_change(change)
            assert ours.source == theirs.source

"""The prose rule's screens: a string is searched only if it holds '<', '](' or ']:', and a
file is walked only if its text holds one of them or a backslash (an escape)."""

from __future__ import annotations

import pytest

from dmtool.loading import load_text
from dmtool.validation.rules.prose import prose_diagnostics


def _found(text: str) -> list[tuple[str, int, str]]:
    document = load_text(text, display="f.yaml").document
    assert document is not None
    return [(d.code, d.location.line, d.location.pointer)
            for d in prose_diagnostics([document])]


@pytest.mark.parametrize(("text", "expected"), [
    # Escapes build the marks: the text holds none of them, only a backslash.
    ('kind: coda\ntext: "see [the map]\\x28http://x)"\n', [("DM502", 2, "/text")]),
    ('kind: coda\ntext: "a \\x3cb>bold\\x3c/b>"\n', [("DM501", 2, "/text")]),
    # Flow collections end lines with ']': the walk still finds what is deep inside.
    ("kind: coda\neffects: [{goto: 3}]\nentries:\n  - text: |\n      A <i>word</i>\n"
     "    more: [a, b]\n", [("DM501", 4, "/entries/0/text")]),
    # A line break between ']' and '(' is folded into a space: never a link.
    ("kind: coda\ntext: see [the map]\n  (http://x)\n", []),
    ("kind: coda\neffects: [{goto: 3}]\ntitle: [a, b]\n", []),
])
def test_what_the_prose_rule_finds(text: str, expected: list[tuple[str, int, str]]) -> None:
    assert _found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("kind: coda\ntext: |\n  # A heading\n  words\n", [("DM503", 2, "/text")]),
    ("kind: coda\ntext: |\n  words\n  !!! danger\n", [("DM503", 2, "/text")]),
    ("kind: coda\ntext: |\n  Term\n  : its meaning\n", [("DM503", 2, "/text")]),
    ('kind: coda\ntext: "#3 of the parish"\n', [("DM503", 2, "/text")]),
    # Hash signs, exclamation and colons inside a line are prose.
    ("kind: coda\ntext: |\n  Bell #3 rang! Then: silence.\n  Note: none\n", []),
    # A YAML comment is not text.
    ("kind: coda\n# A comment\ntext: words\n", []),
])
def test_markdown_block_syntax_in_prose(text: str, expected: list[tuple[str, int, str]]) -> None:
    """Issue 33: a line of prose that Markdown reads as a heading, an admonition or a
    definition changes the page; check says so (DM503)."""
    assert _found(text) == expected

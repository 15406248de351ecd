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

"""Hostile texts are judged in time linear in their size (issue #31, "linear screens").

Brackets nested 10^5 deep made the pre-parse screen quadratic (one level stripped per
pass over the whole file: 12 s at 50k, minutes for a storybook with three such lines),
and lines of 2 MB that libyaml refuses took seconds each through the pure Python parser.
Each text here must be refused, or read, with a located diagnostic well within its
deadline.
"""

from __future__ import annotations

import pytest
from fault_support import deadline

from dmtool.loading import load_text
from dmtool.loading.screen import needs_libyaml

DEEP = 100_000
HEAD = "kind: storybook\nid: deep\nentries:\n  - entry: 1\n    note: "


def _diagnostics(text: str) -> list[tuple[str, int]]:
    with deadline(20, "loading the text"):
        result = load_text(text, display="deep.yaml")
    return [(d.code, d.location.line) for d in result.diagnostics]


@pytest.mark.parametrize("nested", [
    "[" * DEEP + "]" * DEEP,
    "{a: " * DEEP + "}" * DEEP,
    "[{" * (DEEP // 2) + "}]" * (DEEP // 2),
    "[" * DEEP,
    "[a: b:c, " * DEEP + "]" * DEEP,
], ids=["lists", "mappings", "mixed", "unclosed", "colons"])
def test_nesting_a_hundred_thousand_deep_is_refused_at_its_line(nested: str) -> None:
    found = _diagnostics(HEAD + nested + "\n")
    assert found and found[0] == ("DM004", 5)


def test_three_deep_lines_in_a_storybook_are_refused_in_seconds() -> None:
    lines = "".join(f"    n{i}: " + "[" * DEEP + "]" * DEEP + "\n" for i in range(3))
    found = _diagnostics(HEAD + "x\n" + lines)
    assert found[0] == ("DM004", 6)


def test_the_screen_passes_shallow_brackets_to_the_fast_path() -> None:
    # Giving up on deep brackets must not send ordinary flow collections away.
    assert not needs_libyaml("a: [1, [2, {b: [3]}]]\n")
    assert needs_libyaml("a: [1,\n  2]\n")
    assert needs_libyaml("a: " + "[" * 20 + "]" * 20 + "\n")

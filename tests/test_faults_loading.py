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


@pytest.mark.parametrize(("nested", "code"), [
    ("[" * DEEP + "]" * DEEP, "DM004"),
    ("{a: " * DEEP + "}" * DEEP, "DM004"),
    ("[{" * (DEEP // 2) + "}]" * (DEEP // 2), "DM004"),
    ("[" * DEEP, "DM004"),
    # libyaml refuses `b:c` in a flow collection; the text is too long for the pure
    # parser to try (see the two-megabyte lines below).
    ("[a: b:c, " * DEEP + "]" * DEEP, "DM001"),
], ids=["lists", "mappings", "mixed", "unclosed", "colons"])
def test_nesting_a_hundred_thousand_deep_is_refused_at_its_line(nested: str, code: str) -> None:
    found = _diagnostics(HEAD + nested + "\n")
    assert found and found[0] == (code, 5)


def test_three_deep_lines_in_a_storybook_are_refused_in_seconds() -> None:
    lines = "".join(f"    n{i}: " + "[" * DEEP + "]" * DEEP + "\n" for i in range(3))
    found = _diagnostics(HEAD + "x\n" + lines)
    assert found[0] == ("DM004", 6)


def test_the_screen_passes_shallow_brackets_to_the_fast_path() -> None:
    # Giving up on deep brackets must not send ordinary flow collections away.
    assert not needs_libyaml("a: [1, [2, {b: [3]}]]\n")
    assert needs_libyaml("a: [1,\n  2]\n")
    assert needs_libyaml("a: " + "[" * 20 + "]" * 20 + "\n")


# '0b' in a comment sends a text to the libyaml path (yaml-rs reads 0b1 as a number).
LONG = 2_000_000
LIBYAML_PATH = "kind: storybook\n# 0b\nid: long\nentries:\n  - entry: 1\n    note: "


@pytest.mark.parametrize(("line", "where"), [
    ("[" + "a:b, " * (LONG // 5) + "]", 6),
    ("{" + ", ".join(f"k{i}: http://x" for i in range(LONG // 14)) + "}", 6),
    ("k" * LONG + ": v", 6),
    ('"' + "a" * LONG, 7),  # the quote is found open at the end of the text
], ids=["colons-in-a-list", "urls-in-a-mapping", "long-key", "open-quote"])
def test_a_two_megabyte_line_libyaml_refuses_is_refused_at_once(line: str, where: int) -> None:
    # All four are refused by libyaml; the first two are YAML 1.2 the pure parser reads,
    # in seconds for a text this long, so the refusal stands and says why.
    with deadline(20, "loading the text"):
        result = load_text(LIBYAML_PATH + line + "\n", display="long.yaml")
    assert [(d.code, d.location.line) for d in result.diagnostics] == [("DM001", where)]
    assert "Files over 256 KiB are read by libyaml alone" in (result.diagnostics[0].hint or "")


def test_a_short_text_libyaml_refuses_is_still_read_as_yaml_1_2() -> None:
    result = load_text(LIBYAML_PATH + "[" + "a:b, " * 1000 + "]\n", display="short.yaml")
    assert result.document is not None and result.document.pure_parser
    assert result.document.data["entries"][0]["note"][:2] == ["a:b", "a:b"]

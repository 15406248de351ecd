"""A lazy pattern (dmtool/patterns.py) is compiled on first use and then answers as the
compiled pattern does."""

from __future__ import annotations

import re

import pytest

from dmtool.loading import screen
from dmtool.patterns import LazyPattern, lazy

TEXT = "key: value\n# dmtool: ignore[DM222] a reason\nother: [a, b]\n"


def test_compiled_only_when_first_used_and_then_once() -> None:
    pattern = lazy(r"ignore\[(?P<codes>[^\]]*)\]", re.IGNORECASE)
    assert isinstance(pattern, LazyPattern) and not pattern.compiled
    found = pattern.search(TEXT)
    assert pattern.compiled and found is not None and found["codes"] == "DM222"
    assert pattern.search is pattern.search  # kept on the object: the compiled one's own
    assert pattern.pattern == r"ignore\[(?P<codes>[^\]]*)\]"
    assert pattern.flags == re.compile(pattern.pattern, re.IGNORECASE).flags


def test_answers_as_the_compiled_pattern() -> None:
    source, flags = r"^(\w+):\s*(.*)$", re.MULTILINE
    eager, deferred = re.compile(source, flags), lazy(source, flags)
    assert deferred.match(TEXT)[0] == eager.match(TEXT)[0]
    assert deferred.findall(TEXT) == eager.findall(TEXT)
    assert [m.span() for m in deferred.finditer(TEXT)] == [m.span() for m in eager.finditer(TEXT)]
    assert deferred.sub(r"\1", TEXT) == eager.sub(r"\1", TEXT)
    assert deferred.fullmatch("a: b") is not None and deferred.groups == eager.groups


def test_a_bad_pattern_fails_when_used() -> None:
    broken = lazy("(unclosed")
    with pytest.raises(re.error):
        broken.search("x")
    assert not broken.compiled


def test_the_screens_find_what_they_did() -> None:
    # The screen's lazy patterns (a non-ASCII control character, a glued '?', an explicit
    # key) still send such texts to the libyaml path.
    assert screen.needs_libyaml("a: b\u0085c\n")
    assert screen.needs_libyaml("a: {range: ?2}\n")
    assert screen.needs_libyaml("? a\n: b\n")
    assert not screen.needs_libyaml("a: b\u00e9\n")

"""`-k` expressions, as in pytest: words matched as substrings, with and, or, not, ( )."""

from __future__ import annotations

import re
from collections.abc import Callable

from dmtool.errors import UsageError

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def compile_keyword(expression: str) -> Callable[[str], bool]:
    """A predicate over a fixture's searchable text (id, title, path, rule ids)."""
    tokens = [t for t in _TOKEN.findall(expression) if t]
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(tokens):
            raise UsageError(f"The -k expression '{expression}' ends too early.")
        pos += 1
        return tokens[pos - 1]

    def parse_or() -> Callable[[str], bool]:
        left = parse_and()
        while peek() == "or":
            take()
            right, prev = parse_and(), left
            left = lambda s, a=prev, b=right: a(s) or b(s)  # noqa: E731
        return left

    def parse_and() -> Callable[[str], bool]:
        left = parse_not()
        while peek() == "and":
            take()
            right, prev = parse_not(), left
            left = lambda s, a=prev, b=right: a(s) and b(s)  # noqa: E731
        return left

    def parse_not() -> Callable[[str], bool]:
        if peek() == "not":
            take()
            inner = parse_not()
            return lambda s: not inner(s)
        token = take()
        if token == "(":
            inner = parse_or()
            if take() != ")":
                raise UsageError(f"The -k expression '{expression}' misses a ')'.")
            return inner
        if token in (")", "and", "or"):
            raise UsageError(f"The -k expression '{expression}' has '{token}' out of place.")
        word = token.lower()
        return lambda s: word in s

    predicate = parse_or()
    if peek() is not None:
        raise UsageError(f"The -k expression '{expression}' has extra words at '{peek()}'.")
    return lambda text: predicate(text.lower())

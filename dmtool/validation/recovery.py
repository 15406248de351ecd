"""Reading what can be read of a file that does not load, so it still counts in the corpus.

A compiler that meets a syntax error recovers and reads on; dmtool does the same for the
corpus's sake only (the file's one diagnostic stays the loading error). The line the
parser blamed is first re-indented like the line before it (the usual slip), else blanked,
and the text parsed again, a few times at most. If that never parses, the file's top-level
`key: value` lines (its kind, id, wanderer, number...) are read one by one.
"""

from __future__ import annotations

from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.loading import load_text
from dmtool.patterns import lazy

# Enough for a slip or two; a file broken in more places keeps only its top-level scalars.
MAX_REPAIRS = 4
_TOP_LEVEL_SCALAR = lazy(r"^[A-Za-z_][A-Za-z0-9_-]*:[ \t]+[^|>\s#&*!]")


def recover_data(text: str, problems: list[Diagnostic]) -> dict[str, Any] | None:
    """A mapping read from text that failed to load, or None if nothing can be read."""
    lines = text.split("\n")
    line = _first_line(problems, len(lines))
    for _ in range(MAX_REPAIRS):
        if line is None:
            break
        aligned = _aligned(lines, line)
        if aligned is not None:
            data, _ = _parsed(aligned)
            if data is not None:
                return data
        lines = lines[: line - 1] + [""] + lines[line:]
        data, line = _parsed(lines)
        if data is not None:
            return data
    return _top_level_scalars(text) or None


def _parsed(lines: list[str]) -> tuple[dict[str, Any] | None, int | None]:
    """(the mapping the lines hold, or None and the first line the loader blamed)."""
    # libyaml alone: the pure parser costs a second a storybook, and this may try nine
    # texts for one keystroke in an editor (a guess needs no YAML 1.2 reading).
    result = load_text("\n".join(lines), pure=False)
    if result.document is not None:
        data = result.document.data
        return (data if isinstance(data, dict) else None), None
    return None, _first_line(result.diagnostics, len(lines))


def _first_line(problems: list[Diagnostic], count: int) -> int | None:
    lines = [d.location.line for d in problems if 1 <= d.location.line <= count]
    return min(lines) if lines else None


def _aligned(lines: list[str], line: int) -> list[str] | None:
    """The lines with `line` indented like the nearest line above that holds something."""
    target = lines[line - 1]
    for above in reversed(lines[: line - 1]):
        if above.strip() and not above.lstrip().startswith("#"):
            indent = len(above) - len(above.lstrip(" "))
            if above.lstrip().startswith("- "):
                indent += 2  # a key under a list item lines up with the item's first key
            stripped = target.lstrip(" ")
            if len(target) - len(stripped) == indent:
                return None
            return lines[: line - 1] + [" " * indent + stripped] + lines[line:]
    return None


def _top_level_scalars(text: str) -> dict[str, Any]:
    """Each unindented `key: value` line of the text, read on its own."""
    found: dict[str, Any] = {}
    for line in text.split("\n"):
        if _TOP_LEVEL_SCALAR.match(line):
            result = load_text(line, pure=False)
            data = result.document.data if result.document is not None else None
            if isinstance(data, dict):
                for key, value in data.items():
                    found.setdefault(key, value)
    return found

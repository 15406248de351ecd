"""Turning whatever the YAML parser raised into one located DM001 diagnostic."""

from __future__ import annotations

from typing import Any

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.patterns import lazy

# Parser messages that deserve a concrete suggestion, matched by substring.
_HINTS: tuple[tuple[str, str], ...] = (
    ("cannot start any token", "YAML indents with spaces only; replace tabs with spaces, "
     "and quote values that start with a special character such as @ or `."),
    ("mapping values are not allowed", "A value containing ': ' must be quoted, "
     "for example title: \"Part one: the stair\"."),
    ("could not find expected ':'", "Each mapping member needs 'key: value'; check the "
     "indentation of this line and the line before it."),
    ("did not find expected key", "Check the indentation: members of one mapping must "
     "start in the same column."),
    ("found undefined alias", "Content files may not use aliases at all."),
)


def syntax_diagnostic(exc: BaseException | None, text: str, display: str) -> Diagnostic:
    """DM001 at the position the parser blamed (the start of the file if it named none)."""
    problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or str(exc)
    problem = str(problem).strip().rstrip(".") or exc.__class__.__name__
    character = getattr(exc, "character", None)
    if isinstance(character, str) and len(character) == 1:
        problem += f" (character U+{ord(character):04X})"
    elif isinstance(character, int):
        problem += f" (character U+{character:04X})"
    line, column = _position(exc, text)
    related: tuple[Location, ...] = ()
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    detail = ""
    if context and context_mark is not None and hasattr(context_mark, "line"):
        start = (context_mark.line + 1, context_mark.column + 1)
        if start != (line, column):
            detail = f" ({context} that starts at line {start[0]}, column {start[1]})"
            related = (Location(display, *start),)
    index = getattr(context_mark, "index", None) if _in_flow(exc) else None
    if not isinstance(index, int) or not 0 <= index < len(text) or text[index] not in _CLOSERS:
        index = _open_bracket_above(text, line)  # the parser named no bracket
    opened = _unclosed_bracket(text, index) if index is not None else None
    if opened is not None:
        # The parser reads on past the open bracket and stops lines later, wherever the
        # text stops looking like flow content; the slip is the bracket, so report that.
        bracket, closer = opened
        return diagnose("DM001", Location(display, *line_column(text, index)), (
            f"This is not valid YAML: the '{bracket}' here is never closed. Fix the syntax "
            "here; nothing else in the file is checked until it parses."),
            hint=f"Close it with '{closer}' at the end of what it holds, on this line.")
    message = (f"This is not valid YAML: {problem}{detail}. Fix the syntax here; nothing "
               "else in the file is checked until it parses.")
    hint = next((h for needle, h in _HINTS if needle in problem), None)
    if _in_flow(exc) and _character_at(exc, text) in ("?", ":"):
        hint = _FLOW_PUNCTUATION_HINT
    elif any(needle in problem for needle in _INDENTATION_PROBLEMS):
        indented = over_indented_hint(text, line)
        if indented is not None:
            # Point at the key that is too far right, not where the parser gave up on it.
            hint, column = indented, _indent_of(text, line) + 1
    return diagnose("DM001", Location(display, line, column), message, hint=hint,
                    related=related)


_FLOW_PUNCTUATION_HINT = (
    "Inside [...] or {...} the parser ends plain text at '?' and ':'. Put text that "
    "contains them in quotes, for example [\"Why?\", \"http://example.org\"].")


# Parser complaints that an over-indented key produces, depending on what precedes it.
_INDENTATION_PROBLEMS = ("mapping values are not allowed", "did not find expected key",
                         "did not find expected '-' indicator", "could not find expected ':'")
_KEY_LINE = lazy(r"^(?P<indent> *)(?:- +)?(?P<key>[A-Za-z_][\w-]*):(?: |$)")


def over_indented_hint(text: str, line: int) -> str | None:
    """A hint for a key indented further than the mapping it belongs to, if line `line` is one.

    Such a key follows a line with a value (`title: x` or a list item) while standing
    further right than it, or in the column of a list's items; YAML then reads it as part
    of what precedes it and fails. The key meant is lined up with the nearest key to its left.
    """
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    here = _KEY_LINE.match(lines[line - 1])
    if here is None or lines[line - 1].lstrip().startswith("- "):
        return None
    indent = len(here["indent"])
    above = [t for t in lines[: line - 1] if t.strip() and not t.lstrip().startswith("#")]
    if not above:
        return None
    previous = above[-1]
    previous_indent = len(previous) - len(previous.lstrip(" "))
    item = previous.lstrip().startswith("- ")
    if indent < previous_indent or (indent == previous_indent and not item):
        return None
    for candidate in reversed(above):
        owner = _KEY_LINE.match(candidate)
        if owner is not None and len(owner["indent"]) < indent and not candidate.lstrip().startswith("- "):
            return (f"'{here['key']}' is indented further than the keys of its mapping, so YAML "
                    f"reads it as part of the line above; line it up with '{owner['key']}' "
                    f"(column {len(owner['indent']) + 1})")
    return None


def _indent_of(text: str, line: int) -> int:
    lines = text.split("\n")
    own = lines[line - 1] if 1 <= line <= len(lines) else ""
    return len(own) - len(own.lstrip(" "))


_CLOSERS = {"[": "]", "{": "}"}


def _open_bracket_above(text: str, line: int) -> int | None:
    """Where the last bracket left open on the nearest line above line `line` that holds
    something stands (a parser that meets the next line may name no bracket at all)."""
    lines = text.split("\n", line - 1)[: line - 1]
    offset = sum(len(one) + 1 for one in lines)
    for above in reversed(lines):
        offset -= len(above) + 1
        if above.strip() and not above.lstrip().startswith("#"):
            opened: list[int] = []
            for at, char in enumerate(above):
                if char in _CLOSERS:
                    opened.append(at)
                elif char in "]}" and opened:
                    opened.pop()
            return offset + opened[-1] if opened else None
    return None


def _unclosed_bracket(text: str, index: int) -> tuple[str, str] | None:
    """(the bracket, its closer) when the flow collection opening at `index` is still open
    at the first later line indented no further than the bracket's own line: in a block,
    a flow collection's further lines must be indented past it, so there it was left open."""
    line_start = text.rfind("\n", 0, index) + 1
    own = text[line_start:index]
    indent = len(own) - len(own.lstrip(" "))
    depth, quote, at = 0, "", index
    while at < len(text):
        char = text[at]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"" and text[index:at].rstrip()[-1:] in ("[", "{", ",", ":"):
            quote = char  # a quoted scalar (an apostrophe inside plain text is not one)
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return None
        elif char == "#" and text[at - 1] in " \t":  # a comment: on to its line's end
            at = text.find("\n", at)
            if at < 0:
                break
            continue
        elif char == "\n":
            end = text.find("\n", at + 1)
            line = text[at + 1:] if end < 0 else text[at + 1:end]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
                return text[index], _CLOSERS[text[index]]
        at += 1
    return text[index], _CLOSERS[text[index]]


def _in_flow(exc: Any) -> bool:
    words = f"{getattr(exc, 'context', '')} {getattr(exc, 'problem', '')}"
    return "flow" in words or "expected ',' or" in words or "plain scalar" in words


def _character_at(exc: Any, text: str) -> str:
    mark = getattr(exc, "problem_mark", None)
    index = getattr(mark, "index", None)
    if isinstance(index, int) and 0 <= index < len(text):
        return text[index]
    return ""


def _position(exc: Any, text: str) -> tuple[int, int]:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None and hasattr(mark, "line"):
        return mark.line + 1, mark.column + 1
    # The C reader reports a byte offset into the UTF-8 encoding instead of a mark.
    offset = getattr(exc, "position", None)
    if isinstance(offset, int) and offset >= 0:
        return line_column(text, len(text.encode("utf-8")[:offset].decode("utf-8", "ignore")))
    return 1, 1


def line_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of the character at `index` in `text`."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1

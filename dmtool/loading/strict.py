"""Stricter checks where the parser (libyaml) is more lenient than the YAML 1.2 spec.

Each check exists because a case of the YAML test suite showed the parser accepting
invalid YAML, or reading valid YAML into the wrong data. They run in an extra parse
only when a cheap screen says a file might need them (see `needs_strict_pass`):

S1 A comment must be separated from what precedes it by white space
   (`key: "value"# note`, `[a, b]#note`, `block: ># note`): suite 9JBA, CVW2, SU5Z, X4QW.
S2 Continuation lines of a multi-line quoted scalar or flow collection must be indented
   more than the block collection that holds it: suite 9C9N, QB6E, DK95/01, Y79Y/003.
S3 A block scalar's leading blank lines may not hold more spaces than its first
   content line: suite S98Z.
S4 In a flow collection the parser takes `?x` as an explicit key `x`, where YAML 1.2
   reads the plain text `?x`; refused as unsupported (DM020): suite 652Z, HM87/01.
S5 Inside a flow collection a plain scalar cannot start with '-', '?' or ':' followed
   by a blank or a flow indicator (`[-]`, `[-, -]`): suite G5U8, YJV2.
S6 Only for files read by the pure parser (libyaml refused them): inside a flow
   collection, a ':' at the end of plain text or before ',', '[', ']', '{' or '}' is a
   key indicator in YAML 1.2, which that parser keeps as text: suite 4ABK.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.loading.syntax import line_column
from dmtool.patterns import lazy

# Screens, far cheaper than a parse. Each starts from a search for a rare literal
# ('#', '?', a line of only spaces) rather than testing every position of the text.
_GLUED_COMMENT = lazy(r"[^\s#]#")
_SPACE_ONLY_LINE = lazy(r"\n ++\r?\n")  # possessive: see screen.py
_SPACED_BLANK_AFTER_HEADER = lazy(r"[|>][-+0-9]*[ \t]*(?:#[^\n]*)?\r?\n +\r?\n")
_BLANK = " \t\r"
_INDICATOR_ENDS = frozenset(("", " ", "\t", "\r", "\n", ",", "[", "]", "{", "}"))
_FLOW_ENDS = ",[]{}"


def needs_strict_pass(text: str) -> bool:
    """True when the text might break a rule that only the strict pass checks."""
    return (
        _glued_comment(text)
        or (_space_only_line(text) and spaced_blank_after_header(text))
        or _question_in_flow(text)
    )


def spaced_blank_after_header(text: str) -> bool:
    """Whether a block scalar's header line is followed by a line of only spaces (half of
    what needs_strict_pass asks of a whole text about such lines)."""
    return _SPACED_BLANK_AFTER_HEADER.search(text) is not None


def _space_only_line(text: str) -> bool:
    """Whether a line holds only spaces. Such a line ends in ' \\n' or ' \\r\\n': far cheaper
    to look for than _SPACE_ONLY_LINE, which stops at every line break."""
    if " \n" not in text and ("\r" not in text or " \r" not in text):
        return False
    return _SPACE_ONLY_LINE.search(text) is not None


def _glued_comment(text: str) -> bool:
    """S1's screen: a '#' right after a character that is neither blank nor '#'."""
    index = text.find("#")
    while index >= 0:
        if index > 0 and not text[index - 1].isspace() and text[index - 1] != "#":
            return True
        index = text.find("#", index + 1)
    return False


def _question_in_flow(text: str) -> bool:
    """S4's screen: '[', '{' or ',' then blanks, then '?' glued to what follows."""
    index = text.find("?")
    while index >= 0:
        after = text[index + 1:index + 2]
        if after and not after.isspace():
            before = index - 1
            while before >= 0 and text[before].isspace():
                before -= 1
            if before >= 0 and text[before] in "[{,":
                return True
        index = text.find("?", index + 1)
    return False


def strict_problems(text: str, display: str, *, pure: bool = False) -> list[Diagnostic]:
    """Located diagnostics for the spec rules listed in the module docstring."""
    from ruamel.yaml.events import (
        CollectionEndEvent,
        CollectionStartEvent,
        ScalarEvent,
    )

    from dmtool.loading.builder import MAX_PROBLEMS, event_source

    problems: list[Diagnostic] = []
    spans: list[tuple[int, int]] = []  # where scalar text lies: '#' there is no comment
    # Per open collection: (is flow, column). The column of a block collection is its
    # indentation; flow content inside it must be indented further (S2).
    stack: list[tuple[bool, int]] = []
    flow_start: Any = None  # the start event of the outermost open flow collection
    get_event = event_source(text, pure=pure)
    while (event := get_event()) is not None:
        in_flow = bool(stack) and stack[-1][0]
        indent = _block_indent(stack)
        if isinstance(event, ScalarEvent | CollectionStartEvent):
            start = event.start_mark.index
            if in_flow and start > 0 and text[start - 1] == "?":
                problems.append(_unsupported_question(event, display))
        if isinstance(event, ScalarEvent):
            start, end = event.start_mark.index, event.end_mark.index
            if in_flow and not event.style and _indicator_start(text, start):
                problems.append(_indicator_as_text(event, display))
            if pure and in_flow and not event.style and _colon_before_end(text, start, end):
                problems.append(_colon_as_text(event, display))
            if event.style in ("|", ">"):
                header_end = _line_end(text, start)
                spans.append((header_end, end))
                problems.extend(_block_scalar_problems(text, start, header_end, indent,
                                                       display))
            else:
                spans.append((start, end))
                if not in_flow and event.style and event.start_mark.line != event.end_mark.line:
                    problems.extend(_continuation_problems(
                        text, event, event, indent, display, collection=False))
        elif isinstance(event, CollectionStartEvent):
            flow = bool(event.flow_style)
            if flow and not in_flow:
                flow_start = event
            stack.append((flow, event.start_mark.column))
        elif isinstance(event, CollectionEndEvent):
            flow, _ = stack.pop()
            outermost_flow = flow and not (stack and stack[-1][0])
            if outermost_flow and flow_start.start_mark.line != event.end_mark.line:
                problems.extend(_continuation_problems(
                    text, flow_start, event, _block_indent(stack), display, collection=True))
    problems.extend(_glued_comments(text, spans, display))
    problems.sort(key=lambda d: (d.location.line, d.location.column))
    return problems[:MAX_PROBLEMS]


def _block_indent(stack: list[tuple[bool, int]]) -> int:
    for flow, column in reversed(stack):
        if not flow:
            return column
    return -1  # top level: any indentation will do


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def _indicator_start(text: str, start: int) -> bool:
    """S5: the scalar's source starts with '-', '?' or ':' that no plain text may start."""
    return text[start] in "-?:" and text[start + 1:start + 2] in _INDICATOR_ENDS


def _indicator_as_text(event: Any, display: str) -> Diagnostic:
    mark = event.start_mark
    return diagnose(
        "DM001", Location(display, mark.line + 1, mark.column + 1),
        f"Inside [...] or {{...}}, '{event.value[:1]}' followed by a space, a comma, a bracket "
        f"or nothing is YAML punctuation and cannot start plain text; write "
        f"'{event.value}' in quotes.")


def _colon_before_end(text: str, start: int, end: int) -> bool:
    """S6: plain text in a flow collection whose ':' comes right before ',', '[', ']', '{'
    or '}' (YAML 1.2 makes that ':' a key indicator; the pure parser keeps it as text)."""
    source = text[start:end]
    if source.endswith(":") and text[end:end + 1] in ("", ",", "]", "}"):
        return True
    index = source.find(":")
    while index >= 0:
        if source[index + 1:index + 2] in _FLOW_ENDS and index + 1 < len(source):
            return True
        index = source.find(":", index + 1)
    return False


def _colon_as_text(event: Any, display: str) -> Diagnostic:
    mark = event.start_mark
    return diagnose(
        "DM001", Location(display, mark.line + 1, mark.column + 1),
        f"Inside [...] or {{...}}, a ':' at the end of '{event.value}' (or before a comma or "
        "a bracket) makes it a key in YAML 1.2, which tools read differently. Write the text "
        "in quotes, or put a space after ':' if it is a key.")


def _unsupported_question(event: Any, display: str) -> Diagnostic:
    mark = event.start_mark
    return diagnose(
        "DM020", Location(display, mark.line + 1, mark.column),
        "Inside [...] or {...} the parser reads '?' directly before text as a mapping key "
        "marker, not as part of the text as YAML 1.2 does. Put the text in quotes.")


def _continuation_problems(
    text: str, first: Any, last: Any, indent: int, display: str, *, collection: bool
) -> list[Diagnostic]:
    """S2: lines after the first line of a flow node must be indented beyond `indent`."""
    if indent < 0:
        return []
    position = _line_end(text, first.start_mark.index) + 1
    stop = last.end_mark.index
    while position < stop:
        end = _line_end(text, position)
        line = text[position:end]
        content = line.lstrip(_BLANK)
        spaces = len(line) - len(line.lstrip(" "))
        skip = not content or (collection and content.startswith("#"))
        if not skip and spaces <= indent:
            line_no, _ = line_column(text, position)
            return [diagnose(
                "DM001", Location(display, line_no, spaces + 1),
                f"This line continues a value that started on line {first.start_mark.line + 1}"
                f" but is indented only {spaces} space(s); indent it with spaces further than "
                f"the key or '-' it belongs to (column {indent + 1}).")]
        position = end + 1
    return []


def _block_scalar_problems(
    text: str, start: int, header_end: int, indent: int, display: str
) -> list[Diagnostic]:
    """S3: leading blank lines of an auto-indented block scalar vs its first content line."""
    if any(ch.isdigit() for ch in text[start:header_end].split("#", 1)[0]):
        return []  # an explicit indentation indicator: nothing is auto-detected
    widest, widest_at = 0, -1
    position = header_end + 1
    while position < len(text):
        end = _line_end(text, position)
        line = text[position:end].rstrip("\r")
        if line.strip(" "):
            spaces = len(line) - len(line.lstrip(" "))
            if spaces > indent and widest > spaces:
                line_no, _ = line_column(text, widest_at)
                return [diagnose(
                    "DM001", Location(display, line_no, 1),
                    f"This blank line of a block scalar holds {widest} spaces, more than the "
                    f"{spaces} of its first text line; remove the trailing spaces.")]
            return []
        if len(line) > widest:
            widest, widest_at = len(line), position
        position = end + 1
    return []


def _glued_comments(text: str, spans: list[tuple[int, int]], display: str) -> list[Diagnostic]:
    """S1: a '#' outside scalar text right after a non-blank character starts no comment."""
    if not _GLUED_COMMENT.search(text):
        return []
    spans.sort()
    starts = [start for start, _ in spans]
    problems: list[Diagnostic] = []
    for found in _GLUED_COMMENT.finditer(text):
        index = found.end() - 1
        if _inside(spans, starts, index) or _earlier_comment(text, spans, starts, index):
            continue
        line, column = line_column(text, index)
        problems.append(diagnose(
            "DM001", Location(display, line, column),
            "A comment must be separated from what comes before it by a space; write ' #'. "
            "Quote the value if the '#' belongs to it."))
    return problems


def _inside(spans: list[tuple[int, int]], starts: list[int], index: int) -> bool:
    at = bisect_right(starts, index) - 1
    return at >= 0 and spans[at][0] <= index < spans[at][1]


def _earlier_comment(
    text: str, spans: list[tuple[int, int]], starts: list[int], index: int
) -> bool:
    """True when another '#' outside scalars earlier on the line already began a comment."""
    line_start = text.rfind("\n", 0, index) + 1
    position = text.find("#", line_start, index)
    while position >= 0:
        if not _inside(spans, starts, position):
            return True
        position = text.find("#", position + 1, index)
    return False

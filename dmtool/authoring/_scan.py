"""Scanning a YAML text for the formatter in one pass of libyaml's events (the parser
dmtool's loader reads files with): the nodes with their positions, and what lies between
the scalars: comments, list dashes and block scalar headers.

YAML parsers drop comments, so they are found in the text: outside the scalars of a valid
document there is only whitespace, indicators (`-`, `:`, `,`, `?`, brackets, document
markers) and comments, and a comment runs from the first `#` there to the end of its line.
The nodes are small slotted objects (not ruamel's), so a large file stays cheap to hold.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any, Protocol

from ruamel.yaml import YAML, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

BLOCK_STYLES = ("|", ">")
# libyaml counts these as line breaks too, so its line numbers would not match ours.
OTHER_BREAKS = ("\x85", "\u2028", "\u2029")


class SourceError(Exception):
    """The file uses a construct the formatter does not handle; it is left untouched."""


class Mark(Protocol):
    """A position (0-based): libyaml's own marks are kept, not copied."""

    line: int
    column: int


# libyaml's scalar events already hold all a scalar node needs (value, style '' or None for
# plain, quotes, '|' or '>', start_mark, end_mark): they are the scalar nodes, uncopied.
ScalarNode = ScalarEvent


class MappingNode:
    """A mapping: (key, value) pairs in source order (`coll`: the formatter's view of it)."""

    __slots__ = ("coll", "end_mark", "flow_style", "start_mark", "value")

    def __init__(self, flow_style: bool, start: Mark) -> None:
        self.value: list[tuple[Node, Node]] = []
        self.flow_style = flow_style
        self.start_mark = start
        self.end_mark = start
        self.coll: Any = None


class SequenceNode:
    """A sequence: its items in order (`coll`: the formatter's view of it)."""

    __slots__ = ("coll", "end_mark", "flow_style", "start_mark", "value")

    def __init__(self, flow_style: bool, start: Mark) -> None:
        self.value: list[Node] = []
        self.flow_style = flow_style
        self.start_mark = start
        self.end_mark = start
        self.coll: Any = None


Node = ScalarNode | MappingNode | SequenceNode


@dataclass
class BlockScalar:
    """Where a block scalar's header and content lines are in the source."""

    header: str  # indicators as written, e.g. "|", ">-", "|2+"
    first: int  # first content line (0-based)
    last: int  # last content line (inclusive); last < first when there is no content
    indent: int  # the content's indentation in the source


@dataclass
class Scanned:
    """One document: its root node, what its scalars cover, its block scalars.

    Coverage comes in document order, packed flat (a large file has millions of spans):
    `spans` holds (line, start column, end column) triples, `full` (first, last) ranges
    of lines covered whole (block scalar content, the middle of a multi-line scalar).
    """

    root: Node | None = None
    spans: array[int] = field(default_factory=lambda: array("q"))
    full: array[int] = field(default_factory=lambda: array("q"))
    blocks: dict[tuple[int, int], BlockScalar] = field(default_factory=dict)


def scan(text: str, lines: list[str]) -> Scanned:
    """The nodes of the one document in `text` (split into `lines`), with their positions."""
    try:
        return _scan(text, lines, _event_source(text))
    except YAMLError:
        # YAML 1.2 forms libyaml refuses ({url: http://x}): dmtool's loader reads them
        # with the pure parser, and so does the formatter.
        events = iter(YAML(typ="safe", pure=True).parse(text))
        return _scan(text, lines, lambda: next(events, None))


def _scan(text: str, lines: list[str], next_event: Any) -> Scanned:
    scanned = Scanned()
    add, cover = scanned.spans.append, scanned.full.append  # bound once: the hot path
    blocks = scanned.blocks
    stack: list[list[Any]] = []  # [collection, pending key] of the open collections
    top: list[Any] | None = None
    documents = 0
    scalar, mapping_start, sequence_start = ScalarEvent, MappingStartEvent, SequenceStartEvent
    # One flat loop, because it runs once per node of files of millions of nodes.
    while (event := next_event()) is not None:
        cls = type(event)
        if cls is scalar or cls is mapping_start or cls is sequence_start:
            if event.anchor is not None:
                raise SourceError("the formatter leaves files with anchors (&name) untouched")
            if event.ctag is not None:
                raise SourceError("the formatter leaves files with explicit tags (!tag) untouched")
            if cls is scalar:
                node: Any = event
                start, end = event.start_mark, event.end_mark
                line, end_line = start.line, end.line
                style = event.style
                if style == "|" or style == ">":
                    block = block_scalar(start, end, lines, _owner_column(top))
                    blocks[(line, start.column)] = block
                    add(line)
                    add(start.column)
                    add(start.column + len(block.header))
                    if block.last >= block.first:
                        cover(block.first)
                        cover(block.last)
                elif line == end_line:
                    if start.column != end.column:
                        add(line)
                        add(start.column)
                        add(end.column)
                else:  # the rest of its first line, its middle lines, the start of its last
                    add(line)
                    add(start.column)
                    add(len(lines[line]) + 1)
                    if end_line > line + 1:
                        cover(line + 1)
                        cover(end_line - 1)
                    add(end_line)
                    add(0)
                    add(end.column)
            else:
                kind = MappingNode if cls is mapping_start else SequenceNode
                node = kind(bool(event.flow_style), event.start_mark)
            if top is None:
                scanned.root = node
            elif top[1] is None and type(top[0]) is MappingNode:
                top[1] = node
            elif type(top[0]) is SequenceNode:
                top[0].value.append(node)
            else:
                top[0].value.append((top[1], node))
                top[1] = None
            if cls is not scalar:
                top = [node, None]
                stack.append(top)
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            stack.pop()[0].end_mark = event.end_mark
            top = stack[-1] if stack else None
        elif cls is AliasEvent:
            raise SourceError("the formatter leaves files with aliases (*name) untouched")
        elif cls is DocumentStartEvent:
            documents += 1
            if getattr(event, "version", None) or getattr(event, "tags", None):
                raise SourceError("the formatter leaves files with directives (%YAML) untouched")
            if documents > 1:
                raise SourceError("the formatter leaves files with several documents untouched")
    return scanned


def _event_source(text: str) -> Any:
    """The next-event function of libyaml's parser (as dmtool's loader reads files)."""
    try:
        from _ruamel_yaml import CParser
    except ImportError:  # pragma: no cover - only without ruamel.yaml.clib (e.g. PyPy)
        events = iter(YAML(typ="safe", pure=True).parse(text))
        return lambda: next(events, None)
    return CParser(text).get_event


def _owner_column(top: list[Any] | None) -> int:
    """The column of the key or dash a block scalar belongs to (-1 for a root scalar)."""
    if top is None:
        return -1
    collection, key = top
    if isinstance(collection, SequenceNode):
        return int(collection.start_mark.column)  # a block list's first dash
    return int(key.start_mark.column) if key is not None else -1


def block_scalar(start: Mark, end: Mark, lines: list[str], owner: int) -> BlockScalar:
    """Header, content lines and content indentation of the block scalar at `start`.

    The indentation follows YAML's rules: an explicit indicator counts from the indentation
    of the key or dash that owns the scalar (column `owner`); otherwise it is that of the
    first non-blank line. Trailing lines with no more spaces than that are blank lines
    after the scalar, not content, unless the chomping indicator `+` keeps them.
    """
    header_line = lines[start.line]
    stop = start.column + 1
    while stop < len(header_line) and header_line[stop] in "+-0123456789":
        stop += 1
    header = header_line[start.column:stop]
    last = min(end.line - 1 if end.column == 0 else end.line, len(lines) - 1)
    body = lines[start.line + 1:last + 1]
    digits = "".join(ch for ch in header if ch.isdigit())
    if digits:
        indent = owner + int(digits)
    else:
        indent = next((len(line) - len(line.lstrip(" ")) for line in body if line.strip()),
                      max((len(line) for line in body), default=0))
    if "+" not in header:
        while last > start.line and not lines[last].strip() and len(lines[last]) <= indent:
            last -= 1
    return BlockScalar(header, start.line + 1, last, indent)


@dataclass
class Layout:
    """What lies outside the scalars, line by line."""

    eol: dict[int, str] = field(default_factory=dict)  # line -> end-of-line comment
    gap: dict[int, str] = field(default_factory=dict)  # line with no node: '#' or '' (blank)
    dashes: list[tuple[int, int]] = field(default_factory=list)  # block list dashes
    comments: list[tuple[int, int]] = field(default_factory=list)  # where each '#' is


def layout(lines: list[str], scanned: Scanned) -> Layout:
    """Comments, blank lines and dashes, from the text outside the scalars' spans."""
    found = Layout()
    spans, full = scanned.spans, scanned.full
    span, whole = 0, 0  # the next span triple and the next whole-line range to reach
    span_end, whole_end = len(spans), len(full)
    for number, line in enumerate(lines):
        while whole < whole_end and full[whole + 1] < number:
            whole += 2
        if whole < whole_end and full[whole] <= number:
            continue  # inside a block scalar or a multi-line scalar: nothing else here
        covered = []
        while span < span_end and spans[span] == number:
            covered.append((spans[span + 1], spans[span + 2]))
            span += 3
        outside = _outside(line, covered) if covered else [(0, line)]
        comment = -1
        content = bool(covered)
        for offset, part in outside:
            hash_at = part.find("#")
            text = part if hash_at < 0 else part[:hash_at]
            if text.strip():
                content = True
                _find_dashes(found.dashes, number, offset, text, line)
            if hash_at >= 0:
                comment = offset + hash_at
                break
        if comment >= 0:
            found.comments.append((number, comment))
        if content:
            if comment >= 0:
                found.eol[number] = line[comment:].strip()
        else:
            found.gap[number] = "#" if comment >= 0 else ""
    return found


def _outside(line: str, covered: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """The parts of `line` no span covers, with their starting columns."""
    parts: list[tuple[int, str]] = []
    position = 0
    for start, end in covered:  # in document order
        if start > position:
            parts.append((position, line[position:start]))
        position = max(position, end)
    if position < len(line):
        parts.append((position, line[position:]))
    return parts


def _find_dashes(dashes: list[tuple[int, int]], number: int, offset: int, text: str,
                 line: str) -> None:
    """Block list dashes: a '-' outside scalars followed by a space or the line's end."""
    if offset == 0 and text.startswith(("---", "...")) and line[3:4] in ("", " ", "\t"):
        return  # a document marker
    index = text.find("-")
    while index >= 0:
        after = offset + index + 1
        if after >= len(line) or line[after] in " \t":
            dashes.append((number, offset + index))
        index = text.find("-", index + 1)

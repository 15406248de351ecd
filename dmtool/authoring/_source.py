"""The formatter's view of a source file: nodes, their items, and the owner of every comment.

YAML parsers drop comments, so this module finds them itself: every character not covered
by a token is whitespace or a comment. Full-line comments and blank lines are then given
an owner: the item they precede (`leading`) or the collection they close (`trailing`), so
they travel with their key when keys are reordered. End-of-line comments are kept by
source line and re-attached to whichever output line carries that source line.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

# Constructs that a formatter cannot re-emit faithfully; dmtool's loader refuses them too.
_REFUSED_TOKENS = {
    "AliasToken": "aliases (*name)",
    "AnchorToken": "anchors (&name)",
    "TagToken": "explicit tags (!tag)",
    "DirectiveToken": "directives (%YAML)",
}
BLOCK_STYLES = ("|", ">")
# libyaml counts these as line breaks too, so its line numbers would not match ours.
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029")


class SourceError(Exception):
    """The file uses a construct the formatter does not handle; it is left untouched."""


@dataclass(eq=False)
class Coll:
    """A mapping or sequence node with its items and the comments that close it."""

    node: Node
    parent_item: Item | None
    depth: int
    items: list[Item] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)

    @property
    def col(self) -> int:
        return self.items[0].col if self.items else self.node.start_mark.column


@dataclass(eq=False)
class Item:
    """One mapping entry (key and value) or one sequence item, with its leading lines."""

    parent: Coll
    key: Node | None
    value: Node
    line: int  # 0-based line where the item starts (the dash of a block sequence item)
    col: int
    depth: int
    dash_line: int | None = None
    leading: list[str] = field(default_factory=list)  # "" is a blank line, else "# ..."


@dataclass
class BlockScalar:
    """Where a block scalar's header and content lines are in the source."""

    header: str  # indicators as written, e.g. "|", ">-", "|2+"
    first: int  # first content line (0-based)
    last: int  # last content line (inclusive); last < first when there is no content
    indent: int  # the content's indentation in the source


@dataclass
class Source:
    """A parsed file ready to be emitted in canonical layout."""

    text: str
    lines: list[str]
    root: Node
    header: list[str]
    trailer: list[str]
    colls: dict[int, Coll]
    eol: dict[int, str]  # source line -> end-of-line comment text
    comment_positions: list[tuple[int, int]]
    blocks: dict[tuple[int, int], BlockScalar]

    def coll(self, node: Node) -> Coll:
        return self.colls[id(node)]

    def has_comment_inside(self, node: Node) -> bool:
        start = (node.start_mark.line, node.start_mark.column)
        end = (node.end_mark.line, node.end_mark.column)
        index = bisect_right(self.comment_positions, start)
        return index < len(self.comment_positions) and self.comment_positions[index] < end


def parse(text: str) -> Source:
    """Parse `text` (already vetted by dmtool's loader) into a `Source`."""
    if any(ch in text for ch in _OTHER_BREAKS):
        raise SourceError("the file contains Unicode line or paragraph separators (U+0085, "
                          "U+2028 or U+2029); write them as escapes in double quotes")
    lines = text.split("\n")
    tokens = _tokens(text)
    for token in tokens:
        refused = _REFUSED_TOKENS.get(type(token).__name__)
        if refused:
            raise SourceError(f"the formatter leaves files with {refused} untouched")
    root = _compose(text)
    if not isinstance(root, MappingNode | SequenceNode):
        raise SourceError("the document is not a mapping or a list")
    covered, blocks = _coverage(tokens, lines)
    eol, gap = _comments(lines, covered)
    colls, items = _structure(root, tokens)
    source = Source(text, lines, root, [], [], colls, eol, [], blocks)
    source.comment_positions = sorted(
        [(line, lines[line].index("#", covered[line][-1][1])) for line in eol]
        + [(line, lines[line].index("#")) for line, kind in gap.items() if kind == "#"]
    )
    _assign(source, items, gap)
    return source


def _tokens(text: str) -> list[Any]:
    """Every token with its marks, from libyaml (as dmtool's loader uses) when available."""
    try:
        from _ruamel_yaml import CParser
    except ImportError:  # pragma: no cover - only without ruamel.yaml.clib (e.g. PyPy)
        return list(YAML(typ="safe", pure=True).scan(text))
    parser = CParser(text)
    tokens = []
    while (token := parser.get_token()) is not None:
        tokens.append(token)
    return tokens


def _compose(text: str) -> Node:
    try:
        from ruamel.yaml.cyaml import CSafeLoader
    except ImportError:  # pragma: no cover - only without ruamel.yaml.clib
        return YAML(typ="safe", pure=True).compose(text)
    return CSafeLoader(text).get_single_node()


def _coverage(
    tokens: list[Any], lines: list[str]
) -> tuple[dict[int, list[tuple[int, int]]], dict[tuple[int, int], BlockScalar]]:
    """Per line, the column spans covered by tokens; block scalar content covers whole lines."""
    covered: dict[int, list[tuple[int, int]]] = {}
    blocks: dict[tuple[int, int], BlockScalar] = {}

    def mark(line: int, start: int, end: int) -> None:
        covered.setdefault(line, []).append((start, end))

    for position, token in enumerate(tokens):
        start, end = token.start_mark, token.end_mark
        if (start.line, start.column) == (end.line, end.column):
            continue
        if type(token).__name__ == "ScalarToken" and token.style in BLOCK_STYLES:
            block = _block_scalar(tokens, position, lines)
            mark(start.line, start.column, start.column + len(block.header))
            for line in range(block.first, block.last + 1):
                mark(line, 0, len(lines[line]) + 1)
            blocks[(start.line, start.column)] = block
            continue
        if start.line == end.line:
            mark(start.line, start.column, end.column)
            continue
        mark(start.line, start.column, len(lines[start.line]) + 1)
        for line in range(start.line + 1, end.line):
            mark(line, 0, len(lines[line]) + 1)
        mark(end.line, 0, end.column)
    for spans in covered.values():
        spans.sort(key=lambda span: span[1])
    return covered, blocks


def _block_scalar(tokens: list[Any], position: int, lines: list[str]) -> BlockScalar:
    """Header, content lines and content indentation of the block scalar token at `position`.

    The indentation follows YAML's rules: an explicit indicator counts from the indentation
    of the key or dash that owns the scalar; otherwise it is that of the first non-blank
    line. Trailing lines with no more spaces than that are blank lines after the scalar,
    not content, unless the chomping indicator `+` keeps them.
    """
    token = tokens[position]
    start, end = token.start_mark, token.end_mark
    header_line = lines[start.line]
    stop = start.column + 1
    while stop < len(header_line) and header_line[stop] in "+-0123456789":
        stop += 1
    header = header_line[start.column:stop]
    last = min(end.line - 1 if end.column == 0 else end.line, len(lines) - 1)
    body = lines[start.line + 1:last + 1]
    digits = "".join(ch for ch in header if ch.isdigit())
    if digits:
        indent = _owner_column(tokens, position) + int(digits)
    else:
        indent = next((len(l) - len(l.lstrip(" ")) for l in body if l.strip()),
                      max((len(l) for l in body), default=0))
    if "+" not in header:
        while last > start.line and not lines[last].strip() and len(lines[last]) <= indent:
            last -= 1
    return BlockScalar(header, start.line + 1, last, indent)


def _owner_column(tokens: list[Any], position: int) -> int:
    """The column of the key or dash a block scalar belongs to (-1 for a root scalar)."""
    before = type(tokens[position - 1]).__name__
    if before == "BlockEntryToken":
        return int(tokens[position - 1].start_mark.column)
    if before == "ValueToken":
        for token in reversed(tokens[:position - 1]):
            if type(token).__name__ == "KeyToken":
                return int(token.start_mark.column)
    return -1


def _comments(
    lines: list[str], covered: dict[int, list[tuple[int, int]]]
) -> tuple[dict[int, str], dict[int, str]]:
    """End-of-line comments by line, and the gap lines: '#' (comment) or '' (blank)."""
    eol: dict[int, str] = {}
    gap: dict[int, str] = {}
    for number, line in enumerate(lines):
        spans = covered.get(number)
        rest = line[spans[-1][1]:] if spans else line
        stripped = rest.strip()
        if stripped and not stripped.startswith("#"):
            raise SourceError(f"line {number + 1} has text the formatter cannot place")
        if spans:
            if stripped:
                eol[number] = stripped
        else:
            gap[number] = "#" if stripped else ""
    return eol, gap


def _structure(root: Node, tokens: list[Any]) -> tuple[dict[int, Coll], list[Item]]:
    """Every collection and item, with block sequence items starting at their dash."""
    dashes = sorted(
        (t.start_mark.line, t.start_mark.column)
        for t in tokens
        if type(t).__name__ == "BlockEntryToken"
    )
    colls: dict[int, Coll] = {}
    items: list[Item] = []

    def walk(node: Node, parent_item: Item | None, depth: int) -> None:
        if not isinstance(node, MappingNode | SequenceNode):
            return
        coll = Coll(node, parent_item, depth)
        colls[id(node)] = coll
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    raise SourceError("the formatter leaves files with complex keys untouched")
                mark = key.start_mark
                coll.items.append(Item(coll, key, value, mark.line, mark.column, depth + 1))
        else:
            own = _own_dashes(node, dashes)
            for index, value in enumerate(node.value):
                if own is not None:
                    line, col = own[index]
                    coll.items.append(Item(coll, None, value, line, col, depth + 1, dash_line=line))
                else:
                    mark = value.start_mark
                    coll.items.append(Item(coll, None, value, mark.line, mark.column, depth + 1))
        for item in coll.items:
            items.append(item)
            walk(item.value, item, depth + 1)

    walk(root, None, 0)
    items.sort(key=lambda item: (item.line, item.col, item.depth))
    return colls, items


def _own_dashes(node: SequenceNode, dashes: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    if node.flow_style:
        return None
    start = (node.start_mark.line, node.start_mark.column)
    end = (node.end_mark.line, node.end_mark.column)
    own = []
    for dash in dashes[bisect_left(dashes, start):bisect_left(dashes, end)]:
        if dash[1] == start[1]:
            own.append(dash)
    if len(own) != len(node.value):
        raise SourceError("a block list's dashes could not be matched to its items")
    return own


def _ancestors(item: Item | None) -> list[Coll]:
    """The collections holding `item`, innermost first."""
    chain: list[Coll] = []
    while item is not None:
        chain.append(item.parent)
        item = item.parent.parent_item
    return chain


def _assign(source: Source, items: list[Item], gap: dict[int, str]) -> None:
    """Give every gap line (comment or blank) an owner; see the module docstring."""
    starts = [item.line for item in items]
    lines = source.lines
    run: list[int] = []
    for number in sorted(gap):
        if run and number != run[-1] + 1:
            _assign_run(source, items, starts, run, gap, lines)
            run = []
        run.append(number)
    if run:
        _assign_run(source, items, starts, run, gap, lines)


def _assign_run(
    source: Source, items: list[Item], starts: list[int], run: list[int],
    gap: dict[int, str], lines: list[str],
) -> None:
    index = bisect_right(starts, run[-1])
    after = items[index] if index < len(items) else None
    before = items[index - 1] if index > 0 else None
    if before is None:
        source.header.extend(_text(lines, n, gap) for n in run)
        return
    keep = set(map(id, _ancestors(after))) if after is not None else set()
    # A flow collection's closing bracket ends it, so only comments before that are its own.
    closing = [c for c in _ancestors(before) if id(c) not in keep
               and (not c.node.flow_style or (c.node.end_mark.line, 0) > (run[0], 0))]
    # What closes the root closes the document.
    owners = [c.trailing if c.parent_item is not None else source.trailer for c in closing]
    if after is not None:
        owners.append(after.leading)
    elif not closing or closing[-1].parent_item is not None:
        owners.append(source.trailer)
    position = 0
    pending: list[str] = []
    for number in run:
        if gap[number] == "":
            pending.append("")
            continue
        column = len(lines[number]) - len(lines[number].lstrip())
        while position < len(closing) and closing[position].col > column:
            position += 1
        position = min(position, len(owners) - 1)
        owners[position].extend(pending)
        owners[position].append(_text(lines, number, gap))
        pending = []
    owners[-1].extend(pending)


def _text(lines: list[str], number: int, gap: dict[int, str]) -> str:
    return lines[number].strip() if gap[number] else ""

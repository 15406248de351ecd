"""The formatter's view of a source file: nodes, their items, and the owner of every comment.

Comments are found by `_scan`. Full-line comments and blank lines are then given an
owner: the item they precede (`leading`) or the collection they close (`trailing`), so
they travel with their key when keys are reordered. End-of-line comments are kept by
source line and re-attached to whichever output line carries that source line.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from dmtool.authoring._scan import (
    OTHER_BREAKS,
    BlockScalar,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    SourceError,
    layout,
    scan,
)


@dataclass(eq=False, slots=True)
class Coll:
    """A mapping or sequence node with its items and the comments that close it."""

    node: Node
    parent_item: Item | None
    items: list[Item] = field(default_factory=list)
    trailing: list[str] | None = None  # made when there is something to hold

    @property
    def col(self) -> int:
        return self.items[0].col if self.items else self.node.start_mark.column


@dataclass(eq=False, slots=True)
class Item:
    """One mapping entry (key and value) or one sequence item, with its leading lines."""

    parent: Coll
    key: Node | None
    value: Node
    line: int  # 0-based line where the item starts (the dash of a block sequence item)
    col: int
    dash_line: int | None = None
    leading: list[str] | None = None  # "" is a blank line, else "# ..."; made when needed


@dataclass
class Source:
    """A parsed file ready to be emitted in canonical layout."""

    text: str
    lines: list[str]
    root: Node
    header: list[str]
    trailer: list[str]
    colls: list[Coll]
    eol: dict[int, str]  # source line -> end-of-line comment text
    comment_positions: list[tuple[int, int]]  # sorted
    blocks: dict[tuple[int, int], BlockScalar]

    def coll(self, node: Node) -> Coll:
        return node.coll  # type: ignore[union-attr, no-any-return]

    def release(self) -> None:
        """Break the reference cycles (node <-> collection <-> item), so the whole tree is
        freed at once when dropped instead of waiting for the cycle collector."""
        for coll in self.colls:
            coll.node.coll = None  # type: ignore[union-attr]
            coll.items = []
        self.colls = []

    def has_comment_inside(self, node: Node) -> bool:
        start = (node.start_mark.line, node.start_mark.column)
        end = (node.end_mark.line, node.end_mark.column)
        index = bisect_right(self.comment_positions, start)
        return index < len(self.comment_positions) and self.comment_positions[index] < end


def parse(text: str) -> Source:
    """Parse `text` (already vetted by dmtool's loader) into a `Source`."""
    if any(ch in text for ch in OTHER_BREAKS):
        raise SourceError("the file contains Unicode line or paragraph separators (U+0085, "
                          "U+2028 or U+2029); write them as escapes in double quotes")
    lines = text.split("\n")
    scanned = scan(text, lines)
    root = scanned.root
    if not isinstance(root, MappingNode | SequenceNode):
        raise SourceError("the document is not a mapping or a list")
    found = layout(lines, scanned)
    colls, items = _structure(root, found.dashes)
    source = Source(text, lines, root, [], [], colls, found.eol, found.comments, scanned.blocks)
    _assign(source, items, found.gap)
    return source


def _structure(root: Node, dashes: list[tuple[int, int]]) -> tuple[list[Coll], list[Item]]:
    """Every collection and item, items in document order (block sequence items start at
    their dash), walked depth first with an explicit stack."""
    colls: list[Coll] = []
    items: list[Item] = []
    pending: list[Item] = []
    _open(root, None, dashes, colls, pending)
    while pending:
        item = pending.pop()
        items.append(item)
        if type(item.value) is not ScalarNode:
            _open(item.value, item, dashes, colls, pending)
    return colls, items


def _open(node: Node, parent_item: Item | None, dashes: list[tuple[int, int]],
          colls: list[Coll], pending: list[Item]) -> None:
    """Make the collection view of `node` and queue its items, first item on top."""
    if not isinstance(node, MappingNode | SequenceNode):
        return
    coll = node.coll = Coll(node, parent_item)
    colls.append(coll)
    found = coll.items
    if isinstance(node, MappingNode):
        for key, value in node.value:
            if type(key) is not ScalarNode:
                raise SourceError("the formatter leaves files with complex keys untouched")
            mark = key.start_mark
            found.append(Item(coll, key, value, mark.line, mark.column))
    else:
        own = _own_dashes(node, dashes)
        for index, value in enumerate(node.value):
            if own is not None:
                line, col = own[index]
                found.append(Item(coll, None, value, line, col, line))
            else:
                mark = value.start_mark
                found.append(Item(coll, None, value, mark.line, mark.column))
    pending.extend(reversed(found))


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
               and (not c.node.flow_style or c.node.end_mark.line > run[0])]
    # What closes the root closes the document.
    owners = [_trailing(c) if c.parent_item is not None else source.trailer for c in closing]
    if after is not None:
        if after.leading is None:
            after.leading = []
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


def _trailing(coll: Coll) -> list[str]:
    if coll.trailing is None:
        coll.trailing = []
    return coll.trailing


def _text(lines: list[str], number: int, gap: dict[int, str]) -> str:
    return lines[number].strip() if gap[number] else ""

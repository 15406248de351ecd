"""The position index of one document: where each node and each mapping key starts.

The index mirrors the data instead of being keyed by full paths, so building it costs
one small tuple per node. A scalar is `(line, column)`; a mapping is
`(line, column, {key: ((key_line, key_column), child)})`; a sequence is
`(line, column, [child, ...])`. Inside the index lines and columns are 0-based, as the
parser gives them (saving two additions per node); find_position returns 1-based.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

PathParts: TypeAlias = Sequence[str | int]
# Kept loose on purpose: the nesting is recursive and built in a hot loop.
PositionTree: TypeAlias = tuple[Any, ...]


def find_position(
    tree: PositionTree | None, parts: PathParts, *, key: bool = False
) -> tuple[int, int]:
    """(line, column) of the node at `parts`, or of its key when `key` is true.

    A path that leaves the tree stops at the deepest node that exists: the caller
    gets the nearest ancestor (its key when `key` is true and it has one), so a
    diagnostic about a missing member points at the mapping that lacks it.
    """
    if tree is None:
        return (1, 1)
    node = tree
    key_position: tuple[int, int] | None = None
    for part in parts:
        if len(node) != 3:
            break
        children = node[2]
        if children.__class__ is dict:
            # An int part may name a mapping key that was written as a number (`4: x`).
            member = children.get(part if part.__class__ is str else str(part))
            if member is None:
                break
            key_position, node = member
        else:
            if part.__class__ is not int or not 0 <= part < len(children):
                break
            key_position = None
            node = children[part]
    if key and key_position is not None:
        return (key_position[0] + 1, key_position[1] + 1)
    return (node[0] + 1, node[1] + 1)

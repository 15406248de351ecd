"""A document as its author meant it: the hints of its own diagnostics applied.

A misplaced or misspelt key is moved where DM102's hint says it belongs; a reference to
an id that does not exist is read as the id DM202's hint suggests. Rules over the whole
corpus judge this reading, so a slip is reported once (by its own diagnostic) and not
again as every consequence of it. The file's positions are unchanged, so locations hold.
"""

from __future__ import annotations

from typing import Any

Parts = tuple[str | int, ...]
# (path of a key as written, path of the mapping it belongs to, its intended name)
Move = tuple[Parts, Parts, str]


def moved(data: Any, moves: list[Move]) -> Any:
    """A copy of `data` with each misplaced or misspelt key moved where it was meant to be.

    Only the containers on the way are copied; the rest is shared.
    """
    if not moves or not isinstance(data, dict):
        return data
    result = dict(data)
    fresh = {id(result)}
    for source, target, name in moves:
        holder = _copied(result, source[:-1], fresh)
        destination = _copied(result, target, fresh)
        if isinstance(holder, dict) and isinstance(destination, dict) and source[-1] in holder \
                and name not in destination:
            destination[name] = holder.pop(source[-1])
    return result


def with_values(data: Any, values: list[tuple[Parts, Any]]) -> Any:
    """A copy of `data` with the value at each path replaced (paths that are gone are skipped)."""
    if not values or not isinstance(data, dict):
        return data
    result = dict(data)
    fresh = {id(result)}
    for parts, value in values:
        holder = _copied(result, parts[:-1], fresh)
        if _child(holder, parts[-1]) is not _ABSENT:
            holder[parts[-1]] = value
    return result


_ABSENT: Any = object()


def _child(node: Any, part: str | int) -> Any:
    """node[part], or _ABSENT when there is no such member or item."""
    if isinstance(node, dict):
        return node.get(part, _ABSENT)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return _ABSENT


def _copied(root: Any, parts: Parts, fresh: set[int]) -> Any:
    """The node at `parts`, every container down to it copied once (ids kept in `fresh`)."""
    node = root
    for part in parts:
        child = _child(node, part)
        if not isinstance(child, (dict, list)):
            return None
        if id(child) not in fresh:
            child = dict(child) if isinstance(child, dict) else list(child)
            fresh.add(id(child))
            node[part] = child
        node = child
    return node

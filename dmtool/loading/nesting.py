"""The first mapping or list of loaded data that nests deeper than a limit (max-nesting).

The loader itself refuses data deeper than builder.MAX_DEPTH. A project may set a lower
limit (the max-nesting setting); the check then looks at the data the loader built and
refuses a document that goes deeper, at the container that goes one level too far.
Levels count as the loader counts them: the document's top mapping is level 1.
"""

from __future__ import annotations

from gc import get_referents
from typing import Any

_CONTAINERS = (dict, list)


def too_deep(data: Any, limit: int) -> tuple[str | int, ...] | None:
    """The path of the first mapping or list, in document order, at level `limit` + 1;
    None when nothing nests that deep."""
    level = [data] if data.__class__ in _CONTAINERS else []
    for _ in range(limit):
        if not level:
            return None
        # A level's children are what the garbage collector's traversal of its containers
        # visits (a list's items, a mapping's values and perhaps its keys: text, never a
        # container), one C-level call per level; most of the data is text and is only
        # looked at for its class (as fast.py's walk does).
        level = [node for node in get_referents(*level) if node.__class__ in _CONTAINERS]
    return _first_at(data, limit + 1) if level else None


def _first_at(data: Any, depth: int) -> tuple[str | int, ...] | None:
    """The path of the first container at level `depth`, depth first in document order
    (a mapping's keys are in the order the file gives them)."""
    # (container, its path, the level it is at), the next one to visit last.
    pending: list[tuple[Any, tuple[str | int, ...], int]] = [(data, (), 1)]
    while pending:
        node, parts, at = pending.pop()
        if at == depth:
            return parts
        items = node.items() if node.__class__ is dict else enumerate(node)
        children = [(child, (*parts, key), at + 1) for key, child in items
                    if child.__class__ in _CONTAINERS]
        pending.extend(reversed(children))
    return None

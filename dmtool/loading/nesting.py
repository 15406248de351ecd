"""The first mapping or list of loaded data that nests deeper than a limit (max-nesting).

The loader itself refuses data deeper than builder.MAX_DEPTH. A project may set a lower
limit (the max-nesting setting); the check then looks at the data the loader built and
refuses a document that goes deeper, at the container that goes one level too far.
Levels count as the loader counts them: the document's top mapping is level 1.
"""

from __future__ import annotations

from gc import get_referents
from typing import Any

from dmtool.loading.builder import event_source

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


def too_deep_in_text(text: str, limit: int) -> tuple[int, int] | None:
    """(line, column), both from 1, of the first mapping or list at level `limit` + 1 of a
    text the loader refused as nested beyond its own limit (it built no data to walk);
    None when the parser gives up before one (its refusal then stands)."""
    # Imported here, as builder.py does: only a refused text needs the event classes.
    from ruamel.yaml.events import (
        MappingEndEvent,
        MappingStartEvent,
        SequenceEndEvent,
        SequenceStartEvent,
    )

    opening = (MappingStartEvent, SequenceStartEvent)
    closing = (MappingEndEvent, SequenceEndEvent)
    get_event = event_source(text)
    depth = 0
    try:
        event = get_event()
        while event is not None:
            if isinstance(event, opening):
                depth += 1
                if depth > limit:
                    return event.start_mark.line + 1, event.start_mark.column + 1
            elif isinstance(event, closing):
                depth -= 1
            event = get_event()
    except Exception:  # a syntax error before the depth: the loader's refusal stands
        return None
    return None

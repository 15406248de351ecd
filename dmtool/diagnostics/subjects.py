"""Naming a place in a document the way its author does: "entry 117", not `entries[11]`.

Messages name the author's things (an entry by its number, an ending by its letter, a
conclusion by its entry, a listed item by its id); the JSON pointer stays a separate
field of the location for tools. These functions read plain JSON data and never fail:
where the data does not say more, they fall back to the key names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from dmtool.patterns import lazy

Parts = Sequence[str | int]

def subject(data: Any, parts: Parts) -> str:
    """The nearest thing an author has a name for that holds `parts` ("the document" at worst)."""
    return _anchor(data, parts)[0]


def where(data: Any, parts: Parts) -> str:
    """A place as an author reads it: "entry 12", "'goto' in entry 12", "'dashboard'"."""
    label, depth = _anchor(data, parts)
    rest = list(parts[depth:])
    if not rest:
        return label
    last = rest[-1]
    if isinstance(last, int):
        owner = next((p for p in reversed(rest[:-1]) if isinstance(p, str)), None)
        place = f"item {last + 1} of '{owner}'" if owner else f"item {last + 1}"
    else:
        place = f"'{last}'"
    return place if label == "the document" else f"{place} in {label}"


def _anchor(data: Any, parts: Parts) -> tuple[str, int]:
    """(name of the deepest named thing on the path, how many parts it covers)."""
    label, depth = "the document", 0
    node = data
    container: str | int | None = None
    for index, part in enumerate(parts):
        if isinstance(node, dict):
            node = node.get(part) if isinstance(part, str) else node.get(str(part))
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            named = _item_name(node, container, label)
            if named is not None:
                label, depth = named, index + 1
        else:
            break
        container = part
    return label, depth


def _item_name(item: Any, container: str | int | None, outer: str) -> str | None:
    """The name of a list item, given the key of its list and the name of what holds it."""
    if not isinstance(item, dict):
        return None
    number = item.get("entry")
    if container == "entries" and _is_int(number):
        return f"entry {number}"
    if container == "endings" and isinstance(item.get("ending"), str):
        return f"ending {item['ending']}"
    if container == "conclusions":
        own = f"conclusion {number}" if _is_int(number) else _titled("conclusion", item)
        return f"{outer}'s {own}" if outer.startswith("ending ") else own
    for key in ("id", "name", "title"):
        if isinstance(item.get(key), str):
            return f"'{item[key]}'"
    return None


def _titled(noun: str, item: dict[str, Any]) -> str:
    title = item.get("title")
    return f"{noun} '{title}'" if isinstance(title, str) else noun


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Plain YAML scalars that would be read as something other than the same text.
_NOT_PLAIN = lazy(r"^$|^[\s\-?:,\[\]{}#&*!|>'\"%@`]|[:#]\s|\s$|[,\[\]{}]|^(true|false|null|~)$"
                        r"|^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?$", re.IGNORECASE)


def flow(value: Any) -> str:
    """A value as an author would write it inline in YAML: {mara: {red: [hand]}}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(str(k))}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if _NOT_PLAIN.search(value) else value
    return str(value)

"""What the schemas say about a place in a document: its description, keys, values, references.

The language server reads the same schemas as the check: hover shows their descriptions,
completion offers their keys and enum values, and a value's `x-refers-to` (or a `$ref` to
`entry_number`) says what it points at, so the schemas stay the one place that knows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from dmtool.validation.schemas import SchemaSet

ENTRY_NUMBER = "entry_number"
ENTRIES = "entries"  # a storybook's list of entries
ROOM = "room"  # a Deep Madness room tile number (deep-madness-defs)
_COMBINATORS = ("allOf", "anyOf", "oneOf")


@dataclass(frozen=True)
class Place:
    """The schema nodes that may describe one place, with the description written there."""

    nodes: tuple[tuple[str, dict[str, Any]], ...]
    description: str | None

    # Worked out once per place: the reference finder hands out one Place per schema node
    # set, and semantic tokens and references ask each value's place again.
    @cached_property
    def refers_to(self) -> tuple[str, ...]:
        """Kinds of document a string here names (from `x-refers-to`)."""
        kinds: list[str] = []
        for _base, node in self.nodes:
            found = node.get("x-refers-to")
            for kind in [found] if isinstance(found, str) else found or ():
                if kind not in kinds:
                    kinds.append(kind)
        return tuple(kinds)

    @cached_property
    def is_entry_number(self) -> bool:
        return any(str(node.get("$ref", "")).endswith("/" + ENTRY_NUMBER) for _b, node in self.nodes)

    @cached_property
    def is_room(self) -> bool:
        return any(str(node.get("$ref", "")).endswith("/" + ROOM) for _b, node in self.nodes)

    @property
    def keys(self) -> dict[str, str]:
        """Keys a mapping here may have, with their descriptions (vocabularies included)."""
        found: dict[str, str] = {}
        for _base, node in self.nodes:
            names = node.get("propertyNames", {})
            allowed = names.get("enum") if isinstance(names, dict) else None
            properties = node.get("properties", {})
            for key in allowed or properties:
                if key not in found:
                    sub = properties.get(key, {})
                    found[key] = sub.get("description", "") if isinstance(sub, dict) else ""
        return found

    @property
    def enum(self) -> list[Any]:
        values: list[Any] = []
        for _base, node in self.nodes:
            for value in node.get("enum", ()) if isinstance(node.get("enum"), list) else ():
                if value not in values:
                    values.append(value)
            if "const" in node and node["const"] not in values:
                values.append(node["const"])
        return values

    @property
    def takes_mapping(self) -> bool:
        return any(node.get("type") == "object" or "properties" in node
                   for _b, node in self.nodes)


# (path, place, value) of one reference found in a document.
Found = tuple[tuple[str | int, ...], Place, Any]


class SchemaNavigator:
    """Walks a kind's schema along a data path (keys and list indexes)."""

    def __init__(self, schemas: SchemaSet) -> None:
        self.schemas = schemas

    def place(self, kind: str, path: Sequence[str | int]) -> Place | None:
        """The schema at `path` in a document of `kind`; None where no schema reaches."""
        schema_id = self.schemas.kinds.get(kind)
        if schema_id is None:
            return None
        current = [(schema_id, self.schemas.by_id[schema_id])]
        description = self.schemas.by_id[schema_id].get("description")
        for part in path:
            following: list[tuple[str, dict[str, Any]]] = []
            description = None
            for base, node in self._expanded(current):
                for child in _children(node, part):
                    if description is None and isinstance(child.get("description"), str):
                        description = child["description"]
                    following.append((base, child))
            if not following:
                return None
            current = following
        nodes = tuple(self._expanded(current))
        if description is None:
            description = next((n["description"] for _b, n in nodes
                                if isinstance(n.get("description"), str)), None)
        return Place(nodes, description)

    def _expanded(self, nodes: list[tuple[str, dict[str, Any]]]) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each node and everything its `$ref`s and combinators stand for (cycles cut)."""
        seen: set[int] = set()
        stack = list(reversed(nodes))
        while stack:
            base, node = stack.pop()
            if id(node) in seen or not isinstance(node, dict):
                continue
            seen.add(id(node))
            ref = node.get("$ref")
            if isinstance(ref, str):
                target_base, target = self.schemas.resolve(base, ref)
                stack.append((target_base, target))
            yield base, node
            for combinator in _COMBINATORS:
                for branch in reversed(node.get(combinator, ())):
                    stack.append((base, branch))


def _children(node: dict[str, Any], part: str | int) -> list[dict[str, Any]]:
    if isinstance(part, int):
        items = node.get("items")
        prefix = node.get("prefixItems")
        if isinstance(prefix, list) and part < len(prefix):
            return [prefix[part]]
        return [items] if isinstance(items, dict) else []
    properties = node.get("properties", {})
    if part in properties:
        return [properties[part]]
    for pattern, sub in node.get("patternProperties", {}).items():
        if re.search(pattern, part):
            return [sub]
    extra = node.get("additionalProperties")
    return [extra] if isinstance(extra, dict) else []


class ReferenceFinder:
    """Every entry number and id reference in a document, found by walking it with its schema."""

    def __init__(self, navigator: SchemaNavigator) -> None:
        self._navigator = navigator
        self._expansions: dict[tuple[int, ...], tuple[tuple[str, dict[str, Any]], ...]] = {}
        self._places: dict[int, Place] = {}  # by the id of an expansion (kept above)
        # Each file's references, with the document they were found in: a document that
        # did not change between two analyses is not walked again (rename, semantic tokens
        # and code lenses all read every document's references after each edit). Of a
        # storybook, each entry's too, with the entry's data: an edit re-parses only the
        # entries it touched, and the others keep their data, so only those are walked.
        self._documents: dict[Any, tuple[Any, list[Found]]] = {}
        self._entries: dict[Any, dict[int, tuple[Any, int, list[Found]]]] = {}

    def in_document(self, document: Any) -> list[Found]:
        """`references` of a loaded document (a SourceDocument), walked once per document
        (and per entry of a book)."""
        known = self._documents.get(document.path)
        if known is not None and known[0] is document:
            return known[1]
        data = document.data
        kind = data.get("kind") if isinstance(data, dict) else None
        entries = data.get(ENTRIES) if isinstance(data, dict) else None
        if not isinstance(kind, str):
            found: list[Found] = []
        elif not isinstance(entries, list):
            found = list(self.references(kind, data))
        else:
            found = []
            for key in data:
                if key != ENTRIES:
                    found += self.references(kind, data, (key,))
            found += self._in_entries(document.path, kind, data, entries)
        self._documents[document.path] = (document, found)
        return found

    def _in_entries(self, path: Any, kind: str, data: Any, entries: list[Any]) -> list[Found]:
        before = self._entries.get(path, {})
        now: dict[int, tuple[Any, int, list[Found]]] = {}
        found: list[Found] = []
        for index, entry in enumerate(entries):
            known = before.get(id(entry))
            if known is None or known[0] is not entry:
                refs = list(self.references(kind, data, (ENTRIES, index)))
            elif known[1] != index:  # moved by an entry added or removed above it
                refs = [((ENTRIES, index, *parts[2:]), place, value) for parts, place, value in known[2]]
            else:
                refs = known[2]
            now[id(entry)] = (entry, index, refs)
            found += refs
        self._entries[path] = now
        return found

    def references(self, kind: str, data: Any,
                   prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Place, Any]]:
        """(path, place, value) for each value that names an entry, a room or a document
        (under `prefix` only, such as one entry of a storybook, if given)."""
        schemas = self._navigator.schemas
        schema_id = schemas.kinds.get(kind)
        if schema_id is None:
            return
        nodes: tuple[tuple[str, dict[str, Any]], ...] = ((schema_id, schemas.by_id[schema_id]),)
        for part in prefix:
            nodes = tuple((b, c) for b, n in self._expand(nodes) for c in _children(n, part))
            if isinstance(data, dict) and isinstance(part, str):
                data = data.get(part)
            elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
                data = data[part]
            else:
                return
            if not nodes:
                return
        pending: list[tuple[tuple[str | int, ...], Any, tuple[tuple[str, dict[str, Any]], ...]]] = [
            (tuple(prefix), data, nodes)]
        while pending:
            path, value, nodes = pending.pop()
            expanded = self._expand(nodes)
            if isinstance(value, dict):
                for key, child in value.items():
                    following = tuple((b, c) for b, n in expanded for c in _children(n, key))
                    if following:
                        pending.append((path + (key,), child, following))
            elif isinstance(value, list):
                for index, child in enumerate(value):
                    following = tuple((b, c) for b, n in expanded for c in _children(n, index))
                    if following:
                        pending.append((path + (index,), child, following))
            else:
                place = self._places.get(id(expanded))
                if place is None:
                    place = self._places[id(expanded)] = Place(expanded, None)
                number = isinstance(value, int) and not isinstance(value, bool)
                if (number and (place.is_entry_number or place.is_room)) or (
                        isinstance(value, str) and place.refers_to):
                    yield path, place, value

    def _expand(self, nodes: tuple[tuple[str, dict[str, Any]], ...]) -> tuple[tuple[str, dict[str, Any]], ...]:
        key = tuple(id(n) for _b, n in nodes)
        found = self._expansions.get(key)
        if found is None:
            found = tuple(self._navigator._expanded(list(nodes)))
            self._expansions[key] = found
        return found

"""Find the references in a document by walking its schema alongside its data.

A schema marks a reference with the annotation `"x-refers-to": "<kind>"` (or a list of
kinds); the walk collects (path, kinds, value) for every such value in the data, so the
schemas stay the single place that says what refers to what.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dmtool.validation.schemas import SchemaSet

# Words that stand for "whichever one the game picks", never for a document id.
KEYWORDS = frozenset({"random", "abomination", "active", "central", "current"})

_COMBINATORS = ("allOf", "anyOf", "oneOf")


@dataclass(frozen=True, slots=True)
class Reference:
    path: tuple[str | int, ...]
    kinds: tuple[str, ...]
    value: str


class ReferenceWalker:
    """Walks data with its schema; remembers which schema nodes can hold references at all."""

    def __init__(self, schemas: SchemaSet) -> None:
        self._schemas = schemas
        self._may_refer: dict[int, bool] = {}

    def knows(self, kind: str) -> bool:
        """Whether a schema describes this kind (only then can its references be found)."""
        return kind in self._schemas.kinds

    def references(self, kind: str, data: Any) -> Iterator[Reference]:
        schema_id = self._schemas.kinds[kind]
        yield from self._walk(schema_id, self._schemas.by_id[schema_id], data, ())

    def _walk(self, base: str, schema: Any, data: Any, path: tuple[Any, ...]) -> Iterator[Reference]:
        if not isinstance(schema, dict) or not self._can_refer(base, schema):
            return
        kinds = schema.get("x-refers-to")
        if kinds is not None and isinstance(data, str) and data not in KEYWORDS:
            yield Reference(path, (kinds,) if isinstance(kinds, str) else tuple(kinds), data)
        if "$ref" in schema:
            ref_base, target = self._schemas.resolve(base, schema["$ref"])
            yield from self._walk(ref_base, target, data, path)
        for combinator in _COMBINATORS:
            for branch in schema.get(combinator, ()):
                yield from self._walk(base, branch, data, path)
        if isinstance(data, dict):
            properties = schema.get("properties", {})
            extra = schema.get("additionalProperties")
            for key, value in data.items():
                sub = properties.get(key, extra if isinstance(extra, dict) else None)
                if sub is not None:
                    yield from self._walk(base, sub, value, path + (key,))
        elif isinstance(data, list):
            items = schema.get("items")
            if isinstance(items, dict):
                for index, value in enumerate(data):
                    yield from self._walk(base, items, value, path + (index,))

    def _can_refer(self, base: str, schema: dict[str, Any]) -> bool:
        """Whether any value under this schema node can be a reference (memoised)."""
        key = id(schema)
        known = self._may_refer.get(key)
        if known is not None:
            return known
        self._may_refer[key] = True  # provisional, breaks cycles through recursive $refs
        result = self._search(base, schema)
        self._may_refer[key] = result
        return result

    def _search(self, base: str, schema: dict[str, Any]) -> bool:
        if "x-refers-to" in schema:
            return True
        children: list[tuple[str, Any]] = []
        if "$ref" in schema:
            children.append(self._schemas.resolve(base, schema["$ref"]))
        for combinator in _COMBINATORS:
            children.extend((base, b) for b in schema.get(combinator, ()))
        children.extend((base, s) for s in schema.get("properties", {}).values())
        for key in ("additionalProperties", "items"):
            if isinstance(schema.get(key), dict):
                children.append((base, schema[key]))
        return any(isinstance(s, dict) and self._can_refer(b, s) for b, s in children)

"""Find the references in a document by walking its schema alongside its data.

A schema marks a reference with the annotation `"x-refers-to": "<kind>"` (or a list of
kinds); the walk collects (path, kinds, value) for every such value in the data, so the
schemas stay the single place that says what refers to what.

The schemas are compiled once into plans: a plan keeps, of a schema node, only what can
lead to a reference (its `x-refers-to`, and the `$ref`s, combinators, properties, extra
properties and items that can refer), so the walk never descends into prose, numbers or
any other part of the data that cannot hold a reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dmtool.validation.schemas import SchemaSet

# Words that stand for "whichever one the game picks", never for a document id.
KEYWORDS = frozenset({"random", "abomination", "active", "central", "current"})

_COMBINATORS = ("allOf", "anyOf", "oneOf")

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Reference:
    path: Path
    kinds: tuple[str, ...]
    value: str


class _Plan:
    """The referring part of one schema node (see the module docstring)."""

    __slots__ = ("additional", "branches", "items", "kinds", "properties")

    def __init__(self) -> None:
        self.kinds: tuple[str, ...] | None = None
        self.branches: tuple[_Plan, ...] = ()
        self.properties: dict[str, _Plan | None] = {}
        self.additional: _Plan | None = None
        self.items: _Plan | None = None


class ReferenceWalker:
    """Walks data with its schema's compiled plan."""

    def __init__(self, schemas: SchemaSet) -> None:
        self._schemas = schemas
        self._plans: dict[int, _Plan | None] = {}
        self._may_refer: dict[int, bool] = {}

    def knows(self, kind: str) -> bool:
        """Whether a schema describes this kind (only then can its references be found)."""
        return kind in self._schemas.kinds

    def references(self, kind: str, data: Any) -> list[Reference]:
        """Every reference in a document of `kind`, in document order."""
        schema_id = self._schemas.kinds[kind]
        plan = self._plan(schema_id, self._schemas.by_id[schema_id])
        found: list[Reference] = []
        if plan is not None:
            _walk(plan, data, (), found)
        return found

    def _plan(self, base: str, schema: Any) -> _Plan | None:
        if not isinstance(schema, dict) or not self._can_refer(base, schema):
            return None
        key = id(schema)
        if key in self._plans:
            return self._plans[key]
        plan = _Plan()
        self._plans[key] = plan  # before the children: recursive $refs meet this plan
        kinds = schema.get("x-refers-to")
        if kinds is not None:
            plan.kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        branches: list[_Plan | None] = []
        if "$ref" in schema:
            branches.append(self._plan(*self._schemas.resolve(base, schema["$ref"])))
        for combinator in _COMBINATORS:
            branches.extend(self._plan(base, b) for b in schema.get(combinator, ()))
        plan.branches = tuple(b for b in branches if b is not None)
        properties = {k: self._plan(base, s) for k, s in schema.get("properties", {}).items()}
        extra = schema.get("additionalProperties")
        plan.additional = self._plan(base, extra) if isinstance(extra, dict) else None
        if plan.additional is not None or any(p is not None for p in properties.values()):
            plan.properties = properties  # else no member of a mapping here can refer
        items = schema.get("items")
        plan.items = self._plan(base, items) if isinstance(items, dict) else None
        return plan

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


def _walk(plan: _Plan, data: Any, path: Path, found: list[Reference]) -> None:
    kinds = plan.kinds
    if kinds is not None and data.__class__ is str and data not in KEYWORDS:
        found.append(Reference(path, kinds, data))
    for branch in plan.branches:
        _walk(branch, data, path, found)
    cls = data.__class__
    if cls is dict:
        properties = plan.properties
        additional = plan.additional
        if not properties and additional is None:
            return
        for key, value in data.items():
            sub = properties.get(key, additional) if key in properties else additional
            if sub is not None:
                _walk(sub, value, (*path, key), found)
    elif cls is list:
        items = plan.items
        if items is not None:
            for index, value in enumerate(data):
                _walk(items, value, (*path, index), found)

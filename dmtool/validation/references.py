"""Find the references in a document by walking its schema alongside its data.

A schema marks a reference with the annotation `"x-refers-to": "<kind>"` (or a list of
kinds); the walk collects (path, kinds, value) for every such value in the data, so the
schemas stay the single place that says what refers to what.

The schemas are compiled once into plans: a plan keeps, of a schema node, only what can
lead to a reference (its `x-refers-to`, and the `$ref`s, combinators, properties, extra
properties and items that can refer), so the walk never descends into prose, numbers or
any other part of the data that cannot hold a reference. Before the first walk each plan
is flattened (`_flatten`): what its branches do to a string, a mapping or a list is
gathered into the plan itself, in the order the branches come, so that the walk makes
one call per node of the data rather than one per branch and `$ref` on the way.
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
    """A value at `path` that names a document of one of `kinds`."""

    path: Path
    kinds: tuple[str, ...]
    value: str


class _Plan:
    """The referring part of one schema node (see the module docstring).

    `kinds`, `branches`, `properties`, `additional` and `items` are the schema's own;
    `on_text`, `on_mapping` and `on_list` are the flattened walk (`_flatten`): the kinds
    a string here refers to, and the (properties, additional) and item plans a mapping's
    members and a list's items are walked with, each in the order of the original walk
    (the branches first, then the node's own); `keys` names the members of a mapping that
    any of those steps walks (None when some step walks every member), and `key_list`
    the same names in order.
    """

    __slots__ = ("additional", "branches", "items", "key_list", "keys", "kinds", "on_list",
                 "on_mapping", "on_text", "properties", "ready")

    def __init__(self) -> None:
        self.kinds: tuple[str, ...] | None = None
        self.branches: tuple[_Plan, ...] = ()
        self.properties: dict[str, _Plan | None] = {}
        self.additional: _Plan | None = None
        self.items: _Plan | None = None
        self.on_text: tuple[tuple[str, ...], ...] = ()
        self.on_mapping: tuple[tuple[dict[str, _Plan | None], _Plan | None], ...] = ()
        self.on_list: tuple[_Plan, ...] = ()
        # The members through which a mapping here may refer (None: any member may).
        self.keys: frozenset[str] | None = frozenset()
        self.key_list: tuple[str, ...] = ()  # the same names, to look each up in a mapping
        self.ready = False


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
            if not plan.ready:
                _flatten(plan)
            _walk(plan, data, (), found)
        return found

    def references_in_items(self, kind: str, list_key: str, items: list[Any],
                            first: int) -> list[Reference] | None:
        """The references under `items`, items `first`, `first + 1`... of the top-level
        list `list_key` of a document of `kind`, as the whole walk finds them; None when
        the whole walk does not find them item by item (more than one step over the
        document's members or the list's items), so that they cannot be told apart."""
        schema_id = self._schemas.kinds.get(kind)
        if schema_id is None:
            return None
        plan = self._plan(schema_id, self._schemas.by_id[schema_id])
        if plan is None:
            return []  # nothing in such a document refers
        if not plan.ready:
            _flatten(plan)
        if len(plan.on_mapping) != 1:
            return None
        properties, additional = plan.on_mapping[0]
        listed = properties.get(list_key, additional)
        if listed is None:
            return []  # the list is not walked
        if listed.on_mapping or listed.on_text or len(listed.on_list) > 1:
            return None
        found: list[Reference] = []
        _walk_items(listed, items, ((), list_key), found, first)
        return found

    def members_may_refer(self, kind: str, list_key: str, members: frozenset[str]) -> bool:
        """Whether the walk of a document of `kind` may find a reference under one of
        `members` of a mapping in its top-level list `list_key` (a storybook's entries):
        if not, an edit of only those members leaves its references as they were."""
        schema_id = self._schemas.kinds.get(kind)
        if schema_id is None:
            return True
        plan = self._plan(schema_id, self._schemas.by_id[schema_id])
        if plan is None:
            return False
        if not plan.ready:
            _flatten(plan)  # every plan under it too
        for properties, additional in plan.on_mapping:
            listed = properties.get(list_key, additional)
            if listed is None:
                continue
            for items in listed.on_list:
                if items.keys is None or not items.keys.isdisjoint(members):
                    return True
        return False

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


def _flatten(root: _Plan) -> None:
    """Fill in the flattened walk of every plan reachable from `root` (see _Plan)."""
    pending = [root]
    while pending:
        plan = pending.pop()
        if plan.ready:
            continue
        _fill(plan, set())
        for properties, additional in plan.on_mapping:
            pending.extend(sub for sub in properties.values() if sub is not None)
            if additional is not None:
                pending.append(additional)
        pending.extend(plan.on_list)


def _fill(plan: _Plan, filling: set[int]) -> None:
    """One plan's flattened walk: its own kinds, its branches' walks in order, its own
    members and items (the order in which the original recursive walk found them)."""
    if plan.ready:
        return
    if id(plan) in filling:
        raise ValueError("a schema's $ref or combinator leads back to itself with no data "
                         "in between")
    filling.add(id(plan))
    on_text = [plan.kinds] if plan.kinds is not None else []
    on_mapping: list[tuple[dict[str, _Plan | None], _Plan | None]] = []
    on_list: list[_Plan] = []
    for branch in plan.branches:
        _fill(branch, filling)
        on_text += branch.on_text
        on_mapping += branch.on_mapping
        on_list += branch.on_list
    properties, additional = plan.properties, plan.additional
    if properties or additional is not None:
        # properties.get(key, additional) is the member's plan; a member named in the
        # schema that cannot refer stays in as None only where `additional` would apply.
        if additional is None:
            properties = {key: sub for key, sub in properties.items() if sub is not None}
        on_mapping.append((properties, additional))
    if plan.items is not None:
        on_list.append(plan.items)
    plan.on_text, plan.on_mapping, plan.on_list = tuple(on_text), tuple(on_mapping), tuple(on_list)
    if any(additional is not None for _, additional in on_mapping):
        plan.keys = None
    else:
        plan.keys = frozenset(key for members, _ in on_mapping for key in members)
        plan.key_list = tuple(sorted(plan.keys))
    plan.ready = True


def _walk(plan: _Plan, data: Any, path: Any, found: list[Reference]) -> None:
    """Collect the references under `data`, walked with `plan`, into `found`.

    `path` is the way to `data` as nested pairs, (the parent's path, key or index), from
    () at the root: a pair costs less to make than a tuple of the whole path, and only a
    reference found (rare) needs the whole path (_parts). Classes are told by type(),
    which costs half of reading `__class__`.
    """
    cls = type(data)
    if cls is str:
        if plan.on_text and data not in KEYWORDS:
            parts = _parts(path)
            found.extend(Reference(parts, kinds, data) for kinds in plan.on_text)
    elif cls is dict:
        _walk_mapping(plan, data, path, found)
    elif cls is list:
        _walk_items(plan, data, path, found)


def _walk_mapping(plan: _Plan, data: dict[str, Any], path: Any, found: list[Reference]) -> None:
    """_walk of a mapping."""
    # hot path: called for every mapping of a document that may hold a reference
    on_mapping = plan.on_mapping
    keys = plan.keys
    if keys is None or len(on_mapping) != 1:
        for members, additional in on_mapping:
            for key, value in data.items():
                sub = members.get(key, additional)
                if sub is not None:
                    _walk_member(sub, value, (path, key), found)
        return
    # One step, which walks only the members it names: those present, in the mapping's
    # order, found by looking up the fewer of its keys and the names.
    # (_fill leaves out the names that cannot refer when no extra member may: no None)
    properties: dict[str, _Plan] = on_mapping[0][0]  # type: ignore[assignment]
    if len(data) > len(keys):
        hit = None
        for key in plan.key_list:
            if key in data:
                if hit is not None:
                    break  # two or more: taken in the mapping's order below
                hit = key
        else:
            if hit is not None:
                _walk_member(properties[hit], data[hit], (path, hit), found)
            return
    for key in data:
        if key in keys:
            _walk_member(properties[key], data[key], (path, key), found)


def _walk_member(sub: _Plan, value: Any, path: Any, found: list[Reference]) -> None:
    if type(value) is list and not sub.on_mapping and not sub.on_text:
        _walk_items(sub, value, path, found)  # a call saved (lists of effects)
    else:
        _walk(sub, value, path, found)


def _walk_items(plan: _Plan, data: list[Any], path: Any, found: list[Reference],
                first: int = 0) -> None:
    """_walk of a list: its items, walked with each of the plan's item plans in turn (the
    first of `data` being the list's item `first`)."""
    for items in plan.on_list:
        keys = items.keys
        # Where a mapping may name many members, one test first tells whether any of
        # them is there (most effects are mappings of one member that is not walked).
        screen = keys if keys is not None and len(keys) > 3 else None
        for index, value in enumerate(data, first):
            if type(value) is dict:
                if screen is not None and screen.isdisjoint(value):
                    continue
                _walk_mapping(items, value, (path, index), found)
            else:
                _walk(items, value, (path, index), found)


def _parts(path: Any) -> Path:
    """The path of keys and indexes that nested pairs (see _walk) stand for."""
    parts: list[str | int] = []
    while path:
        path, step = path
        parts.append(step)
    parts.reverse()
    return tuple(parts)

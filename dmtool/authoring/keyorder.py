"""Canonical key order: `kind` and `id` first, then the order of the schema's `properties`.

The schema of the document's kind is walked alongside the data, following `$ref` and the
branches of `allOf`/`anyOf`/`oneOf`; where branches compete (an effect is one of many
single-key mappings), the branch naming most of the mapping's keys decides. Keys no schema
names keep their relative order after the known ones, so the order is a pure function of
the key set and formatting twice changes nothing.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.validation.schemas import SchemaSet

ROOT_FIRST = ("kind", "id")
_BRANCHES = ("allOf", "anyOf", "oneOf", "then", "else")
_MAX_EXPANSION = 64  # guards against $ref cycles without properties in between


@dataclass(frozen=True)
class Cursor:
    """The candidate subschemas (with the `$id` they live in) for one place in the data."""

    candidates: tuple[tuple[str, dict[str, Any]], ...] = ()


EMPTY = Cursor()


class DuplicateKeyError(ValueError):
    """A mapping repeats a key: it has no canonical order (and dmtool refuses the file)."""


class KeyOrder:
    """Orders mapping keys after the schemas in one folder; unknown kinds keep source order."""

    def __init__(self, schema_dir: Path) -> None:
        self._schemas = SchemaSet(schema_dir)
        self._expanded: dict[tuple[str, int], Cursor] = {}
        # Answers depend only on the cursor and the keys, and a large file asks the same
        # questions thousands of times: cursors are interned so their ids are cache keys.
        self._cursors: dict[tuple[tuple[str, int], ...], Cursor] = {(): EMPTY}
        self._interned = {id(EMPTY)}  # only these ids are safe keys: they live as long as self
        self._orders: dict[tuple[int, tuple[str, ...], bool], list[int]] = {}
        self._children: dict[tuple[int, str, tuple[str, ...]], Cursor] = {}
        self._items: dict[tuple[int, int], Cursor] = {}
        self._prefixes: dict[int, int] = {}
        self._plans: dict[tuple[int, tuple[str, ...], bool], list[tuple[int, Cursor]]] = {}

    def root(self, data_kind: object) -> Cursor:
        try:
            schema_id = self._schemas.kinds.get(data_kind) if isinstance(data_kind, str) else None
        except (OSError, ValueError):  # a missing folder or a broken schema: no ordering
            return EMPTY
        if schema_id is None:
            return EMPTY
        return self._expand(schema_id, self._schemas.by_id[schema_id])

    def plan(self, cursor: Cursor, keys: tuple[str, ...], *,
             root: bool = False) -> list[tuple[int, Cursor]]:
        """(index into `keys`, cursor for that key's value), in canonical order."""
        memo = (id(cursor), keys, root)
        found = self._plans.get(memo) if id(cursor) in self._interned else None
        if found is None:
            if len(set(keys)) != len(keys):  # never cached, so asked again each time
                twice = next(k for k in keys if keys.count(k) > 1)
                raise DuplicateKeyError(f"the key {twice!r} appears twice in one mapping")
            found = [(index, self.child(cursor, keys[index], keys))
                     for index in self.order(cursor, keys, root=root)]
            if id(cursor) in self._interned:
                self._plans[memo] = found
        return found

    def order(self, cursor: Cursor, keys: Sequence[str], *, root: bool = False) -> list[int]:
        """Indexes of `keys` in canonical order."""
        if id(cursor) not in self._interned:
            return self._order(cursor, keys, root=root)
        key = (id(cursor), tuple(keys), root)
        found = self._orders.get(key)
        if found is None:
            found = self._orders[key] = self._order(cursor, keys, root=root)
        return found

    def _order(self, cursor: Cursor, keys: Sequence[str], *, root: bool) -> list[int]:
        ranking: dict[str, int] = {}
        if root:
            for name in ROOT_FIRST:
                ranking.setdefault(name, len(ranking))
        for _, schema in self._ranked(cursor, keys):
            for name in schema.get("properties", {}):
                ranking.setdefault(name, len(ranking))
        unknown = len(ranking)
        return sorted(range(len(keys)), key=lambda i: (ranking.get(keys[i], unknown), i))

    def child(self, cursor: Cursor, key: str, keys: Sequence[str]) -> Cursor:
        """The cursor for the value of `key` in a mapping holding `keys`."""
        if id(cursor) not in self._interned:
            return self._child(cursor, key, keys)
        memo = (id(cursor), key, tuple(keys))
        found = self._children.get(memo)
        if found is None:
            found = self._children[memo] = self._child(cursor, key, keys)
        return found

    def _child(self, cursor: Cursor, key: str, keys: Sequence[str]) -> Cursor:
        found: list[tuple[str, dict[str, Any]]] = []
        for base, schema in self._ranked(cursor, keys):
            sub = schema.get("properties", {}).get(key)
            if sub is None:
                for pattern, candidate in schema.get("patternProperties", {}).items():
                    if _matches(pattern, key):
                        sub = candidate
                        break
            if sub is None and isinstance(schema.get("additionalProperties"), dict):
                sub = schema["additionalProperties"]
            if isinstance(sub, dict):
                found.extend(self._expand(base, sub).candidates)
        return self._intern(found)

    def item(self, cursor: Cursor, index: int) -> Cursor:
        """The cursor for item `index` of a list."""
        if id(cursor) not in self._interned:
            return self._item(cursor, index)
        # Items after every candidate's prefixItems all share one answer.
        prefix = self._prefixes.get(id(cursor))
        if prefix is None:
            prefix = self._prefixes[id(cursor)] = max(
                (len(s.get("prefixItems", ())) for _, s in cursor.candidates), default=0)
        memo = (id(cursor), index if index < prefix else -1)
        found = self._items.get(memo)
        if found is None:
            found = self._items[memo] = self._item(cursor, index)
        return found

    def _item(self, cursor: Cursor, index: int) -> Cursor:
        found: list[tuple[str, dict[str, Any]]] = []
        for base, schema in cursor.candidates:
            prefix = schema.get("prefixItems", [])
            sub = prefix[index] if index < len(prefix) else schema.get("items")
            if isinstance(sub, dict):
                found.extend(self._expand(base, sub).candidates)
        return self._intern(found)

    def _intern(self, found: list[tuple[str, dict[str, Any]]]) -> Cursor:
        key = tuple((base, id(schema)) for base, schema in found)
        cursor = self._cursors.get(key)
        if cursor is None:
            cursor = self._cursors[key] = Cursor(tuple(found))
            self._interned.add(id(cursor))
        return cursor

    def _ranked(self, cursor: Cursor, keys: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        """Candidates, those naming most of `keys` first (stable for ties)."""
        wanted = set(keys)
        scored = [
            (len(wanted & set(schema.get("properties", {}))), position, base, schema)
            for position, (base, schema) in enumerate(cursor.candidates)
        ]
        return [(b, s) for _, _, b, s in sorted(scored, key=lambda t: (-t[0], t[1]))]

    def _expand(self, base: str, schema: dict[str, Any]) -> Cursor:
        # Schemas live as long as this object, so their ids are stable cache keys.
        cached = self._expanded.get((base, id(schema)))
        if cached is None:
            cached = self._expanded[(base, id(schema))] = self._expand_uncached(base, schema)
        return cached

    def _expand_uncached(self, base: str, schema: dict[str, Any]) -> Cursor:
        out: list[tuple[str, dict[str, Any]]] = []
        pending = [(base, schema)]
        while pending and len(out) < _MAX_EXPANSION:
            base, node = pending.pop(0)
            out.append((base, node))
            ref = node.get("$ref")
            if isinstance(ref, str):
                # An unresolvable $ref is the schema checker's business, not the formatter's.
                with contextlib.suppress(KeyError, IndexError, TypeError):
                    pending.append(self._schemas.resolve(base, ref))
            for keyword in _BRANCHES:
                branch = node.get(keyword)
                if isinstance(branch, dict):
                    pending.append((base, branch))
                elif isinstance(branch, list):
                    pending.extend((base, b) for b in branch if isinstance(b, dict))
        return self._intern(out)


def _matches(pattern: str, key: str) -> bool:
    try:
        return re.search(pattern, key) is not None
    except re.error:
        return False

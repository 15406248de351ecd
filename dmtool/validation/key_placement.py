"""Why a key is unknown where it stands: misspelt, or indented into the wrong mapping.

A key indented two spaces too far becomes a member of the mapping above it: that mapping
gets an unknown key and its rightful owner seems to miss one. A misspelt required key
likewise reads as one unknown key plus one missing key. Both are one mistake, so they get
one diagnostic (the unknown key, with a hint that says what happened), and the
"missing" half is dropped.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from dmtool.diagnostics.subjects import where
from dmtool.validation.schemas import SchemaSet

Parts = tuple[str | int, ...]
_COMBINATORS = ("allOf", "anyOf", "oneOf")


@dataclass(frozen=True, slots=True)
class Placement:
    """The verdict on one unknown key: a hint, and where the key was meant to be.

    `meant` is (the path of the mapping, the key's intended name); `fills_gap` says the
    schema reported that very key missing there, so that report is the same mistake.
    """

    hint: str | None
    meant: tuple[Parts, str] | None = None
    fills_gap: bool = False


@dataclass
class KeyPlacement:
    """Explains unknown keys of one document, given the keys its schema found missing."""

    data: Any
    missing: dict[Parts, list[str]]
    schemas: SchemaSet | None = None
    kind: str | None = None
    _known: dict[Parts, set[str]] = field(default_factory=dict)

    def explain(self, path: Parts, key: str, known_here: list[str]) -> Placement:
        """Why `key` is unknown in the mapping at `path` (whose own keys are `known_here`)."""
        for depth in range(len(path) - 1, -1, -1):  # nearest enclosing mapping first
            outer = path[:depth]
            if key in self.missing.get(outer, ()) or self._fits(outer, key):
                return Placement(self._too_deep(path, outer, key), (outer, key),
                                 key in self.missing.get(outer, ()))
        inner = self._inner(path, key)
        if inner is not None:
            return Placement(self._too_shallow(path, inner, key), (inner, key),
                             key in self.missing.get(inner, ()))
        here = _at(self.data, path)
        for choices, gap in ((self.missing.get(path, []), True), (known_here, False)):
            close = difflib.get_close_matches(key, choices, n=1, cutoff=0.6)
            if close:
                free = isinstance(here, dict) and close[0] not in here
                return Placement(f"did you mean '{close[0]}'?",
                                 (path, close[0]) if free else None, gap)
        return Placement(None)

    def _fits(self, outer: Parts, key: str) -> bool:
        """Whether `key` is a property the mapping at `outer` may have and does not have."""
        node = _at(self.data, outer)
        return isinstance(node, dict) and key not in node and key in self._properties(outer)

    def _inner(self, path: Parts, key: str) -> Parts | None:
        """A mapping directly inside `path` that misses `key` or may hold it and does not."""
        node = _at(self.data, path)
        if not isinstance(node, dict):
            return None
        for child, value in node.items():
            inner = (*path, child)
            if isinstance(value, dict) and key not in value and (
                    key in self.missing.get(inner, ()) or key in self._properties(inner)):
                return inner
        return None

    def _properties(self, path: Parts) -> set[str]:
        known = self._known.get(path)
        if known is None:
            known = set()
            if self.schemas is not None and self.kind in self.schemas.kinds:
                known = properties_at(self.schemas, self.kind, path)
            self._known[path] = known
        return known

    def _too_deep(self, path: Parts, outer: Parts, key: str) -> str:
        return (f"'{key}' is indented too far: it reads as part of {where(self.data, path)}, "
                f"but it belongs to {where(self.data, outer)}; line it up with the keys there")

    def _too_shallow(self, path: Parts, inner: Parts, key: str) -> str:
        return (f"'{key}' is not indented enough: it reads as part of {where(self.data, path)}, "
                f"but it belongs inside {where(self.data, inner)}; indent it like the keys there")


def _at(data: Any, parts: Parts) -> Any:
    for part in parts:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def properties_at(schemas: SchemaSet, kind: str, path: Parts) -> set[str]:
    """Every property name a kind's schema allows in the mapping at `path`."""
    root = schemas.kinds[kind]
    nodes = _expand(schemas, [(root, schemas.by_id[root])])
    for part in path:
        step: list[tuple[str, Any]] = []
        for base, node in nodes:
            if isinstance(part, int):
                if isinstance(node.get("items"), dict):
                    step.append((base, node["items"]))
            elif part in node.get("properties", {}):
                step.append((base, node["properties"][part]))
            elif isinstance(node.get("additionalProperties"), dict):
                step.append((base, node["additionalProperties"]))
        nodes = _expand(schemas, step)
    return {name for _, node in nodes for name in node.get("properties", {})}


def _expand(schemas: SchemaSet, nodes: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The nodes with every `$ref` followed and every combinator branch added."""
    found: list[tuple[str, Any]] = []
    pending = list(nodes)
    seen: set[int] = set()
    while pending:
        base, node = pending.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        found.append((base, node))
        if isinstance(node.get("$ref"), str):
            pending.append(schemas.resolve(base, node["$ref"]))
        for combinator in _COMBINATORS:
            pending.extend((base, branch) for branch in node.get(combinator, ()))
    return found

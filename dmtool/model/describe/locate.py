"""Finding every effect list and condition in a document by walking its schema beside its data.

The schemas say where the vocabulary is used (a `$ref` to the shared effect or condition
definitions), so the site and the descriptions snapshot find effects in any kind of
document, including fields added later, without a list of field names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class SchemaSet(Protocol):
    """What the walk needs of validation's SchemaSet (passed in: model sits below it)."""

    @property
    def kinds(self) -> Mapping[str, str]: ...
    @property
    def by_id(self) -> Mapping[str, Any]: ...
    def resolve(self, base_id: str, ref: str) -> tuple[str, Any]: ...


Parts = tuple[str | int, ...]
# (schema file, definition) -> what the value is.
VOCABULARY = {
    ("defs.schema.json", "effects"): "effects",
    ("defs.schema.json", "effect"): "effect",
    ("defs.schema.json", "condition"): "condition",
    ("deep-madness-defs.schema.json", "effects"): "chapter-effects",
    ("deep-madness-defs.schema.json", "effect"): "chapter-effect",
    ("deep-madness-defs.schema.json", "condition"): "chapter-condition",
    ("deep-madness-defs.schema.json", "conditions"): "chapter-conditions",
}
_COMBINATORS = ("allOf", "anyOf", "oneOf")


@dataclass(frozen=True, slots=True)
class Found:
    """A value of the vocabulary: where it is, what it is (see VOCABULARY) and the value."""

    parts: Parts
    vocabulary: str
    value: Any


def locate(schemas: SchemaSet, kind: str, data: Any) -> Iterator[Found]:
    """Every outermost effect list, effect or condition in `data`, in document order."""
    schema_id = schemas.kinds.get(kind)
    if schema_id is None:
        return
    seen: set[Parts] = set()
    for found in _walk(schemas, schema_id, schemas.by_id[schema_id], data, ()):
        if found.parts not in seen:  # oneOf branches can reach the same value twice
            seen.add(found.parts)
            yield found


def _walk(schemas: SchemaSet, base: str, schema: Any, data: Any,
          parts: Parts) -> Iterator[Found]:
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target_base, target = schemas.resolve(base, ref)
        name = ref.partition("#")[2].rsplit("/", 1)[-1]
        vocabulary = VOCABULARY.get((target_base, name))
        if vocabulary is not None:
            yield Found(parts, vocabulary, data)
            return
        yield from _walk(schemas, target_base, target, data, parts)
    for combinator in _COMBINATORS:
        for branch in schema.get(combinator, ()):
            yield from _walk(schemas, base, branch, data, parts)
    for key in ("then", "else"):
        if isinstance(schema.get(key), dict):
            yield from _walk(schemas, base, schema[key], data, parts)
    if isinstance(data, dict):
        properties = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        extra = schema.get("additionalProperties")
        for key, value in data.items():
            sub = properties.get(key)
            if sub is None:
                sub = next((s for p, s in patterns.items() if re.search(p, str(key))), None)
            if sub is None and isinstance(extra, dict):
                sub = extra
            if sub is not None:
                yield from _walk(schemas, base, sub, value, (*parts, key))
    elif isinstance(data, list):
        items = schema.get("items")
        if isinstance(items, dict):
            for index, value in enumerate(data):
                yield from _walk(schemas, base, items, value, (*parts, index))

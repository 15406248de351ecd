"""Every schema file, whoever wrote it: `$id` is its file name, objects are closed, kinds known."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dmtool.validation.schemas import SchemaSet, default_schema_dir

SCHEMA_FILES = sorted(default_schema_dir().glob("*.schema.json"))


def _objects(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            yield where, node
        for key, value in node.items():
            yield from _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _objects(value, f"{where}/{index}")


def test_there_is_one_schema_per_kind() -> None:
    kinds = SchemaSet(default_schema_dir()).kinds
    assert {"storybook", "wanderer", "chapter", "campaign", "scenario", "campaign-state",
            "manifest", "round-trackers", "condition-types"} <= set(kinds)
    assert all(f"{kind}.schema.json" == schema_id for kind, schema_id in kinds.items())


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_id_names_the_file_and_the_draft_is_2020_12(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["$id"] == path.name
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_every_object_is_closed(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    # Closed: no unknown keys (false), or a map whose values all follow one schema (ids as
    # keys, e.g. a fixture's wanderers). Conditional fragments (if/then, dependentSchemas)
    # only add constraints to an object that is closed where it is declared.
    fragments = {"if", "then", "else", "dependentSchemas", "allOf", "not"}
    open_objects = [where for where, node in _objects(schema)
                    if not (node.get("additionalProperties") is False
                            or isinstance(node.get("additionalProperties"), dict))
                    and not fragments & set(where.split("/"))]
    assert not open_objects, open_objects

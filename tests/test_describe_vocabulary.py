"""Every effect and condition of the content vocabulary has a description, and every field
and enumerated value of each one changes the words (so nothing is silently left out)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dmtool.model.describe import (
    CONDITIONS,
    EFFECTS,
    describe_condition,
    describe_effect,
    flat,
    plain,
)
from dmtool.model.describe.chapter import CHAPTER_CONDITIONS, describe_chapter_condition
from dmtool.model.describe.chapter_effects import CHAPTER_EFFECTS, describe_chapter_effect

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
DEFS = json.loads((SCHEMAS / "defs.schema.json").read_text(encoding="utf-8"))
DM_DEFS = json.loads((SCHEMAS / "deep-madness-defs.schema.json").read_text(encoding="utf-8"))
FILES = {"defs.schema.json": DEFS, "deep-madness-defs.schema.json": DM_DEFS}


def _words(vocabulary: str, value: Any) -> str:
    if vocabulary == "effect":
        return plain(flat((describe_effect(value),)))
    if vocabulary == "condition":
        return plain(describe_condition(value)) + " | " + plain(
            describe_condition(value, negated=True))
    if vocabulary == "chapter-effect":
        return plain(flat((describe_chapter_effect(value),)))
    return plain(describe_chapter_condition(value)) + " | " + plain(
        describe_chapter_condition(value, negated=True))


VOCABULARIES = {
    "effect": (DEFS, "effect", EFFECTS),
    "condition": (DEFS, "condition", CONDITIONS),
    "chapter-effect": (DM_DEFS, "effect", CHAPTER_EFFECTS),
    "chapter-condition": (DM_DEFS, "condition", CHAPTER_CONDITIONS),
}


@pytest.mark.parametrize("vocabulary", sorted(VOCABULARIES))
def test_every_name_in_the_schema_has_a_describer(vocabulary: str) -> None:
    schema, name, registry = VOCABULARIES[vocabulary]
    names = set(schema["$defs"][name]["propertyNames"]["enum"])
    assert names - set(registry) == set(), "no description for these"
    assert set(registry) - names == set(), "described but not in the schema"


def _cases() -> Iterator[tuple[str, str]]:
    for vocabulary, (schema, name, _) in sorted(VOCABULARIES.items()):
        for key in schema["$defs"][name]["propertyNames"]["enum"]:
            yield vocabulary, key


def _resolve(schema: dict[str, Any], base: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    while "$ref" in schema:
        target, _, fragment = schema["$ref"].partition("#")
        base = FILES[target] if target else base
        node: Any = base
        for part in [p for p in fragment.split("/") if p]:
            node = node[part]
        schema = {**node, **{k: v for k, v in schema.items() if k not in ("$ref", "description")}}
    return schema, base


def sample(schema: dict[str, Any], base: dict[str, Any], depth: int = 0) -> Any:
    """A full value for a schema node: every property present, integers above one."""
    schema, base = _resolve(schema, base)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][-1]
    for combinator in ("oneOf", "anyOf"):
        if combinator in schema:
            return sample(schema[combinator][-1], base, depth)
    if schema.get("propertyNames"):  # a nested effect or condition: pick a simple one
        simple = "gain_existence" if "gain_existence" in schema["properties"] else None
        simple = simple or ("round_at_least" if "round_at_least" in schema["properties"] else None)
        simple = simple or ("none" if "none" in schema["properties"] else "investigator_killed")
        return {simple: sample(schema["properties"][simple], base, depth + 1)}
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum", 1), schema.get("maximum", 9)
        return 2 if low <= 2 <= high else low
    if kind == "boolean":
        return True
    if kind == "string":
        return "sample-thing"
    if kind == "array":
        n = max(schema.get("minItems", 1), 1)
        return [sample(schema["items"], base, depth + 1) for _ in range(n)]
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        value = {k: sample(v, base, depth + 1) for k, v in props.items()}
        if schema.get("maxProperties") == 1 and value:  # one of several keys
            first = next(iter(value))
            return {first: value[first]}
        if "patternProperties" in schema:
            return {"4": 6, "5": 8}
        return value
    return "sample-thing"


@pytest.mark.parametrize(("vocabulary", "key"), list(_cases()))
def test_every_field_and_value_shows_in_the_words(vocabulary: str, key: str) -> None:
    schema, name, _ = VOCABULARIES[vocabulary]
    body_schema = schema["$defs"][name]["properties"][key]
    body = sample(body_schema, schema)
    full = _words(vocabulary, {key: body})
    assert "unknown" not in full and "cannot be read" not in full and full.strip()
    assert "_" not in full.replace("sample-thing", ""), f"a raw key shows: {full}"
    resolved, base = _resolve(body_schema, schema)
    if isinstance(body, dict):
        required = set(resolved.get("required", ()))
        for prop in body:
            if prop not in required and len(body) > 1:
                without = {k: v for k, v in body.items() if k != prop}
                assert _words(vocabulary, {key: without}) != full, f"{prop} is not described"
        for prop, raw in resolved.get("properties", {}).items():
            sub, _ = _resolve(raw, base)
            if prop in body and isinstance(sub.get("enum"), list) and len(sub["enum"]) > 1:
                seen = {_words(vocabulary, {key: {**body, prop: v}}) for v in sub["enum"]}
                assert len(seen) == len(sub["enum"]), f"values of {prop} read alike"
    elif isinstance(resolved.get("enum"), list) and len(resolved["enum"]) > 1:
        seen = {_words(vocabulary, {key: v}) for v in resolved["enum"]}
        assert len(seen) == len(resolved["enum"]), "values read alike"


def test_the_examples_of_the_issue_read_as_written() -> None:
    test = {"test": {"roll": {"green": ["eye", "eye"]}, "pass": [{"goto": 243}],
                     "fail": [{"goto": 224}]}}
    assert plain(flat((describe_effect(test),))) == (
        "Test green for eye (2 needed). Pass: go to 243. Fail: go to 224.")
    group = {"all_wanderers": [{"take_damage": {"colour": "blue", "amount": 1}}]}
    assert plain(flat((describe_effect(group),))) == "Each living wanderer in turn takes 1 blue damage."

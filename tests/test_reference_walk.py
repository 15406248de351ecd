"""The reference walk (validation/references.py) finds what its plain statement finds.

The walk is tuned for speed (paths as nested pairs, the members of a mapping found by
looking up the fewer of its keys and the names its plan walks); `_stated_walk` below is
the walk as first written: every member of every mapping, every item of every list, in
order. Both must find the same references, in the same order, over every document of
content/ and tests/cases/ and over generated ones.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dmtool.loading import load_text
from dmtool.validation import references
from dmtool.validation.facts import walker_for
from dmtool.validation.references import KEYWORDS, Reference, ReferenceWalker
from dmtool.validation.schemas import SchemaSet, default_schema_dir

ROOT = Path(__file__).resolve().parents[1]


def _stated_walk(plan: Any, data: Any, path: tuple[Any, ...], found: list[Reference]) -> None:
    if isinstance(data, str) and type(data) is str:
        if plan.on_text and data not in KEYWORDS:
            found.extend(Reference(path, kinds, data) for kinds in plan.on_text)
    elif type(data) is dict:
        for properties, additional in plan.on_mapping:
            for key, value in data.items():
                sub = properties.get(key, additional)
                if sub is not None:
                    _stated_walk(sub, value, (*path, key), found)
    elif type(data) is list:
        for items in plan.on_list:
            for index, value in enumerate(data):
                _stated_walk(items, value, (*path, index), found)


def _stated(walker: ReferenceWalker, schemas: SchemaSet, kind: str, data: Any) -> list[Reference]:
    walker.references(kind, data)  # the plans, flattened
    schema_id = schemas.kinds[kind]
    plan = walker._plan(schema_id, schemas.by_id[schema_id])
    found: list[Reference] = []
    if plan is not None:
        _stated_walk(plan, data, (), found)
    return found


@pytest.fixture(scope="module")
def schemas() -> SchemaSet:
    return SchemaSet(default_schema_dir())


def _documents() -> list[Path]:
    return [path for path in sorted((ROOT / "content").rglob("*.yaml"))
            + sorted((ROOT / "tests" / "cases").rglob("*.yaml")) if path.is_file()]


def _load(path: Path) -> Any:
    try:
        document = load_text(path.read_text(encoding="utf-8")).document
    except (OSError, UnicodeDecodeError):
        return None
    return None if document is None else document.data


def test_the_walk_finds_what_its_statement_finds_in_every_document(schemas: SchemaSet) -> None:
    walker = walker_for(schemas)
    walked = 0
    for path in _documents():
        data = _load(path)
        if not (isinstance(data, dict) and isinstance(data.get("kind"), str)
                and walker.knows(data["kind"])):
            continue
        walked += 1
        kind = data["kind"]
        assert walker.references(kind, data) == _stated(walker, schemas, kind, data), path
    assert walked > 100


def _shuffled(data: Any, rng: random.Random) -> Any:
    """The data with every mapping's members in another order (references keep theirs)."""
    if type(data) is dict:
        items = list(data.items())
        rng.shuffle(items)
        return {key: _shuffled(value, rng) for key, value in items}
    if type(data) is list:
        return [_shuffled(item, rng) for item in data]
    return data


_EFFECT_NAMES = ["conclude", "gain_coda", "lose_coda", "choice", "test", "if", "may", "goto",
                 "score", "end", "unlock", "spawn_terror", "gain_condition", "effects",
                 "label", "pass", "fail", "then", "else", "when", "type", "card"]
_LEAF = st.one_of(st.sampled_from(["a-coda", "random", "x", "the-voice"]), st.integers(0, 3))
_EFFECTS = st.recursive(
    _LEAF, lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(_EFFECT_NAMES), inner, max_size=4)), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_EFFECTS, max_size=4), st.integers(0, 2**32))
def test_the_walk_finds_what_its_statement_finds_in_generated_books(
        effects: list[Any], seed: int) -> None:
    schemas = SchemaSet(default_schema_dir())
    walker = walker_for(schemas)
    book = {"kind": "storybook", "id": "b", "wanderer": "w",
            "entries": [{"entry": 1, "kind": "event", "effects": effects, "entrance": effects},
                        {"effects": [{"choice": [{"label": "x", "effects": effects}]}]}],
            "endings": [{"ending": "A", "conclusion": {"effects": effects}}]}
    for data in (book, _shuffled(book, random.Random(seed))):
        assert walker.references("storybook", data) == _stated(walker, schemas, "storybook", data)


def test_a_mapping_with_several_walked_members_is_walked_in_its_order(schemas: SchemaSet) -> None:
    walker = walker_for(schemas)
    effect = {"lose_coda": "b", "goto": 3, "gain_coda": "a", "score": {"A": 1}}
    book = {"kind": "storybook", "id": "b",
            "entries": [{"entry": 1, "effects": [effect, {"gain_coda": "c"}]}]}
    found = walker.references("storybook", book)
    assert [(r.path, r.value) for r in found] == [
        (("entries", 0, "effects", 0, "lose_coda"), "b"),
        (("entries", 0, "effects", 0, "gain_coda"), "a"),
        (("entries", 0, "effects", 1, "gain_coda"), "c")]
    assert found == _stated(walker, schemas, "storybook", book)


def test_paths_as_nested_pairs_stand_for_their_parts() -> None:
    assert references._parts(()) == ()
    assert references._parts(((((), "entries"), 4), "effects")) == ("entries", 4, "effects")

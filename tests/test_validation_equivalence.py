"""jsonschema-rs (the fast screen) and python-jsonschema (the explainer) must agree.

`dmtool check` asks jsonschema-rs whether a document is valid and only asks
python-jsonschema for the errors when it is not. If the two ever disagreed, an invalid
document could pass silently (or a valid one show no message), so every content file, every
case file and many mutated documents are put to both.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmtool.loading import discover, read_document
from dmtool.validation.schemas import SchemaSet, default_schema_dir

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = SchemaSet(default_schema_dir())


def _documents() -> list[tuple[str, str, Any]]:
    files, _ = discover([ROOT / "content", ROOT / "tests" / "cases", ROOT / "tests" / "scenarios"])
    found = []
    for path in files:
        document = read_document(path).document
        if document is None or not isinstance(document.data, dict):
            continue
        kind = document.data.get("kind")
        if isinstance(kind, str) and kind in SCHEMAS.kinds:
            found.append((path.relative_to(ROOT).as_posix(), kind, document.data))
    return found


DOCUMENTS = _documents()


def _agree(kind: str, data: Any) -> None:
    fast = SCHEMAS.screen(kind).is_valid(data)
    slow = not any(True for _ in SCHEMAS.validator(kind).iter_errors(data))
    assert fast == slow, f"jsonschema-rs says valid={fast}, python-jsonschema says valid={slow}"


def test_there_are_documents_of_every_content_kind() -> None:
    kinds = {kind for _, kind, _ in DOCUMENTS}
    assert len(DOCUMENTS) > 100
    assert {"storybook", "wanderer", "chapter", "scenario", "coda"} <= kinds


@pytest.mark.parametrize(("name", "kind", "data"), DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_validators_agree_on_every_file(name: str, kind: str, data: Any) -> None:
    _agree(kind, data)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_paths(value, prefix + (key,)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_paths(value, prefix + (index,)))
    return found


_REPLACEMENTS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.text(max_size=8),
    st.sampled_from(["goto", "red", "hand", "A", "random", "exploration", "x-y"]),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.sampled_from(["goto", "zzz"]), st.integers(0, 3), max_size=1),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choice=st.integers(0, 10**9), replacement=_REPLACEMENTS, mode=st.sampled_from(["replace", "delete", "add"]))
def test_validators_agree_on_mutated_documents(choice: int, replacement: Any, mode: str) -> None:
    _, kind, original = DOCUMENTS[choice % len(DOCUMENTS)]
    data = copy.deepcopy(original)
    paths = [p for p in _paths(data) if p]
    path = paths[(choice // len(DOCUMENTS)) % len(paths)]
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if mode == "replace":
        parent[last] = replacement
    elif mode == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent[f"extra_{last}"] = replacement
    else:
        parent.append(replacement)
    _agree(kind, data)

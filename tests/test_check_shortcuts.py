"""The cold check's shortcuts give what the long ways they replace give.

A modeline's file name without a path object, a wanderer's starting sentience in one
pass over the wanderers, and the screens compiled over one registry of every schema (a
check that forks workers) each have a long form; these tests hold them to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dmtool.loading import read_document
from dmtool.storygraph import context
from dmtool.validation.filecheck import _file_name
from dmtool.validation.schemas import SchemaSet, default_schema_dir

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("modeline", [
    "../schemas/coda.schema.json", "coda.schema.json", "", "/", "a/", "a/.", "a/..", "..",
    ".", "a//b", "a/b/./", "a\\b", "https://x.invalid/y.json", "./", "a/./b", "//", "a/b//"])
def test_a_modelines_file_name_is_its_paths_name(modeline: str) -> None:
    assert _file_name(modeline) == Path(modeline).name


class _Doc:
    def __init__(self, data: Any) -> None:
        self.data = data


class _Corpus:
    def __init__(self, wanderers: list[Any]) -> None:
        self._wanderers = [_Doc(d) for d in wanderers]

    def of_kind(self, kind: str) -> list[_Doc]:
        return self._wanderers if kind == "wanderer" else []


def _long_way(corpus: _Corpus) -> tuple[Any, ...]:
    """What context_for computed before (one pass over the wanderers per wanderer)."""
    return tuple(start for doc in corpus.of_kind("wanderer")
                 if (start := context._sentience(corpus, str(doc.data.get("id")))) is not None)


@pytest.mark.parametrize("wanderers", [
    [],
    [{"id": "a", "dashboard": {"sentience": {"red": 1, "blue": True, "x": "2"}}}],
    [{"id": "a", "dashboard": {"sentience": {"red": 1}}},
     {"id": "a", "dashboard": {"sentience": {"red": 5}}},  # the first of an id wins
     {"id": "b"}, {"id": "c", "dashboard": []}, {"id": "d", "dashboard": {"sentience": 3}},
     {"dashboard": {"sentience": {"red": 2}}},  # no id: str(None)
     {"id": "None", "dashboard": {"sentience": {"green": 4}}},
     {"id": 7, "dashboard": {"sentience": {"red": 9}}},
     {"id": "7", "dashboard": {"sentience": {"red": 8}}}],
])
def test_starting_sentience_in_one_pass(wanderers: list[Any]) -> None:
    corpus = _Corpus(wanderers)
    assert context._sentience_starts(corpus) == _long_way(corpus)


def test_screens_over_one_registry_judge_as_their_own() -> None:
    """Every document of content/ and of the case folders (valid and not), screened by
    the validators compiled over the shared registry and by those of their own."""
    own, shared = SchemaSet(default_schema_dir()), SchemaSet(default_schema_dir())
    shared.before_workers()
    judged = 0
    for path in sorted([*(ROOT / "content").rglob("*.yaml"),
                        *(ROOT / "tests" / "cases").rglob("*.yaml")]):
        document = read_document(path, path.as_posix()).document
        kind = document.data.get("kind") if document is not None and isinstance(
            document.data, dict) else None
        if not isinstance(kind, str) or kind not in own.kinds:
            continue
        assert shared.screen(kind).is_valid(document.data) == own.screen(kind).is_valid(
            document.data), path
        judged += 1
    assert judged > 100
    assert shared.forget_compiled() > 0 and shared._shared_registry is None

"""Every memo read back from the check cache is checked for its whole shape (issue 31).

The reproduction: "a cache file with a valid checksum but a wrong inner shape (one
reference in a facts memo replaced by `{}`) makes `check` exit 2 with `internal error:
ValueError`". A checksum proves only that the file is the one written; what it holds may
come from another version or a bug, so a memo of the wrong shape is a cache miss.
"""

from __future__ import annotations

import marshal
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dmtool.validation.cache import frame, unframe
from dmtool.validation.facts import FACTS_MEMO
from dmtool.validation.pipeline import CheckOptions, run_check

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shapes")
    shutil.copytree(ROOT / "content", root / "content")
    (root / "schemas").symlink_to(ROOT / "schemas")
    return root


@pytest.fixture(scope="module")
def expected(tree: Path) -> list[tuple[str, str, int, int, str]]:
    """The report without the cache, once for every test."""
    return _report(tree, None)


def _report(tree: Path, cache: Path | None) -> list[tuple[str, str, int, int, str]]:
    report = run_check(CheckOptions(paths=(tree / "content",), cache_dir=cache,
                                    schema_dir=tree / "schemas"))
    return sorted((d.code, d.location.path, d.location.line, d.location.column, d.message)
                  for d in report.diagnostics)


def _spoil_cache(cache: Path, spoil: Callable[[dict[str, Any]], int]) -> int:
    """Rewrite the cache file with `spoil` applied (runs dropped, so memos are read), under
    a valid checksum; returns how many memos `spoil` changed."""
    [file] = cache.glob("check-*.cache")
    payload = unframe(file.read_bytes())
    assert payload is not None
    stored = marshal.loads(payload)
    stored["runs"] = {}
    changed = spoil(stored)
    file.write_bytes(frame(marshal.dumps(stored)))
    return changed


def _memos(stored: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(key, record[7]) for key, record in stored["records"].items()]


def _leaves(value: Any, path: tuple[int | str, ...] = ()) -> list[tuple[int | str, ...]]:
    """The paths of the plain values inside a memo (in tuples, lists and dicts' values)."""
    if isinstance(value, (tuple, list)) and value:
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, (*path, i))]
    if isinstance(value, dict) and value:
        return [leaf for k, item in value.items() for leaf in _leaves(item, (*path, k))]
    return [path]


def _replaced(value: Any, path: tuple[int | str, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, tuple):
        assert isinstance(head, int)
        return value[:head] + (_replaced(value[head], rest, new),) + value[head + 1:]
    value[head] = _replaced(value[head], rest, new)
    return value


def test_a_reference_replaced_by_a_mapping_is_a_cache_miss(
        tree: Path, tmp_path: Path, expected: list[tuple[str, str, int, int, str]]) -> None:
    cache = tmp_path / "cache"
    assert _report(tree, cache) == expected

    def spoil(stored: dict[str, Any]) -> int:
        for _, memos in _memos(stored):
            facts = memos.get(FACTS_MEMO)
            if facts and facts[6]:
                memos[FACTS_MEMO] = _replaced(facts, (6, 0), {})
                return 1
        return 0

    assert _spoil_cache(cache, spoil) == 1
    assert _report(tree, cache) == expected


@pytest.mark.parametrize("seed", range(3))
def test_any_value_inside_any_memo_of_the_wrong_type_is_a_cache_miss(
        tree: Path, tmp_path: Path, seed: int,
        expected: list[tuple[str, str, int, int, str]]) -> None:
    """In every memo of every file at once, one value (chosen by a seeded generator) is
    replaced by a container no memo holds there: a mapping, a list or a set."""
    cache = tmp_path / "cache"
    _report(tree, cache)
    rng = random.Random(seed)
    wrong: list[Any] = [{}, [], frozenset({"x"})]

    def spoil(stored: dict[str, Any]) -> int:
        changed = 0
        for _, memos in _memos(stored):
            for key, value in sorted(memos.items()):
                leaves = [leaf for leaf in _leaves(value) if leaf]
                if not leaves:
                    continue
                leaf = leaves[rng.randrange(len(leaves))]
                new = rng.choice([w for w in wrong if type(w) is not type(_at(value, leaf))])
                memos[key] = _replaced(value, leaf, new)
                changed += 1
        return changed

    assert _spoil_cache(cache, spoil) > 100
    assert _report(tree, cache) == expected


def _at(value: Any, path: tuple[int | str, ...]) -> Any:
    for step in path:
        value = value[step]
    return value

"""The fast path (yaml-rs) never changes an answer: same data, same refusals as libyaml's path.

Every file of content/ and tests/, every case of the YAML test suite, and generated
documents are loaded twice, with the fast path and without it; the results must be equal
(data compared with its types: 1, 1.0 and True differ; refusals compared diagnostic by
diagnostic). yaml-rs turns dates into datetimes and accepts anchors: the screens in
dmtool/loading/fast.py keep dmtool's rules, and these tests show they do.
"""

from __future__ import annotations

import copy
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from dmtool.loading import fast, load_text
from dmtool.loading.builder import MAX_DEPTH
from dmtool.loading.reading import decode

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT.parent / "shared" / "yaml-test-suite"
SETTINGS = settings(max_examples=int(os.environ.get("DMTOOL_HYPOTHESIS_EXAMPLES", "300")),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])

pytestmark = pytest.mark.skipif(not fast.ENABLED, reason="yaml-rs is not installed")


def _files() -> list[Path]:
    found = sorted((ROOT / "content").rglob("*.yaml")) + sorted(
        p for p in (ROOT / "tests").rglob("*.yaml") if p.is_file())
    if SUITE.is_dir():
        found += sorted(SUITE.glob("*/in.yaml")) + sorted(SUITE.glob("*/*/in.yaml"))
    return found


def _outcome(text: str) -> Any:
    result = load_text(text, display="f.yaml")
    if result.document is not None:
        data = result.document.data
        return "data", json.dumps(data, sort_keys=False), data
    return "refused", [(d.code, d.location.line, d.location.column, d.message)
                       for d in result.diagnostics]


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, bool]:
    """(outcome with the fast path, outcome without it, whether the fast path took it)."""
    took = fast.fast_data(text)[0]
    quick = _outcome(text)
    with monkeypatch.context() as patch:
        patch.setattr(fast, "ENABLED", False)
        slow = _outcome(text)
    return quick, slow, took


FILES = _files()


@pytest.mark.parametrize("path", FILES, ids=[
    p.relative_to(SUITE if p.is_relative_to(SUITE) else ROOT).as_posix() for p in FILES])
def test_both_paths_agree_on_every_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, _ = decode(path.read_bytes(), path.name)
    if text is None:
        pytest.skip("not text")
    quick, slow, _ = _both(text, monkeypatch)
    assert quick == slow


def test_the_fast_path_takes_almost_all_of_the_content(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted((ROOT / "content").rglob("*.yaml"))
    taken = [p for p in files if fast.fast_data(p.read_text(encoding="utf-8"))[0]]
    assert len(taken) >= 0.9 * len(files), [p.name for p in files if p not in taken][:10]


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: 2001-12-14\n", "a: 1_000\n", "a: 0b101\n",
    "a: .inf\n", "4: x\n", "true: x\n", "null: x\n", "1.5: x\n", "[a, b]: c\n", "? a\n: b\n",
    "a: 1\na: 2\n", "---\na: 1\n---\nb: 2\n", "", "# only\n", "a: 0x_1\n", "a: \"b\"#c\n",
    "a: [-]\n", "{url: http://x}\n", "a:\n\t- b\n", "%YAML 1.2\n---\na: 1\n", "a: -\n",
    "4: x\n\"4\": y\n", "a: " + "[" * 70 + "]" * 70 + "\n", "x: 1e400\n", "x: 0o17\n",
    "a: 1\r\nb: |\r\n  x\r\n  y", "b: |\n  x\n  y", "a: b\x07c\n", "a: \"\x85\"\n",
    "\ufeffid: x\nkind: coda\n", "a: x\ufeffy\n", "a: \"\ufeff\"\n",
])
def test_both_paths_agree_where_they_differ_most(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick, slow, _ = _both(text, monkeypatch)
    assert quick == slow


def test_dates_stay_text_and_integer_keys_become_text(monkeypatch: pytest.MonkeyPatch) -> None:
    quick, _, took = _both("when: 2001-12-14\n4: Penitent Sorrow\n", monkeypatch)
    assert took
    assert quick[2] == {"when": "2001-12-14", "4": "Penitent Sorrow"}


# ---- generated documents: JSON-like data written in every style, and YAML-ish text

_SCALAR_TEXT = st.text(alphabet=st.sampled_from(
    list("ab1 0_-:?#&*!|>'\"%@`.,[]{}~\\/") + ["é", "x"]), max_size=12)
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                     st.floats(allow_nan=False, allow_infinity=False), _SCALAR_TEXT)
_DATA = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_SCALAR_TEXT, inner, max_size=4)), max_leaves=20)


def _dump(data: Any, flow: bool) -> str:
    import io

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()


@SETTINGS
@given(_DATA, st.booleans())
def test_both_paths_agree_on_generated_documents(data: Any, flow: bool) -> None:
    text = _dump({"kind": "coda", "value": data}, flow)
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, slow, _ = _both(text, monkeypatch)
    assert quick == slow


_YAMLISH = st.text(alphabet=st.sampled_from(
    list("ab1 0_-:?[]{},#&*!|>'\"%@`\t\n\r.~\\") + ["é", "\x07", "\x85"]), max_size=80)


@SETTINGS
@given(_YAMLISH)
def test_both_paths_agree_on_yaml_ish_text(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, slow, _ = _both(text, monkeypatch)
    assert quick == slow


@SETTINGS
@given(st.sampled_from(sorted((ROOT / "content").rglob("*.yaml"))), st.integers(0, 10**9),
       st.sampled_from(list(":-#&*!?|>'\"[]{},%@` \n\t0_")))
def test_both_paths_agree_on_edited_content(path: Path, where: int, character: str) -> None:
    text = path.read_text(encoding="utf-8")
    index = where % (len(text) + 1)
    edited = text[:index] + character + text[index:]
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, slow, _ = _both(edited, monkeypatch)
    assert quick == slow


# ---- the walk over the data (fast._plain) against a plain recursive statement of it

def _plain_as_stated(node: Any, level: int = 0) -> bool:
    """What fast._plain decides, node by node: nothing that is a container or a number
    MAX_DEPTH levels down; numbers JSON can hold; keys text, or integers made text (in
    place), no two the same."""
    cls = node.__class__
    if level == MAX_DEPTH:
        return cls not in (dict, list, float, int)
    if cls is float:
        return math.isfinite(node)
    if cls is int:
        return -fast._TOO_LARGE < node < fast._TOO_LARGE
    if cls is dict:
        if not all(key.__class__ in (str, int) for key in node):
            return False
        items = [(str(key), value) for key, value in node.items()]
        if len(dict(items)) != len(items):
            return False
        node.clear()
        node.update(items)
        return all(_plain_as_stated(value, level + 1) for value in node.values())
    if cls is list:
        return all(_plain_as_stated(item, level + 1) for item in node)
    return True


def _agree(data: Any) -> None:
    by_walk, as_stated = copy.deepcopy(data), copy.deepcopy(data)
    took, built = fast._plain(by_walk)
    assert took == _plain_as_stated(as_stated)
    if took:
        assert built is by_walk
        assert repr(by_walk) == repr(as_stated)  # repr tells 1, 1.0 and True apart


_KEYS = st.one_of(_SCALAR_TEXT, st.integers(-5, 5), st.booleans(), st.none(),
                  st.floats(allow_nan=False), st.tuples(st.integers(0, 2)),
                  st.sampled_from([1 << 10000, "4", "-1"]))
_VALUES = st.one_of(_SCALARS, st.floats(), st.sampled_from(
    [1 << 10000, -(1 << 10000), (1 << 10000) - 1, 1 - (1 << 10000)]))
_ANY_DATA = st.recursive(_VALUES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)), max_leaves=25)


@SETTINGS
@given(st.one_of(st.lists(_ANY_DATA, max_size=4), st.dictionaries(_KEYS, _ANY_DATA, max_size=4)))
def test_the_walk_decides_as_stated_on_any_data(data: Any) -> None:
    _agree(data)


def _nested(depth: int, leaf: Any, mapping: bool) -> Any:
    node = leaf
    for level in range(depth):
        node = {f"k{level}": node} if mapping and level % 2 else [node]
    return node


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
@pytest.mark.parametrize("leaf", ["text", True, None, 1, 1.5, [], {}, {4: "x"}])
@pytest.mark.parametrize("mapping", [False, True])
def test_the_walk_decides_as_stated_at_the_greatest_depth(depth: int, leaf: Any,
                                                          mapping: bool) -> None:
    _agree(_nested(depth, leaf, mapping))


def test_the_walk_takes_text_keys_of_a_mapping_that_once_held_another_key() -> None:
    # Such a mapping keeps the general form, whose keys the collector's traversal visits:
    # the count then differs, and the keys are looked at one by one.
    inner: dict[Any, Any] = {1: "gone"}
    del inner[1]
    inner["a"] = [1, {"b": 2.5}]
    _agree({"x": inner, "y": [inner.copy()]})
    assert fast._plain({"x": inner}) == (True, {"x": {"a": [1, {"b": 2.5}]}})


def test_the_walk_makes_integer_keys_text_at_every_level() -> None:
    data = {"a": [{4: "x", "b": {5: {6: "y"}}}], 7: "z"}
    assert fast._plain(data) == (True, {"a": [{"4": "x", "b": {"5": {"6": "y"}}}], "7": "z"})
    assert [key.__class__ for key in data] == [str, str]

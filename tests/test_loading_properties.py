"""Property tests: no input crashes the loader, and JSON-like data survives a YAML round trip."""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from dmtool.loading import load_text, read_document

# Modest by default; DMTOOL_HYPOTHESIS_EXAMPLES=5000 for a long hunt.
SETTINGS = settings(max_examples=int(os.environ.get("DMTOOL_HYPOTHESIS_EXAMPLES", "200")),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text made mostly of YAML punctuation so that the parser's odd corners get exercised.
YAMLISH = st.text(
    alphabet=st.sampled_from(list("ab1 -:?[]{},#&*!|>'\"%@`\t\n\r.~\\") + ["é", "\u2028", "\x85"]),
    max_size=80,
)


def check_outcome(result: Any) -> None:
    if result.document is None:
        assert result.diagnostics
        for diagnostic in result.diagnostics:
            assert diagnostic.location.line >= 1 and diagnostic.location.column >= 1
    else:
        assert result.diagnostics == []
        assert_json(result.document.data)
        # Positions are computed lazily and must exist for every loaded document.
        assert result.document.locate(()).line >= 1


def assert_json(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            assert all(type(k) is str for k in item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            assert item is None or type(item) in (str, int, float, bool)
            assert not (type(item) is float and not math.isfinite(item))


@SETTINGS
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text: str) -> None:
    check_outcome(load_text(text))


@SETTINGS
@given(YAMLISH)
def test_yaml_punctuation_soup_never_crashes(text: str) -> None:
    check_outcome(load_text(text))


@SETTINGS
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash(raw: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.yaml"
        path.write_bytes(raw)
        check_outcome(read_document(path))


# Characters YAML allows in a file unescaped (its c-printable set) plus tab and newline.
# Control characters, unassigned code points and U+2028/U+2029 are left out: the parser
# (libyaml) takes the latter for line breaks, which YAML 1.1 did and 1.2 no longer does.
PRINTABLE = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Cn", "Zl", "Zp")) | (
    st.sampled_from("\t\n"))
STRINGS = st.text(alphabet=PRINTABLE, max_size=30)
JSON_SCALARS = (
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False) | STRINGS
)
JSON_DATA = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(alphabet=PRINTABLE, max_size=12), children, max_size=5),
    max_leaves=30,
)


def _dump_block(data: Any) -> str:
    """Block-style YAML from ruamel.yaml with every string double-quoted.

    Strings are quoted because the question here is whether structure and numbers come
    back intact; which strings may stay plain is a matter of the dumper's own (YAML 1.1
    flavoured) resolver, not of the loader.
    """
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.representer.add_representer(
        str, lambda rep, text: rep.represent_scalar("tag:yaml.org,2002:str", text, style='"'))
    stream = io.StringIO()
    yaml.dump({"value": data}, stream)
    return stream.getvalue()


@SETTINGS
@given(JSON_DATA, st.sampled_from(["json", "json-indented", "block"]))
def test_dumped_json_like_data_loads_back_equal(data: Any, style: str) -> None:
    if style == "block":
        text = _dump_block(data)
    else:  # JSON is YAML 1.2: the loader must read any JSON document as JSON does
        text = json.dumps({"value": data}, ensure_ascii=False,
                          indent=2 if style == "json-indented" else None)
    result = load_text(text)
    assert result.diagnostics == [], text
    assert result.document is not None
    assert result.document.data == {"value": data}


@SETTINGS
@given(YAMLISH)
def test_fast_and_positions_passes_agree_on_any_text(text: str) -> None:
    from dmtool.loading.builder import NeedsPositions, build

    with_positions = build(text, display="f.yaml", positions=True)
    try:
        fast = build(text, display="f.yaml", positions=False)
    except NeedsPositions:
        assert with_positions.diagnostics
        return
    assert with_positions.diagnostics == []
    assert (fast.data, fast.empty) == (with_positions.data, with_positions.empty)

"""The loader against every case of the YAML test suite (shared/yaml-test-suite).

Each case is one test id. An invalid case (an `error` file) must be refused with a
located diagnostic. A valid case must load to exactly its `in.json`, or be refused by
dmtool's content policy (anchors and aliases, tags, several documents, keys JSON cannot
hold, empty files, YAML the parser would misread). The parser, libyaml, predates
YAML 1.2 and refuses a number of exotic but valid constructs with a syntax error
(DM001); those cases are listed below, by reason, and the list is checked both ways so
that it never hides a new failure nor keeps a case that has started to pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dmtool.loading import read_document

SUITE = Path(__file__).resolve().parents[2] / "shared" / "yaml-test-suite"
POLICY_CODES = {"DM003", "DM005", "DM006", "DM011", "DM012", "DM020"}

_TABS = "tabs used as separation or after indentation, which YAML 1.2 allows"
_FLOW = "':', '?' and '%' edge cases in flow collections (adjacent values, URLs, multi-line keys)"
_EMPTY_KEY = "mappings with empty keys (which dmtool refuses anyway: DM012)"
_ANCHOR = "anchor names with ':' or non-ASCII letters (which dmtool refuses anyway: DM003)"
_DIRECTIVE = "reserved directives and YAML versions other than 1.1 and 1.2"
_DOCUMENT = "bare documents after '...' and documents ending right after '...'"
_ZERO_INDENT = "top-level block scalars whose text starts in column 1"
_TAG = "a tag directly followed by ',' in a flow collection (refused anyway: DM011)"

# Valid YAML 1.2 that libyaml refuses with a syntax error (DM001), and why.
KNOWN_PARSER_REFUSALS: dict[str, str] = {
    **dict.fromkeys(["6BCT", "6CA3", "96NN/00", "96NN/01", "A2M4", "DK95/00", "DK95/03",
                     "DK95/04", "Q5MG", "R4YG", "Y79Y/001", "Y79Y/010"], _TABS),
    **dict.fromkeys(["4ABK", "4MUZ/00", "4MUZ/01", "4MUZ/02", "58MP", "5MUD", "5T43", "9SA2",
                     "CFD4", "DBG4", "FRK4", "HM87/00", "JR7V", "K3WX", "M2N8/00", "NJ66",
                     "UDM2", "UKK6/00", "UT92", "VJP3/01"], _FLOW),
    **dict.fromkeys(["2JQS", "NHX8", "NKF9", "S3PD", "SM9W/01"], _EMPTY_KEY),
    **dict.fromkeys(["2SXE", "6M2F", "8XYN", "W5VH"], _ANCHOR),
    **dict.fromkeys(["2LFX", "6LVF", "BEC7", "MUS6/05", "MUS6/06"], _DIRECTIVE),
    **dict.fromkeys(["7Z25", "HWV9", "M7A3", "QT73", "W4TN"], _DOCUMENT),
    **dict.fromkeys(["DK3J", "FP8R"], _ZERO_INDENT),
    "WZ62": _TAG,
}


def _cases() -> list[tuple[str, Path]]:
    if not SUITE.is_dir():
        return []
    found: list[tuple[str, Path]] = []
    for in_yaml in sorted(SUITE.glob("*/in.yaml")) + sorted(SUITE.glob("*/*/in.yaml")):
        case = in_yaml.parent
        found.append((case.relative_to(SUITE).as_posix(), case))
    return sorted(found)


CASES = _cases()
needs_suite = pytest.mark.skipif(
    not CASES, reason=f"the YAML test suite is not at {SUITE} (it ships in shared/ beside the "
    "repository)")


def _json_documents(text: str) -> list[Any]:
    """in.json holds one JSON value per YAML document, written one after another."""
    decoder, position, documents = json.JSONDecoder(), 0, []
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return documents
        value, position = decoder.raw_decode(text, position)
        documents.append(value)


@needs_suite
@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[c for c, _ in CASES])
def test_yaml_test_suite_case(case_id: str, case: Path) -> None:
    result = read_document(case / "in.yaml", case_id)  # must never raise
    for diagnostic in result.diagnostics:
        assert diagnostic.location.line >= 1 and diagnostic.location.column >= 1
        assert diagnostic.location.path == case_id
    codes = {d.code for d in result.diagnostics}
    if (case / "error").exists():
        assert result.document is None, "invalid YAML was accepted"
        assert result.diagnostics
        return
    if result.document is not None:
        assert (case / "in.json").exists(), "loaded a case that has no JSON form"
        assert _json_documents((case / "in.json").read_text(encoding="utf-8")) == [
            result.document.data]
        assert case_id not in KNOWN_PARSER_REFUSALS, "now loads: remove it from the list"
        return
    if "DM001" in codes:
        assert case_id in KNOWN_PARSER_REFUSALS, (
            f"valid YAML refused as a syntax error: {result.diagnostics[0].message}")
    else:
        assert case_id not in KNOWN_PARSER_REFUSALS, "no longer a syntax error: update the list"
        assert codes <= POLICY_CODES, codes


@needs_suite
def test_every_known_refusal_names_a_valid_case() -> None:
    valid = {case_id for case_id, case in CASES if not (case / "error").exists()}
    assert set(KNOWN_PARSER_REFUSALS) <= valid

"""The loader against every case of the YAML test suite (shared/yaml-test-suite).

Each case is one test id. An invalid case (an `error` file) must be refused with a
located diagnostic. A valid case must load to exactly its `in.json`, or be refused by
dmtool's content policy (anchors and aliases, tags, several documents, keys JSON cannot
hold, empty files, YAML the parser would misread). libyaml predates YAML 1.2 and
refuses a number of valid constructs; dmtool then reads the file with ruamel.yaml's
pure Python parser, which accepts most of them (`{url: http://x}` among them). What
both refuse with a syntax error (DM001) is listed below, by reason, and the list is
checked both ways so that it never hides a new failure nor keeps a case that has
started to pass. The README names these forms.
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
_FLOW = ("flow mapping keys that span lines or whose ':' is on the next line, and empty "
         "keys in flow sequences ('[ : x ]'; dmtool refuses empty keys anyway: DM012)")
_COLON_KEY = ("':' at the end of plain text before ',' in a flow collection, a key in YAML "
              "1.2 (refused on purpose: S6 in strict.py)")
_DIRECTIVE = "a %YAML directive of a version other than 1.1 and 1.2"
_DOCUMENT = "a stream of only '...' (with or without a comment): no document at all"
_TAG = "a tag directly followed by ',' in a flow collection (refused anyway: DM011)"

# Valid YAML 1.2 that both parsers refuse with a syntax error (DM001), and why: libyaml
# first, then ruamel.yaml's pure parser for what libyaml refused (document.py, _build).
KNOWN_PARSER_REFUSALS: dict[str, str] = {
    **dict.fromkeys(["6BCT", "6CA3", "A2M4", "DK95/00", "DK95/03", "DK95/04", "Q5MG", "R4YG",
                     "Y79Y/010"], _TABS),
    **dict.fromkeys(["4MUZ/00", "4MUZ/01", "4MUZ/02", "5MUD", "9SA2", "CFD4", "K3WX", "NJ66",
                     "UT92", "VJP3/01"], _FLOW),
    "4ABK": _COLON_KEY,
    **dict.fromkeys(["BEC7"], _DIRECTIVE),
    **dict.fromkeys(["HWV9", "QT73"], _DOCUMENT),
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

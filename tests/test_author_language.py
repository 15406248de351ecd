"""Locations name the author's things; the JSON pointer stays a field of its own for tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.diagnostics.subjects import flow, subject, where

BOOK = {
    "entries": [{"entry": 116, "effects": []},
                {"entry": 117, "effects": [{"if": {"then": [{"goto": 3}]}}]}],
    "endings": [{"ending": "D", "conclusions": [{"entry": 410}, {"entry": 411, "legacy": "x"}]}],
    "cards": [{"id": "the-sluice-key", "title": "The Sluice Key"}],
}


@pytest.mark.parametrize(("parts", "named", "placed"), [
    ((), "the document", "the document"),
    (("entries", 1), "entry 117", "entry 117"),
    (("entries", 1, "effects", 0, "if", "then", 0, "goto"), "entry 117", "'goto' in entry 117"),
    (("entries", 1, "effects", 0, "if", "then", 0), "entry 117", "item 1 of 'then' in entry 117"),
    (("endings", 0, "conclusions", 1, "legacy"), "ending D's conclusion 411",
     "'legacy' in ending D's conclusion 411"),
    (("cards", 0, "title"), "'the-sluice-key'", "'title' in 'the-sluice-key'"),
    (("entries", 9, "entry"), "the document", "'entry'"),  # a path that is not there
])
def test_places_are_named_as_the_author_names_them(parts: tuple, named: str, placed: str) -> None:
    assert (subject(BOOK, parts), where(BOOK, parts)) == (named, placed)


def test_values_are_shown_as_yaml_not_python() -> None:
    assert flow({"mara": {"red": ["hand"]}, "note": "a: b", "n": None}) == \
        '{mara: {red: [hand]}, note: "a: b", n: null}'


def test_json_and_sarif_keep_the_pointer_beside_the_name(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    case = Path(__file__).parent / "cases" / "DM301-goto"
    monkeypatch.chdir(case)
    report = json.loads(CliRunner().invoke(cli, ["check", ".", "--no-cache", "--format", "json"]).stdout)
    [broken] = [d for d in report["diagnostics"] if d["code"] == "DM301"]
    assert broken["pointer"].startswith("/entries/") and broken["subject"].endswith("in entry 2")
    assert "entries[" not in broken["message"] and "entry 2 goes to entry 999" in broken["message"]
    sarif = json.loads(CliRunner().invoke(cli, ["check", ".", "--no-cache", "--format", "sarif"]).stdout)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "DM301"]
    [logical] = result["locations"][0]["logicalLocations"]
    assert logical == {"fullyQualifiedName": broken["pointer"], "name": broken["subject"]}

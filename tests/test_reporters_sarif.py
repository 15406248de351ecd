"""The sarif reporter: valid against the OASIS SARIF 2.1.0 schema, rules and results agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

from dmtool.diagnostics import Location, Report, Severity, catalogue, diagnose
from dmtool.reporters import render
from dmtool.reporters.sarif import SRCROOT, artifact_location

SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "sarif" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator() -> Draft4Validator:
    if not SCHEMA.is_file():
        pytest.skip(f"the SARIF 2.1.0 schema is not available at {SCHEMA}")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)


def sample() -> Report:
    report = Report(files_checked=3)
    report.extend([
        diagnose(
            "DM202",
            Location("content/wanderers/ilse marrow.yaml", 5, 12, "/storybook", 5, 31),
            "Storybook {ashes} does not exist; name an existing storybook.",
            hint="did you mean 'ashes-of-the-lantern'?",
            related=(Location("content/books/ashes.yaml", 2, 5, "/id"), Location("x.yaml")),
        ),
        diagnose("DM102", Location("./content/a.yaml", 8, 3, "/colour"), "Remove 'colour'."),
        diagnose("DM001", Location("/abs/path/b.yaml", 1, 7), "Close the bracket."),
        diagnose("DM017", Location("c.yaml"), "Add a modeline.", severity=Severity.INFO),
    ])
    return report


def sarif(report: Report, **options) -> dict:
    return json.loads(render(report, fmt="sarif", color=False, tool_version="0.1.0", **options))


def test_valid_against_the_schema(validator: Draft4Validator):
    for report in (sample(), Report()):
        log = sarif(report)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)
    assert validator.is_valid(sarif(sample(), docs_url="https://docs.example/#{code}"))


def test_the_schema_check_can_fail(validator: Draft4Validator):
    log = sarif(sample())
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert not validator.is_valid(log)


def test_log_run_and_driver():
    log = sarif(sample())
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "dmtool" and driver["version"] == "0.1.0"
    assert driver["informationUri"].startswith("https://")
    assert run["columnKind"] == "unicodeCodePoints"


def test_every_catalogue_code_is_a_rule():
    rules = sarif(Report())["runs"][0]["tool"]["driver"]["rules"]
    codes = catalogue()
    assert [r["id"] for r in rules] == list(codes)
    for rule in rules:
        info = codes[rule["id"]]
        assert rule["name"] == info.name
        assert rule["shortDescription"] == {"text": info.title}
        assert rule["fullDescription"] == {"text": info.description}
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert info.description in rule["help"]["text"]


def test_results_point_at_their_rules_and_places():
    run = sarif(sample())["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert list(by_rule) == ["DM102", "DM001", "DM017", "DM202"]  # sorted by path
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert by_rule["DM017"]["level"] == "note"
    ref = by_rule["DM202"]
    physical = ref["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {
        "uri": "content/wanderers/ilse%20marrow.yaml",
        "uriBaseId": SRCROOT,
    }
    assert physical["region"] == {"startLine": 5, "startColumn": 12, "endLine": 5, "endColumn": 31}
    assert ref["message"]["text"] == (
        "Storybook {{ashes}} does not exist; name an existing storybook.\n"
        "Hint: did you mean 'ashes-of-the-lantern'?"
    )
    related = ref["relatedLocations"]
    assert [r["id"] for r in related] == [0, 1]
    assert related[0]["physicalLocation"]["artifactLocation"]["uri"] == "content/books/ashes.yaml"
    assert related[0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 5}


def test_artifact_locations():
    assert artifact_location("./content/a.yaml") == {"uri": "content/a.yaml", "uriBaseId": SRCROOT}
    assert artifact_location("/abs/b.yaml") == {"uri": "file:///abs/b.yaml"}
    assert artifact_location("C:\\work\\c.yaml") == {"uri": "file:///C:/work/c.yaml"}
    assert artifact_location("odd%#?.yaml")["uri"] == "odd%25%23%3F.yaml"


def test_help_uri_with_a_template():
    rules = sarif(Report(), docs_url="https://docs.example/#{code}")["runs"][0]["tool"]["driver"]
    assert rules["rules"][0]["helpUri"] == "https://docs.example/#" + rules["rules"][0]["id"]

"""The json reporter: every field, stable order, summary, optional documentation links."""

from __future__ import annotations

import json

from dmtool.diagnostics import Location, Report, Severity, catalogue, diagnose
from dmtool.reporters import render

FIELDS = [
    "code", "name", "severity", "message", "path", "line", "column", "end_line",
    "end_column", "pointer", "subject", "hint", "related", "title",
]


def sample() -> Report:
    report = Report(files_checked=4)
    report.extend([
        diagnose(
            "DM202",
            Location("wanderers/ilse.yaml", 7, 12, "/storybook", end_line=7, end_column=30,
                     subject="the document"),
            "The wanderer names storybook 'ashes-of-the-lanter', which does not exist.",
            hint="did you mean 'ashes-of-the-lantern'?",
            related=(Location("books/ashes.yaml", 3, 5, "/id"),),
        ),
        diagnose("DM001", Location("bad.yaml", 2, 1), "Close the flow sequence — «here»."),
        diagnose("DM017", Location("bad.yaml", 1, 1), "Add a modeline.", severity=Severity.INFO),
    ])
    return report


def as_json(report: Report, **options) -> dict:
    return json.loads(render(report, fmt="json", color=True, tool_version="0.1.0", **options))


def test_top_level_and_summary():
    data = as_json(sample())
    assert list(data) == ["version", "summary", "diagnostics"]
    assert data["version"] == "0.1.0"
    assert data["summary"] == {"errors": 2, "warnings": 0, "infos": 1, "files": 4}


def test_every_field_in_order_with_values():
    data = as_json(sample())
    assert [d["path"] for d in data["diagnostics"]] == [
        "bad.yaml", "bad.yaml", "wanderers/ilse.yaml",
    ]
    for entry in data["diagnostics"]:
        assert list(entry) == FIELDS
    ref = data["diagnostics"][2]
    info = catalogue()["DM202"]
    assert ref == {
        "code": "DM202",
        "name": info.name,
        "severity": "error",
        "message": "The wanderer names storybook 'ashes-of-the-lanter', which does not exist.",
        "path": "wanderers/ilse.yaml",
        "line": 7,
        "column": 12,
        "end_line": 7,
        "end_column": 30,
        "pointer": "/storybook",
        "subject": "the document",
        "hint": "did you mean 'ashes-of-the-lantern'?",
        "related": [{"path": "books/ashes.yaml", "line": 3, "column": 5, "pointer": "/id",
                     "subject": None}],
        "title": info.title,
    }
    note = data["diagnostics"][0]
    assert note["severity"] == "info" and note["hint"] is None and note["related"] == []
    assert note["end_line"] is None and note["end_column"] is None
    assert note["subject"] is None  # a location with no place inside the document


def test_output_is_ascii_and_round_trips_unicode():
    out = render(sample(), fmt="json", color=False, tool_version="0.1.0")
    assert out.isascii()
    assert "\x1b" not in out  # colour never applies to json
    assert json.loads(out)["diagnostics"][1]["message"].endswith("— «here».")


def test_urls_only_with_a_template():
    plain = as_json(sample())
    assert all("url" not in d for d in plain["diagnostics"])
    linked = as_json(sample(), docs_url="https://docs.example/diagnostics/#{code}-{name}")
    first = linked["diagnostics"][0]
    assert list(first) == [*FIELDS, "url"]
    assert first["url"] == "https://docs.example/diagnostics/#DM017-missing-modeline"


def test_same_report_same_bytes():
    assert render(sample(), fmt="json", color=False, tool_version="1") == render(
        sample(), fmt="json", color=False, tool_version="1"
    )


def test_empty_report():
    assert as_json(Report(files_checked=0)) == {
        "version": "0.1.0",
        "summary": {"errors": 0, "warnings": 0, "infos": 0, "files": 0},
        "diagnostics": [],
    }

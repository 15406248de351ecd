"""The sarif reporter: a SARIF 2.1.0 log with one run, every catalogue code as a rule."""

from __future__ import annotations

import json
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from dmtool.diagnostics import CodeInfo, Diagnostic, Location, Report, Severity, catalogue
from dmtool.reporters._common import code_url

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
# Where people learn about the tool; SARIF viewers link the tool name to it.
INFORMATION_URI = "https://pypi.org/project/dmtool/"
SRCROOT = "%SRCROOT%"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render(report: Report, *, color: bool, tool_version: str, docs_url: str | None = None) -> str:
    """The report as a SARIF log, ready for code-scanning upload."""
    del color
    codes = catalogue()
    index = {code: i for i, code in enumerate(codes)}
    run = {
        "tool": {
            "driver": {
                "name": "dmtool",
                "version": tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(info, docs_url) for info in codes.values()],
            }
        },
        # dmtool counts columns in characters, not in UTF-16 units (the SARIF default).
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index) for d in report.sorted()],
    }
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=True) + "\n"


def _rule(info: CodeInfo, template: str | None) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": info.code,
        "name": info.name,
        "shortDescription": {"text": info.title},
        "fullDescription": {"text": info.description},
        "defaultConfiguration": {"level": _LEVEL[info.severity]},
        "help": {"text": _help(info)},
    }
    url = code_url(template, info.code)
    if url is not None:
        rule["helpUri"] = url
    return rule


def _help(info: CodeInfo) -> str:
    """The description, the example and how it is fixed (as `dmtool explain` shows them)."""
    text = f"{info.description}\n\nExample:\n{info.example}"
    if info.fixed is not None:
        text += f"\nFixed:\n{info.fixed or '(delete those lines)'}"
    return text


def _result(diagnostic: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    text = diagnostic.message
    if diagnostic.hint:
        text = f"{text}\nHint: {diagnostic.hint}"
    result: dict[str, Any] = {"ruleId": diagnostic.code}
    if diagnostic.code in index:
        result["ruleIndex"] = index[diagnostic.code]
    result["level"] = _LEVEL[diagnostic.severity]
    result["message"] = {"text": _message_text(text)}
    result["locations"] = [_location(diagnostic.location)]
    if diagnostic.related:
        result["relatedLocations"] = [
            {**_location(loc), "id": i, "message": {"text": "Related location."}}
            for i, loc in enumerate(diagnostic.related)
        ]
    if diagnostic.hint:
        result["properties"] = {"hint": diagnostic.hint}
    return result


def _location(loc: Location) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(loc.line, 1), "startColumn": max(loc.column, 1)}
    if loc.end_line is not None:
        region["endLine"] = max(loc.end_line, region["startLine"])
    if loc.end_column is not None:
        same_line = region.get("endLine", region["startLine"]) == region["startLine"]
        # On one line the end may not precede the start; an equal one marks an empty span.
        region["endColumn"] = max(loc.end_column, region["startColumn"] if same_line else 1)
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": artifact_location(loc.path), "region": region}
    }
    if loc.pointer:
        # The place inside the document: the author's name for it, and the JSON pointer for
        # tools (also kept as a property, where earlier versions put it).
        logical: dict[str, str] = {"fullyQualifiedName": loc.pointer}
        if loc.subject:
            logical["name"] = loc.subject
        location["logicalLocations"] = [logical]
        location["properties"] = {"pointer": loc.pointer}
    return location


def artifact_location(path: str) -> dict[str, str]:
    """A relative POSIX path as a URI under %SRCROOT%; an absolute path as a file: URI."""
    windows = PureWindowsPath(path)
    if windows.is_absolute():
        return {"uri": windows.as_uri()}
    if PurePosixPath(path).is_absolute():
        return {"uri": PurePosixPath(path).as_uri()}
    posix = path
    while posix.startswith("./"):
        posix = posix[2:]
    return {"uri": quote(posix, safe="/"), "uriBaseId": SRCROOT}


def _message_text(text: str) -> str:
    # SARIF message strings reserve braces for {0}-style placeholders; literal ones are doubled.
    return text.replace("{", "{{").replace("}", "}}")

"""The json reporter: one document with a summary and every diagnostic, all fields, stable order."""

from __future__ import annotations

import json
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, Report
from dmtool.reporters._common import code_info, code_url, summarize


def render(report: Report, *, color: bool, tool_version: str, docs_url: str | None = None) -> str:
    """The report as indented JSON. Keys keep the documented order; diagnostics are sorted."""
    del color  # machine output is never coloured
    diagnostics = report.sorted()
    summary = summarize(diagnostics, files=report.files_checked)
    document = {
        "version": tool_version,
        "summary": {
            "errors": summary.errors,
            "warnings": summary.warnings,
            "infos": summary.infos,
            "files": summary.files,
        },
        "diagnostics": [_entry(d, docs_url) for d in diagnostics],
    }
    # ASCII escapes keep the output writable to any stream, even for odd content strings.
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"


def _entry(diagnostic: Diagnostic, template: str | None) -> dict[str, Any]:
    loc = diagnostic.location
    info = code_info(diagnostic.code)
    entry: dict[str, Any] = {
        "code": diagnostic.code,
        "name": info.name if info else None,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "path": loc.path,
        "line": loc.line,
        "column": loc.column,
        "end_line": loc.end_line,
        "end_column": loc.end_column,
        "pointer": loc.pointer,
        "subject": loc.subject or None,
        "hint": diagnostic.hint,
        "related": [_related(r) for r in diagnostic.related],
        "title": info.title if info else None,
    }
    url = code_url(template, diagnostic.code)
    if url is not None:
        entry["url"] = url
    return entry


def _related(loc: Location) -> dict[str, Any]:
    return {"path": loc.path, "line": loc.line, "column": loc.column, "pointer": loc.pointer,
            "subject": loc.subject or None}

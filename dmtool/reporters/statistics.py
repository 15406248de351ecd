"""`dmtool check --statistics`: how many diagnostics of each code, instead of the listing."""

from __future__ import annotations

import json
from collections import Counter

from dmtool.diagnostics import Report
from dmtool.reporters._common import code_info, summarize
from dmtool.reporters.text import summary_of


def render_statistics(report: Report, *, fmt: str) -> str:
    """One line per code (most frequent first), then the usual summary; JSON on request."""
    diagnostics = report.sorted()
    counts = Counter(d.code for d in diagnostics)
    severity = {d.code: d.severity.value for d in diagnostics}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if fmt == "json":
        return json.dumps([{"code": code, "name": _name(code), "severity": severity[code],
                            "count": count} for code, count in rows], indent=2) + "\n"
    width = max((len(str(count)) for _, count in rows), default=1)
    lines = [f"{count:>{width}}  {code}  {severity[code]:<7}  {_name(code)}" for code, count in rows]
    lines.append(summary_of(summarize(diagnostics, files=report.files_checked)))
    return "\n".join(lines) + "\n"


def _name(code: str) -> str:
    info = code_info(code)
    return info.name if info is not None else ""

"""Rendering fixture results as text: progress, failures with diffs, event logs, summary."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from dmtool.scenarios.runner import FixtureResult

MARKS = {"passed": ".", "failed": "F", "error": "E", "skipped": "s"}
WIDTH = 72


def mark(result: FixtureResult) -> str:
    return MARKS[result.status]


def failure_section(result: FixtureResult, *, log_tail: int = 25) -> str:
    """The block shown for a failed fixture: a header, each diagnostic, the last events."""
    lines = [f"{'_' * 8} {result.id} ({result.path}) {'_' * 8}"]
    for d in result.diagnostics:
        message = d.message.replace("\n", "\n    ")
        lines.append(f"{d.location}: {d.severity.value} {d.code} {message}")
        if d.hint:
            lines.append("    hint: " + d.hint.strip().replace("\n", "\n    "))
    if result.log and log_tail:
        lines.append(f"  last events (of {len(result.log)}):")
        lines.extend("    " + line for line in event_lines(result.log[-log_tail:]))
    return "\n".join(lines)


def event_lines(log: Iterable[dict[str, Any]]) -> list[str]:
    out = []
    for event in log:
        rest = {k: v for k, v in event.items() if k not in ("step", "event")}
        args = " ".join(f"{k}={_short(v)}" for k, v in rest.items() if v not in (None, [], {}))
        out.append(f"step {event.get('step', '-'):>2}  {event.get('event')}  {args}".rstrip())
    return out


def _short(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def explain_section(result: FixtureResult) -> str:
    head = f"--- event log: {result.id} ({result.path}), {len(result.log)} events"
    return "\n".join([head, *("  " + line for line in event_lines(result.log))])


def summary_line(results: list[FixtureResult]) -> str:
    passed = sum(r.status == "passed" for r in results)
    failed = sum(r.status in ("failed", "error") for r in results)
    skipped = sum(r.status == "skipped" for r in results)
    line = f"{passed} passed, {failed} failed"
    return line + (f", {skipped} skipped" if skipped else "")


def to_json(results: list[FixtureResult], *, uncovered: list[str] | None,
            problems: list[str] | None = None) -> str:
    return json.dumps({
        "summary": summary_line(results),
        "problems": problems or [],
        "results": [{
            "id": r.id, "path": r.path, "status": r.status, "rules": r.rules,
            "skip_reason": r.skip_reason,
            "diagnostics": [{"code": d.code, "severity": d.severity.value, "message": d.message,
                             "path": d.location.path, "line": d.location.line,
                             "column": d.location.column} for d in r.diagnostics],
            "events": r.log,
        } for r in results],
        "uncovered_rules": uncovered,
    }, indent=2)

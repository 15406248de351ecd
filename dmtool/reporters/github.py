"""The github reporter: one workflow command per diagnostic, shown as a file annotation."""

from __future__ import annotations

from dmtool.diagnostics import Diagnostic, Report, Severity
from dmtool.reporters._common import clean_text, code_info

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def render(report: Report, *, color: bool, tool_version: str, docs_url: str | None = None) -> str:
    """`::error file=...,line=...::message` lines; nothing at all for a clean report."""
    del color, tool_version, docs_url  # annotations carry none of these
    return "".join(_command(d) + "\n" for d in report.sorted())


def escape_data(text: str) -> str:
    """Escape a command's message the way the Actions runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value, where ':' and ',' would end the value early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(diagnostic: Diagnostic) -> str:
    loc = diagnostic.location
    info = code_info(diagnostic.code)
    title = f"{diagnostic.code} {info.title}" if info else diagnostic.code
    properties = [("file", loc.path), ("line", str(loc.line)), ("col", str(loc.column))]
    if loc.end_line is not None:
        properties.append(("endLine", str(loc.end_line)))
    if loc.end_column is not None:
        properties.append(("endColumn", str(loc.end_column)))
    properties.append(("title", _plain(title)))
    # The file property stays exact (escaped only) so the annotation lands on the real file.
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{_COMMAND[diagnostic.severity]} {rendered}::{escape_data(_message(diagnostic))}"


def _message(diagnostic: Diagnostic) -> str:
    parts = [_plain(diagnostic.message)]
    if diagnostic.hint:
        parts.append("hint: " + _plain(diagnostic.hint))
    parts.extend(f"related: {_plain(str(r))}" for r in diagnostic.related)
    return "\n".join(parts)


def _plain(text: str) -> str:
    # The runner only unescapes %, CR, LF, ':' and ','; any other control character would
    # reach the annotation raw (an ESC could restyle a log), so it is made visible instead.
    return clean_text(text, keep_newlines=True)

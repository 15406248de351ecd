"""The text reporter: ruff-like blocks with a source excerpt, and a closing summary line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dmtool.diagnostics import Diagnostic, Location, Report, Severity
from dmtool.reporters._common import Summary, clean_text, plural, summarize

if TYPE_CHECKING:
    from dmtool.reporters._excerpt import SourceLines

_RESET = "\x1b[0m"
_SEVERITY_STYLE = {
    Severity.ERROR: "\x1b[1;31m",
    Severity.WARNING: "\x1b[1;33m",
    Severity.INFO: "\x1b[1;36m",
}
_BOLD = "\x1b[1m"
_GUTTER = "\x1b[1;34m"
_NOTE = "\x1b[1;36m"
_PASSED = "\x1b[1;32m"
# Continuation lines of a multi-line message are indented so that no line but the first
# can be mistaken for a diagnostic header by tools that grep the output.
_CONTINUATION = "    "


@dataclass(frozen=True, slots=True)
class _Style:
    """Wraps pieces in ANSI escapes when colour is on; an identity otherwise."""

    color: bool

    def paint(self, text: str, escape: str) -> str:
        return f"{escape}{text}{_RESET}" if self.color and text else text

    def severity(self, severity: Severity, text: str | None = None) -> str:
        return self.paint(severity.value if text is None else text, _SEVERITY_STYLE[severity])


def render(report: Report, *, color: bool, tool_version: str, docs_url: str | None = None) -> str:
    """Every diagnostic as a block, blank lines between, then the summary line."""
    del tool_version, docs_url  # the text format shows neither
    blocks = render_blocks(report, color=color)
    return (blocks + "\n\n" if blocks else "") + summary_line(report, color=color) + "\n"


def render_blocks(report: Report, *, color: bool) -> str:
    """Every diagnostic as a block, blank lines between, without the summary line."""
    if not report.diagnostics:
        return ""
    # Imported here, not above: a clean run (a one-file pre-commit check, P3) prints only
    # the summary line, and the excerpts' module costs 1% of such a run to import.
    from dmtool.reporters._excerpt import SourceLines

    style = _Style(color)
    sources = SourceLines(report.sources)
    return "\n\n".join(_block(d, sources, style) for d in report.sorted())


def summary_line(report: Report, *, color: bool) -> str:
    """'Found 1 error, 0 warnings, 0 infos in 12 files.' or 'All checks passed (12 files).'"""
    return _summary(summarize(report.sorted(), files=report.files_checked), _Style(color))


def _block(diagnostic: Diagnostic, sources: SourceLines, style: _Style) -> str:
    loc = diagnostic.location
    first, *rest = clean_text(diagnostic.message).split("\n")
    header = (
        f"{style.paint(_place(loc), _BOLD)}: {style.severity(diagnostic.severity)} "
        f"{style.paint(diagnostic.code, _BOLD)} {first}"
    ).rstrip()
    lines = [header, *(_CONTINUATION + more for more in rest)]
    gutter = 1
    source_line = sources.line(loc.path, loc.line)
    if source_line is not None:
        gutter = len(str(loc.line))
        lines.extend(_excerpt_lines(diagnostic, source_line, gutter, style))
    indent = " " * (gutter + 1)
    if diagnostic.hint:
        lines.extend(_note("hint", diagnostic.hint, indent, style))
    for related in diagnostic.related:
        lines.extend(_note("related", _place(related), indent, style))
    return "\n".join(lines)


def _excerpt_lines(diagnostic: Diagnostic, text: str, gutter: int, style: _Style) -> list[str]:
    from dmtool.reporters._excerpt import excerpt  # loaded by render_blocks already

    loc = diagnostic.location
    same_line = loc.end_line is None or loc.end_line == loc.line
    shown = excerpt(text, column=loc.column, end_column=loc.end_column if same_line else None)
    bar = style.paint(" " * gutter + " |", _GUTTER)
    number = style.paint(f"{loc.line:>{gutter}} |", _GUTTER)
    carets = style.severity(diagnostic.severity, "^" * shown.caret_width)
    return [
        bar,
        f"{number} {shown.text}" if shown.text else number,
        f"{bar} {' ' * shown.caret_start}{carets}",
    ]


def _note(label: str, text: str, indent: str, style: _Style) -> list[str]:
    first, *rest = clean_text(text).split("\n")
    continuation = indent + " " * (len(label) + 4)  # under the text after "= label: "
    return [
        f"{indent}{style.paint('= ' + label + ':', _NOTE)} {first}".rstrip(),
        *(continuation + more for more in rest),
    ]


def _place(loc: Location) -> str:
    return f"{clean_text(loc.path, keep_newlines=False)}:{loc.line}:{loc.column}"


def _summary(summary: Summary, style: _Style) -> str:
    files = plural(summary.files, "file")
    if summary.total == 0:
        return style.paint(f"All checks passed ({files}).", _PASSED)
    counts = ", ".join(
        (
            plural(summary.errors, "error"),
            plural(summary.warnings, "warning"),
            plural(summary.infos, "info"),
        )
    )
    return style.paint(f"Found {counts} in {files}.", _BOLD)


def summary_of(summary: Summary) -> str:
    """The closing 'Found ...' (or 'All checks passed') line, without colour."""
    return _summary(summary, _Style(False))

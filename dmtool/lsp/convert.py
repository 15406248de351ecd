"""dmtool's values as LSP values: paths and URIs, 1-based locations and 0-based ranges.

dmtool counts columns in characters; LSP counts them in UTF-16 code units (the default
position encoding), so a line's text is needed to convert one into the other.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types

from dmtool.diagnostics import Diagnostic, Location, Severity
from dmtool.lsp.lines import line_index

SOURCE = "dmtool"
_TOKEN = re.compile(r"""[\w.'"-]+|.""")
SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def path_of(uri: str) -> Path | None:
    """The file a `file:` URI names; None for other schemes (unsaved buffers, diffs)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def uri_of(path: Path) -> str:
    return path.absolute().as_uri()


def utf16_column(line_text: str, column: int) -> int:
    """A 0-based character column as UTF-16 code units."""
    if line_text.isascii():
        return column
    prefix = line_text[:column]
    return column + sum(1 for char in prefix if ord(char) > 0xFFFF)


def char_column(line_text: str, units: int) -> int:
    """A 0-based UTF-16 column as a character column."""
    count = 0
    for index, char in enumerate(line_text):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(line_text)


def line_of(text: str, number: int) -> str:
    """The 0-based line `number` of `text` ('' past the end), from the text's line index."""
    return line_index(text).line(number)


def position(text: str, line: int, column: int) -> types.Position:
    """A 0-based (line, character column) as an LSP position."""
    return types.Position(line=max(line, 0), character=utf16_column(line_of(text, line), max(column, 0)))


def span(text: str, line: int, start: int, end: int) -> types.Range:
    """Columns `start` to `end` of one line of `text`."""
    source = line_of(text, line)
    return types.Range(start=types.Position(line=line, character=utf16_column(source, start)),
                       end=types.Position(line=line, character=utf16_column(source, end)))


def location_range(text: str, location: Location) -> types.Range:
    """The range a dmtool location covers: its own end, or the token that starts there."""
    line, column = location.line - 1, location.column - 1
    if location.end_line is not None and location.end_column is not None:
        return types.Range(start=position(text, line, column),
                           end=position(text, location.end_line - 1, location.end_column - 1))
    source = line_of(text, line)
    match = _TOKEN.match(source, column) if column < len(source) else None
    end = match.end() if match else column
    if match and match.group(0) in "-:":  # a list dash or colon: cover the rest of the line
        end = len(source.rstrip())
    return span(text, line, column, max(end, column))


def to_lsp(diagnostic: Diagnostic, text: str, explain_uri: str | None) -> types.Diagnostic:
    """One dmtool diagnostic as the editor shows it; `data` keeps what code actions need."""
    message = diagnostic.message
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    related = [types.DiagnosticRelatedInformation(
        location=types.Location(uri=uri_of(Path(r.path)),
                                range=types.Range(start=types.Position(line=r.line - 1, character=r.column - 1),
                                                  end=types.Position(line=r.line - 1, character=r.column - 1))),
        message="related") for r in diagnostic.related]
    return types.Diagnostic(
        range=location_range(text, diagnostic.location),
        severity=SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=explain_uri) if explain_uri else None,
        source=SOURCE,
        message=message,
        related_information=related or None,
        data={"pointer": diagnostic.location.pointer, "hint": diagnostic.hint},
    )

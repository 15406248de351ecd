"""The Diagnostic value: one problem found in content, with where and why."""

from __future__ import annotations

from enum import Enum

from dmtool.values import Frozen


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Higher is worse; used for sorting and for --strict."""
        return {"info": 0, "warning": 1, "error": 2}[self.value]


class Location(Frozen):
    """Where a diagnostic points: a file, 1-based line and column, and the JSON pointer.

    `subject` names the place as the author thinks of it ("entry 117", "ending D's
    conclusion 411"); the pointer is the same place for tools. (Written out, not a
    dataclass: start-up cost, see dmtool/values.py.)
    """

    __slots__ = _fields = (
        "path", "line", "column", "pointer", "end_line", "end_column", "subject")
    path: str
    line: int
    column: int
    pointer: str
    end_line: int | None
    end_column: int | None
    subject: str

    def __init__(self, path: str, line: int = 1, column: int = 1, pointer: str = "",
                 end_line: int | None = None, end_column: int | None = None,
                 subject: str = "") -> None:
        _set = object.__setattr__
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "pointer", pointer)
        _set(self, "end_line", end_line)
        _set(self, "end_column", end_column)
        _set(self, "subject", subject)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class Diagnostic(Frozen):
    """One finding. Made only through `dmtool.diagnostics.diagnose`, never directly."""

    __slots__ = _fields = ("code", "severity", "message", "location", "hint", "related")
    code: str
    severity: Severity
    message: str
    location: Location
    hint: str | None
    related: tuple[Location, ...]

    def __init__(self, code: str, severity: Severity, message: str, location: Location,
                 hint: str | None = None, related: tuple[Location, ...] = ()) -> None:
        _set = object.__setattr__
        _set(self, "code", code)
        _set(self, "severity", severity)
        _set(self, "message", message)
        _set(self, "location", location)
        _set(self, "hint", hint)
        _set(self, "related", related)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.code, self.message)

"""The Diagnostic value: one problem found in content, with where and why."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Higher is worse; used for sorting and for --strict."""
        return {"info": 0, "warning": 1, "error": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Location:
    """Where a diagnostic points: a file, 1-based line and column, and the JSON pointer.

    `subject` names the place as the author thinks of it ("entry 117", "ending D's
    conclusion 411"); the pointer is the same place for tools.
    """

    path: str
    line: int = 1
    column: int = 1
    pointer: str = ""
    end_line: int | None = None
    end_column: int | None = None
    subject: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. Made only through `dmtool.diagnostics.diagnose`, never directly."""

    code: str
    severity: Severity
    message: str
    location: Location
    hint: str | None = None
    related: tuple[Location, ...] = ()

    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.code, self.message)

"""The Report: every diagnostic of a run, filtered by --select/--ignore, and its exit code."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from dmtool.diagnostics.model import Diagnostic, Severity


@dataclass(slots=True)
class Report:
    """Collects diagnostics; knows which files were checked and which codes are selected."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    # Source texts by display path, so reporters show excerpts without re-reading files.
    sources: dict[str, str] = field(default_factory=dict)

    def wants(self, code: str) -> bool:
        """Whether a code passes --select (prefixes allowed, e.g. DM3) and --ignore."""
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(s) for s in self.ignore)

    def add(self, diagnostic: Diagnostic) -> None:
        if self.wants(diagnostic.code):
            self.diagnostics.append(diagnostic)

    def extend(self, diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> None:
        for d in diagnostics:
            self.add(d)

    def sorted(self) -> list[Diagnostic]:
        unique = {(d.sort_key(), d.severity, d.hint): d for d in self.diagnostics}
        return [unique[k] for k in sorted(unique, key=lambda k: k[0])]

    def counts(self) -> Counter[Severity]:
        return Counter(d.severity for d in self.diagnostics)

    def exit_code(self, *, strict: bool = False) -> int:
        """0 clean, 1 errors (or warnings under --strict)."""
        counts = self.counts()
        if counts[Severity.ERROR] or (strict and counts[Severity.WARNING]):
            return 1
        return 0

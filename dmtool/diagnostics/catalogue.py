"""The catalogue of diagnostic codes, as data, gathered from one module per stage."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dmtool.diagnostics.model import Diagnostic, Location, Severity


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """A catalogue entry: what a code means, how bad it is by default, and how to fix it.

    `example` is written as it stands in the code's case folder under tests/cases/, and
    `fixed` is what replaces it there to make the code go away ("" when the fix is to
    delete it; tests/test_explain.py checks both). An example in parentheses describes a
    situation rather than text.
    """

    code: str
    name: str
    title: str
    severity: Severity
    description: str
    example: str
    fixed: str | None = None


def _gather() -> dict[str, CodeInfo]:
    from dmtool.diagnostics.codes import ALL_STAGES

    catalogue: dict[str, CodeInfo] = {}
    for stage in ALL_STAGES:
        for info in stage:
            if info.code in catalogue:
                raise RuntimeError(f"diagnostic code {info.code} is defined twice")
            catalogue[info.code] = info
    return dict(sorted(catalogue.items()))


@functools.cache
def catalogue() -> dict[str, CodeInfo]:
    """Every known code, sorted, built on first use."""
    return _gather()


def diagnose(
    code: str,
    location: Location,
    message: str,
    *,
    hint: str | None = None,
    related: tuple[Location, ...] = (),
    severity: Severity | None = None,
) -> Diagnostic:
    """Make a diagnostic for a catalogued code; an unknown code is a programming error."""
    info = catalogue().get(code)
    if info is None:
        raise KeyError(f"diagnostic code {code} is not in the catalogue")
    return Diagnostic(
        code=code,
        severity=severity or info.severity,
        message=message,
        location=location,
        hint=hint,
        related=related,
    )

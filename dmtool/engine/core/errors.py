"""Errors every game shares: a refused action (with a stable code) and content the engine
cannot run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar


class Reject(Exception):
    """Raised inside a transition to refuse an action; the caller keeps the old state.

    A game subclasses it with its table of codes (`CODES`): an unknown code is a bug.
    """

    CODES: ClassVar[Mapping[str, str]] = {}

    def __init__(self, code: str, message: str) -> None:
        if code not in self.CODES:
            raise KeyError(f"unknown rejection code {code}")
        super().__init__(message)
        self.code = code
        self.message = message


class EngineFault(Exception):
    """The engine met content it cannot run (e.g. an effect without a handler)."""

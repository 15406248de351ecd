"""What a transition returns: the new state and its events, or a rejection with its code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dmtool.engine.core.context import Event


@dataclass(frozen=True)
class Applied:
    state: Any
    events: list[Event]

    ok = True


@dataclass(frozen=True)
class Rejected:
    code: str
    message: str

    ok = False

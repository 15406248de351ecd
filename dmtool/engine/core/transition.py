"""What a transition returns: the new state and its events, or a rejection with its code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dmtool.engine.core.context import Event

# Slotted and not frozen: a game loop builds one of these per step, and a frozen dataclass's
# __init__ (object.__setattr__ per field) costs twice as much. Treat them as read-only.


@dataclass(slots=True)
class Applied:
    state: Any
    events: list[Event]

    ok: ClassVar[bool] = True


@dataclass(slots=True)
class Rejected:
    code: str
    message: str

    ok: ClassVar[bool] = False

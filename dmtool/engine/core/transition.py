"""What a transition returns: the new state and its events, or a rejection with its code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dmtool.engine.core.context import Event

# Slotted and not frozen: a game loop builds one of these per step, and a frozen dataclass's
# __init__ (object.__setattr__ per field) costs twice as much. Treat them as read-only.


# `ok` is a class attribute of a plain base, not of the dataclass: compiled with mypyc, a
# dataclass takes every name in its body for a field (ClassVar included).
class _Succeeded:
    __slots__ = ()
    ok: ClassVar[bool] = True


class _Refused:
    __slots__ = ()
    ok: ClassVar[bool] = False


@dataclass(slots=True)
class Applied(_Succeeded):
    state: Any
    events: list[Event]

    # Written out: compiled with mypyc, a dataclass's own __init__ is the interpreted one
    # dataclasses generates (one per step here); this one is native.
    def __init__(self, state: Any, events: list[Event]) -> None:
        self.state = state
        self.events = events


@dataclass(slots=True)
class Rejected(_Refused):
    code: str
    message: str

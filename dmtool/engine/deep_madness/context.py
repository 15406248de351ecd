"""The Deep Madness resolution context: the core context plus who is in scope (the
investigator an effect or condition reads), and what the last effects found (a spawned
figure, a devoured room, a colour matched, a path of markers)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dmtool.engine.core.context import Context, Event
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.policy import Policy
from dmtool.engine.core.registry import Rules
from dmtool.engine.deep_madness.catalog import ChapterCatalog
from dmtool.engine.deep_madness.dice import ScriptedDice
from dmtool.engine.deep_madness.records import Investigator
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.state import ChapterState

__all__ = ["Ctx", "Event"]


class _Rules:
    # The registry as a class attribute of a plain base, not of the dataclass: compiled with
    # mypyc, a dataclass takes every name in its body for a field (ClassVar included).
    __slots__ = ()
    rules: ClassVar[Rules] = RULES


@dataclass
class Ctx(_Rules, Context):
    """Mutable working context of one transition. `state` is already a private clone."""

    state: ChapterState
    catalog: ChapterCatalog
    dice: ScriptedDice
    policy: Policy
    events: list[Event] = field(default_factory=list)
    step: int | None = None  # the game loop's step number (see Context.emit)
    who: str | None = None  # the investigator in scope
    figure: str | None = None  # the figure just spawned (for 'then_each')
    room: int | None = None  # the room just devoured
    colour: str | None = None  # the colour an investigate action matched
    path: list[str] = field(default_factory=list)  # spaces of the marker path last found
    held: set[str] = field(default_factory=set)  # chapter conditions judged to hold
    unheld: set[str] = field(default_factory=set)  # ... and judged not to hold
    probing: bool = False  # judging for the record only: no player is asked anything

    def investigator(self, iid: str) -> Investigator:
        return self.state.investigators[iid]

    def scope(self, what: str) -> Investigator:
        """The investigator in scope; a condition or effect that needs one and has none is
        content the engine cannot run."""
        if self.who is None or self.who not in self.state.investigators:
            raise EngineFault(f"'{what}' needs an investigator in scope")
        return self.state.investigators[self.who]

    @contextmanager
    def scoped(self, who: str | None = None, **found: Any) -> Iterator[None]:
        """Resolve with another investigator in scope (and what was just found)."""
        saved = (self.who, self.figure, self.room, self.colour)
        self.who = who if who is not None else self.who
        for key, value in found.items():
            setattr(self, key, value)
        try:
            yield
        finally:
            self.who, self.figure, self.room, self.colour = saved

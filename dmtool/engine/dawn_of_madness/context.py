"""The Dawn of Madness resolution context: the core context plus the story frame and who is
resolving (a wanderer, or a monster acting)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ClassVar

from dmtool.engine.core.context import Context, Event
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.registry import Rules
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.dice import DiceSource
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import GameState, Monster, Wanderer

__all__ = ["Ctx", "Event", "Frame"]


@dataclass
class Frame:
    """One run of story effects: an encounter, an event entry, a monster action, a bare effect.

    `death_depth` is set when the frame's wanderer dies: the effect list at that depth
    finishes (the current block of text), then the frame ends.
    """

    kind: str
    wanderer: str | None = None
    summoned: bool = False
    depth: int = 0
    death_depth: int | None = None
    ended: bool = False
    entry: int | None = None


@dataclass
class Ctx(Context):
    """Mutable working context of one transition. `state` is already a private clone."""

    rules: ClassVar[Rules] = RULES

    state: GameState
    catalog: Catalog
    dice: DiceSource
    frame: Frame = field(default_factory=lambda: Frame("effect"))
    who: str | None = None  # the resolving wanderer
    monster: str | None = None  # the acting monster
    outer: list[Frame] = field(default_factory=list)  # frames the current one is nested in
    epilogue: bool = False  # resolving the end of the stage: effects run after it ended

    @property
    def halted(self) -> bool:
        return (self.state.outcome != "ongoing" and not self.epilogue) or self.frame.ended

    def wanderer(self, wid: str) -> Wanderer:
        return self.state.wanderers[wid]

    def resolver(self) -> Wanderer | None:
        """The wanderer an effect applies to: the resolving wanderer, or, inside a monster's
        action, the monster's nearest target."""
        if self.who is not None:
            return self.state.wanderers.get(self.who)
        if self.monster is not None and self.monster in self.state.monsters:
            target: Wanderer | None = self.rules.call(
                "monster_target", self, self.state.monsters[self.monster], "nearest_wanderer")
            return target
        return None

    def need_resolver(self, effect: str) -> Wanderer:
        w = self.resolver()
        if w is None:
            raise EngineFault(f"the effect '{effect}' needs a resolving wanderer")
        return w

    def acting_monster(self) -> Monster | None:
        return self.state.monsters.get(self.monster) if self.monster else None

    def frozen(self, w: Wanderer) -> bool:
        """A summoned dead wanderer's health and mental capacity cannot change."""
        return self.frame.summoned and self.frame.wanderer == w.id

    def counts_alive(self, w: Wanderer) -> bool:
        return w.alive or self.frozen(w)

    @contextmanager
    def acting(self, *, who: str | None = None, monster: str | None = None,
               keep_monster: bool = False) -> Iterator[None]:
        saved = (self.who, self.monster)
        self.who = who
        self.monster = monster if not keep_monster else self.monster
        try:
            yield
        finally:
            self.who, self.monster = saved

    def encounter_of(self, wanderer: str) -> Frame | None:
        """The innermost encounter this wanderer is resolving, if any (even when a monster
        activation or another frame runs inside it)."""
        for frame in (self.frame, *reversed(self.outer)):
            if frame.kind == "encounter" and frame.wanderer == wanderer:
                return frame
        return None

    @contextmanager
    def in_frame(self, frame: Frame) -> Iterator[Frame]:
        saved = self.frame
        self.outer.append(saved)
        self.frame = frame
        try:
            yield frame
        finally:
            self.frame = saved
            self.outer.pop()

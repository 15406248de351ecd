"""The Dawn of Madness resolution context: the core context plus the story frame and who is
resolving (a wanderer, or a monster acting)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import ClassVar

from dmtool.engine.core.context import Context, Event
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.policy import Policy
from dmtool.engine.core.registry import Rules
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.dice import DiceSource
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import GameState, Monster, Wanderer

__all__ = ["Ctx", "Event", "Frame"]


@dataclass(slots=True)
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

    # Written out (the same fields and defaults): a native __init__ (see Ctx).
    def __init__(self, kind: str, wanderer: str | None = None, summoned: bool = False,
                 depth: int = 0, death_depth: int | None = None, ended: bool = False,
                 entry: int | None = None) -> None:
        self.kind = kind
        self.wanderer = wanderer
        self.summoned = summoned
        self.depth = depth
        self.death_depth = death_depth
        self.ended = ended
        self.entry = entry


class _Rules:
    # The registry as a class attribute of a plain base, not of the dataclass: compiled with
    # mypyc, a dataclass takes every name in its body for a field (ClassVar included).
    __slots__ = ()
    rules: ClassVar[Rules] = RULES


@dataclass(slots=True)
class Ctx(_Rules, Context):
    """Mutable working context of one transition. `state` is already a private clone."""

    state: GameState
    catalog: Catalog
    dice: DiceSource
    policy: Policy
    events: list[Event] = field(default_factory=list)
    step: int | None = None  # the game loop's step number (see Context.emit)
    frame: Frame = field(default_factory=partial(Frame, "effect"))  # no Python-level lambda
    who: str | None = None  # the resolving wanderer
    monster: str | None = None  # the acting monster
    outer: list[Frame] = field(default_factory=list)  # frames the current one is nested in
    epilogue: bool = False  # resolving the end of the stage: effects run after it ended

    # Written out, with the same fields and defaults: compiled with mypyc, the __init__
    # that dataclasses generates stays interpreted (a Python frame and a setattr through a
    # descriptor per field, on every step and frame); a dataclass keeps an __init__ of its
    # own, and this one is native.
    def __init__(self, state: GameState, catalog: Catalog, dice: DiceSource, policy: Policy,
                 events: list[Event] | None = None, step: int | None = None,
                 frame: Frame | None = None, who: str | None = None,
                 monster: str | None = None, outer: list[Frame] | None = None,
                 epilogue: bool = False) -> None:
        self.state = state
        self.catalog = catalog
        self.dice = dice
        self.policy = policy
        self.events = [] if events is None else events
        self.step = step
        self.frame = Frame("effect") if frame is None else frame
        self.who = who
        self.monster = monster
        self.outer = [] if outer is None else outer
        self.epilogue = epilogue

    # A method, not a property: asked a few hundred times a game, and the interpreter calls
    # a property's getter from C, at several times the cost of a plain method call.
    def halted(self) -> bool:
        """The stage is over (outside the epilogue) or the current frame has ended."""
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
        # hot path (most wanderer effects): the resolving wanderer, without `resolver()`.
        w = self.state.wanderers.get(self.who) if self.who is not None else self.resolver()
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

    def acting(self, *, who: str | None = None, monster: str | None = None,
               keep_monster: bool = False) -> _Acting:
        """`with ctx.acting(who=...)`: resolve as this wanderer (or monster) inside."""
        return _Acting(self, who, self.monster if keep_monster else monster)

    def encounter_of(self, wanderer: str) -> Frame | None:
        """The innermost encounter this wanderer is resolving, if any (even when a monster
        activation or another frame runs inside it)."""
        for frame in (self.frame, *reversed(self.outer)):
            if frame.kind == "encounter" and frame.wanderer == wanderer:
                return frame
        return None

    def in_frame(self, frame: Frame) -> _InFrame:
        """`with ctx.in_frame(frame) as f`: resolve inside a new story frame."""
        return _InFrame(self, frame)


# Plain classes rather than @contextmanager: a game enters these tens of thousands of times,
# and a generator-based manager costs several times as much per entry.
class _Acting:
    __slots__ = ("ctx", "monster", "saved", "who")

    def __init__(self, ctx: Ctx, who: str | None, monster: str | None) -> None:
        self.ctx, self.who, self.monster = ctx, who, monster
        self.saved: tuple[str | None, str | None] = (None, None)

    def __enter__(self) -> None:
        ctx = self.ctx
        self.saved = (ctx.who, ctx.monster)
        ctx.who, ctx.monster = self.who, self.monster

    def __exit__(self, *exc: object) -> None:
        self.ctx.who, self.ctx.monster = self.saved


class _InFrame:
    __slots__ = ("ctx", "frame", "saved")

    def __init__(self, ctx: Ctx, frame: Frame) -> None:
        self.ctx, self.frame = ctx, frame
        self.saved: Frame | None = None

    def __enter__(self) -> Frame:
        ctx = self.ctx
        self.saved = ctx.frame
        ctx.outer.append(ctx.frame)
        ctx.frame = self.frame
        return self.frame

    def __exit__(self, *exc: object) -> None:
        ctx = self.ctx
        ctx.frame = self.saved  # type: ignore[assignment]
        ctx.outer.pop()

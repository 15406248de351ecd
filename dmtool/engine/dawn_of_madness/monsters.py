"""Monsters: spawning, targets, and activation by action sequence and rift abilities."""

from __future__ import annotations

from typing import Any

from dmtool.engine.dawn_of_madness.combat import roll_rifts
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.monster_plans import (
    MonsterAction,
    MonsterPlan,
    Targeting,
    confrontation_targeting,
    monster_plan,
)
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import Monster, Wanderer
from dmtool.engine.dawn_of_madness.story import holds, run_effects


def spawn_monster(ctx: Ctx, card: str, *, shard: Any = "random", level: int | None = None,
                  why: str = "spawn", avoid: set[int] | None = None) -> Monster | None:
    """Put a monster on the board with its tracker at max (or at `level`, capped at max) and
    three rifts; one already on the board activates once for free instead."""
    state = ctx.state
    if card not in ctx.catalog.monsters:
        raise EngineFault(f"no definition for the monster '{card}'")
    if card in state.monsters:
        ctx.emit("already_on_board", monster=card)
        activate(ctx, state.monsters[card], free=True)
        return None
    defn = ctx.catalog.monster(card)
    number = place(ctx, card, shard, avoid=avoid)
    max_mc = defn["max_mental_capacity"]
    mc = max_mc if level is None else min(level, max_mc)
    m = Monster(card, defn["kind"], number, defn["max_health"], max_mc, mc)
    state.monsters[card] = m
    ctx.emit("spawned", monster=card, kind=m.kind, shard=number, mental_capacity=mc, why=why)
    if m.kind != "abomination":
        roll_rifts(ctx, m, "domain rifts")
    return m


def distance(ctx: Ctx, a: int | None, b: int | None) -> int | None:
    if a is None or b is None:
        return None
    return ctx.catalog.board.distance(a, b)


def in_range(ctx: Ctx, m: Monster, within: int | None = None) -> list[Wanderer]:
    """Living wanderers joined to the monster by paths, within `within` spaces if given."""
    row = ctx.catalog.board.distances(m.shard)
    frame = ctx.frame  # a summoned dead wanderer counts as alive (`Ctx.counts_alive`)
    summoned = frame.wanderer if frame.summoned else None
    found = []
    for w in ctx.state.wanderers.values():
        if w.shard is None or not (w.alive or w.id == summoned):
            continue
        d = row.get(w.shard)
        if d is not None and (within is None or d <= within):
            found.append(w)
    return found


def any_in_range(ctx: Ctx, m: Monster, within: int | None) -> bool:
    """Whether `in_range` would find anyone (without listing them: asked for every action
    a monster considers)."""
    row = ctx.catalog.board.distances(m.shard)
    frame = ctx.frame
    summoned = frame.wanderer if frame.summoned else None
    for w in ctx.state.wanderers.values():
        if w.shard is not None and (w.alive or w.id == summoned):
            d = row.get(w.shard)
            if d is not None and (within is None or d <= within):
                return True
    return False


def candidates(ctx: Ctx, m: Monster, toward: str = "nearest_wanderer",
               within: int | None = None) -> list[Wanderer]:
    """The wanderers the monster would target (several when they are equally good)."""
    # hot path (every targeting effect and every move considered): `in_range` written out,
    # keeping the nearest of them on the same walk.
    row = ctx.catalog.board.distances(m.shard)
    frame = ctx.frame
    summoned = frame.wanderer if frame.summoned else None
    living: list[Wanderer] = []
    nearest: list[Wanderer] = []
    near = -1
    for w in ctx.state.wanderers.values():
        if w.shard is None or not (w.alive or w.id == summoned):
            continue
        d = row.get(w.shard)
        if d is None or (within is not None and d > within):
            continue
        living.append(w)
        if near < 0 or d < near:
            near, nearest = d, [w]
        elif d == near:
            nearest.append(w)
    if len(living) <= 1:
        return living
    if toward == "central_wanderer":
        central = [w for w in living if w.id == ctx.state.central]
        if central:
            return central
    if toward == "most_wounded_wanderer":
        most = max([w.wounds for w in living])
        return [w for w in living if w.wounds == most]
    return nearest


@RULES.hook("monster_target")
def choose_target(ctx: Ctx, m: Monster, toward: str = "nearest_wanderer",
                  within: int | None = None) -> Wanderer | None:
    """The monster's target; equally good targets are the players' choice. (Also the hook
    through which the context finds who a monster's effects apply to.)"""
    found = candidates(ctx, m, toward, within)
    if len(found) <= 1:
        return found[0] if found else None
    pick = ctx.answer("target", f"{m.id} has several equally near targets",
                      tuple([w.id for w in found]))
    return ctx.wanderer(pick)


def feasible(ctx: Ctx, m: Monster, targets: Targeting) -> bool:
    """An action without targeting effects can always be taken; one with targeting effects
    needs at least one of them to have something to act on."""
    if not targets:
        return True
    for name, value in targets:  # noqa: SIM110 (hot path: a loop, not a generator)
        if _has_target(ctx, m, name, value):
            return True
    return False


def _has_target(ctx: Ctx, m: Monster, name: str, value: Any) -> bool:
    if name in ("monster_attack", "monster_drain"):
        return any_in_range(ctx, m, value.get("range", 0))
    if name == "monster_move":
        found = candidates(ctx, m, value.get("toward", "nearest_wanderer"))
        row = ctx.catalog.board.distances(m.shard)
        for w in found:  # noqa: SIM110 (in_range: every shard is known; a loop: hot path)
            if w.shard is not None and row.get(w.shard):
                return True
        return False
    if name == "monster_heal":
        return m.wounds > 0
    if name == "resolve_confrontation_card":
        return confrontation_resolvable(ctx, m)
    return True


def confrontation_resolvable(ctx: Ctx, m: Monster) -> bool:
    number = ctx.state.confrontation["active"]
    if m.kind != "abomination" or number is None:
        return False
    return feasible(ctx, m, confrontation_targeting(ctx.catalog, m.id, number))


def activate(ctx: Ctx, m: Monster, *, free: bool = False) -> bool:
    """The monster takes the first action of its sequence whose condition holds, whose cost
    it can pay (free activations pay nothing) and that has something to act on."""
    plan = monster_plan(ctx.catalog, m.id)
    # hot path (every monster turn): `ctx.acting(monster=...)` written out.
    saved = ctx.who, ctx.monster
    ctx.who, ctx.monster = None, m.id
    try:
        for action in plan.actions:
            if not free and action.cost > m.mc:
                continue
            if action.condition is not None and not holds(ctx, action.condition):
                continue
            if action.targeting and not feasible(ctx, m, action.targeting):
                continue
            if not free:
                m.mc -= action.cost
            ctx.emit("monster_action", monster=m.id, action=action.number,
                     cost=0 if free else action.cost, free=free)
            _resolve_action(ctx, m, plan, action)
            return True
    finally:
        ctx.who, ctx.monster = saved
    if not free:
        m.mc = 0
        ctx.emit("dropped_to_zero", character=m.id)
    return False


def _resolve_action(ctx: Ctx, m: Monster, plan: MonsterPlan, action: MonsterAction) -> None:
    """The action's effects, then the rift abilities its rifts switch on, in a frame of their
    own (`ctx.in_frame` written out: this runs on every monster turn)."""
    outer = ctx.frame
    ctx.outer.append(outer)
    ctx.frame = Frame("activation")
    try:
        run_effects(ctx, action.effects)
        abilities = plan.active_abilities(m.rifts)
        for ability in abilities:
            if m.id not in ctx.state.monsters or ctx.halted():
                break
            ctx.emit("rift_ability", monster=m.id, requires=ability["requires"])
            run_effects(ctx, ability.get("effects", []))
    finally:
        ctx.frame = outer
        ctx.outer.pop()

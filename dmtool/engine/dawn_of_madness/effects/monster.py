"""Effects a monster performs in its action: move, attack, drain, heal, confrontation card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dmtool.engine.dawn_of_madness.combat import reveal_confrontation
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.effects import effect
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.health import lose_mental_capacity, take_damage
from dmtool.engine.dawn_of_madness.monsters import choose_target, confrontation_resolvable, in_range
from dmtool.engine.dawn_of_madness.state import Monster, Wanderer
from dmtool.engine.dawn_of_madness.story import run_effects


def _actor(ctx: Ctx, name: str) -> Monster:
    m = ctx.state.monsters.get(ctx.monster) if ctx.monster else None  # ctx.acting_monster()
    if m is None:
        raise EngineFault(f"the effect '{name}' is only resolved by a monster")
    return m


def _targets(ctx: Ctx, m: Monster, spec: dict[str, Any]) -> list[Wanderer]:
    within = spec.get("range", 0)
    if spec.get("targets", "nearest") == "all_in_range":
        return in_range(ctx, m, within)
    target = choose_target(ctx, m, within=within)
    return [target] if target else []


@effect("monster_move")
def _move(ctx: Ctx, spec: dict[str, Any]) -> None:
    m = _actor(ctx, "monster_move")
    target = choose_target(ctx, m, spec.get("toward", "nearest_wanderer"))
    if target is None or target.shard is None:
        return
    start = m.shard
    for _ in range(spec["spaces"]):
        steps = ctx.catalog.board.steps_toward(m.shard, target.shard)
        if not steps:
            break
        m.shard = steps[0] if len(steps) == 1 else ctx.answer(
            "monster_step", f"{m.id} can step onto several shards toward {target.id}",
            tuple(steps))
    if m.shard != start:
        ctx.emit("monster_moved", monster=m.id, **{"from": start}, to=m.shard, toward=target.id)


# The two effects below are in most monster actions: `ctx.acting(who=w.id, keep_monster=True)`
# is written out as a save and restore of `ctx.who` (the monster stays the same).

def _on_each_target(ctx: Ctx, m: Monster, spec: dict[str, Any],
                    hit: Callable[[Wanderer], None]) -> None:
    """`hit(w)` for each wanderer the monster targets, as that wanderer (stops when the game halts)."""
    saved = ctx.who
    try:
        for w in _targets(ctx, m, spec):
            if ctx.halted():
                return
            ctx.who = w.id
            hit(w)
            ctx.who = saved
    finally:
        ctx.who = saved


@effect("monster_attack")
def _attack(ctx: Ctx, spec: dict[str, Any]) -> None:
    m = _actor(ctx, "monster_attack")
    _on_each_target(ctx, m, spec, lambda w: take_damage(ctx, w, spec["colour"], spec["amount"],
                                                          source=m.id))


@effect("monster_drain")
def _drain(ctx: Ctx, spec: dict[str, Any]) -> None:
    m = _actor(ctx, "monster_drain")
    _on_each_target(ctx, m, spec, lambda w: lose_mental_capacity(ctx, w, spec["amount"],
                                                                   cause=m.id))


@effect("monster_heal")
def _heal(ctx: Ctx, n: int) -> None:
    m = _actor(ctx, "monster_heal")
    healed = min(n, m.wounds)
    m.wounds -= healed
    if healed:
        ctx.emit("monster_healed", monster=m.id, amount=healed)


@effect("resolve_confrontation_card")
def _resolve_card(ctx: Ctx, _: Any) -> None:
    m = _actor(ctx, "resolve_confrontation_card")
    if not confrontation_resolvable(ctx, m):
        ctx.emit("not_resolved", effect="resolve_confrontation_card", reason="cannot resolve")
        return
    number = ctx.state.confrontation["active"]
    card = ctx.catalog.confrontation_card(m.id, number)
    ctx.emit("confrontation_resolved", card=number)
    run_effects(ctx, card["special_action"].get("effects", []))
    if not ctx.halted() and m.id in ctx.state.monsters:
        reveal_confrontation(ctx)

"""System steps: the event phase, monster turns, the refresh phase, effects and summons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dmtool.engine import story
from dmtool.engine.actions import Action
from dmtool.engine.conditions import holds
from dmtool.engine.context import Ctx, Frame
from dmtool.engine.errors import Reject
from dmtool.engine.health import end_stage
from dmtool.engine.monsters import activate, place
from dmtool.engine.perform import end_of_action
from dmtool.engine.rolls import help_loop, start_pool
from dmtool.engine.turns import active_characters

Step = Callable[[Ctx, Action], None]
STEPS: dict[str, Step] = {}
LAST_ROUND = 10
RUNAWAY = 500  # monster turns in one advance before the engine assumes a loop


def step(kind: str) -> Callable[[Step], Step]:
    def register(fn: Step) -> Step:
        STEPS[kind] = fn
        return fn

    return register


def _ongoing(ctx: Ctx) -> None:
    if ctx.state.outcome != "ongoing":
        raise Reject("stage_over", "The stage is over.")


def _phase(ctx: Ctx, *phases: str) -> None:
    _ongoing(ctx)
    if ctx.state.phase not in phases:
        raise Reject("wrong_phase", f"This step needs the {' or '.join(phases)} phase; the "
                     f"game is in the {ctx.state.phase} phase.")


@step("effect")
def _effect(ctx: Ctx, action: Action) -> None:
    """Resolve effects directly (as if a card or entry said so) for a wanderer, if named."""
    _ongoing(ctx)
    effects = action.args if isinstance(action.args, list) else [action.args]
    who = action.wanderer
    if who is not None and who not in ctx.state.wanderers:
        raise Reject("unknown_wanderer", f"There is no wanderer '{who}'.")
    with ctx.in_frame(Frame("effect", wanderer=who)), ctx.acting(who=who):
        story.run_effects(ctx, effects)
    end_of_action(ctx)


@step("summon")
def _summon(ctx: Ctx, action: Action) -> None:
    """A dead wanderer is made to enter an encounter: alive there, health and capacity fixed."""
    _ongoing(ctx)
    w = ctx.state.wanderers.get(action.arg("wanderer", action.wanderer) or "")
    if w is None:
        raise Reject("unknown_wanderer", "The summoned wanderer does not exist.")
    if w.alive:
        raise Reject("not_summonable", f"{w.id} is alive and enters encounters normally.")
    story.encounter(ctx, w.id, action.arg("entry"), summoned=True)


@step("activate")
def _activate(ctx: Ctx, action: Action) -> None:
    """A monster's turn (it must be the active character), or a free activation."""
    _ongoing(ctx)
    m = ctx.state.monsters.get(action.arg("monster", "") or "")
    if m is None:
        raise Reject("unknown_monster", f"No monster '{action.arg('monster')}' is on the board.")
    free = bool(action.arg("free", False))
    if not free:
        _phase(ctx, "action")
        if m.id not in active_characters(ctx.state):
            raise Reject("not_your_turn", f"{m.id} is not the active character.")
    activate(ctx, m, free=free)
    end_of_action(ctx)


@step("advance")
def _advance(ctx: Ctx, action: Action) -> None:
    """Monsters take their turns until a wanderer is the active character or the phase ends."""
    _phase(ctx, "action")
    for _ in range(RUNAWAY):
        if ctx.state.phase != "action" or ctx.halted:
            return
        active = active_characters(ctx.state)
        if not active or active[0] in ctx.state.wanderers:
            end_of_action(ctx)
            return
        mid = active[0] if len(active) == 1 else ctx.answer(
            "order", "Several monsters are tied on the track: which acts next?", tuple(active))
        activate(ctx, ctx.state.monsters[mid])
        end_of_action(ctx)
    raise Reject("bad_action", "Monsters kept acting without spending capacity.")


@step("event_phase")
def _event_phase(ctx: Ctx, action: Action) -> None:
    """Resolve the round tracker's entry (for the central wanderer), then check the spawning
    conditions of encounter cards not yet in play."""
    _phase(ctx, "event")
    state, catalog = ctx.state, ctx.catalog
    ctx.emit("phase", phase="event", round=state.round)
    if state.round <= len(catalog.round_trackers):
        entry = catalog.round_trackers[state.round - 1]
        with ctx.in_frame(Frame("event", wanderer=state.central)), ctx.acting(who=state.central):
            story.resolve_entry(ctx, entry)
    for card, defn in catalog.encounter_cards.items():
        gate = defn.get("spawn")
        if ctx.halted or not gate or card in state.spawned_cards or "when" not in gate:
            continue
        with ctx.acting(who=state.central):
            if holds(ctx, gate["when"]):
                shard = place(ctx, card, "random")
                state.shards[shard].cards.append(card)
                state.spawned_cards.append(card)
                ctx.emit("encounter_spawned", card=card, shard=shard)
    if state.outcome == "ongoing":
        state.phase = "action"
        ctx.emit("phase", phase="action", round=state.round)
        end_of_action(ctx)


REFRESH_STEPS: list[tuple[str, Callable[[Ctx], None]]] = []


def refresh_step(name: str) -> Callable[[Callable[[Ctx], None]], Callable[[Ctx], None]]:
    def register(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
        REFRESH_STEPS.append((name, fn))
        return fn

    return register


@step("refresh")
def _refresh(ctx: Ctx, action: Action) -> None:
    _phase(ctx, "refresh")
    for name, fn in REFRESH_STEPS:
        if ctx.halted:
            return
        ctx.emit("refresh_step", name=name)
        fn(ctx)


@refresh_step("win_check")
def _win_check(ctx: Ctx) -> None:
    state = ctx.state
    if sum(state.scores.values()) >= state.score_goal and state.abomination_killed:
        end_stage(ctx, "won", "goal_reached")
    elif state.round >= LAST_ROUND:
        end_stage(ctx, "failed", "tenth_round")


@refresh_step("respawn")
def _respawn(ctx: Ctx) -> None:
    dead = [w.id for w in ctx.state.wanderers.values() if not w.alive]
    while dead and not ctx.halted:
        wid = dead[0] if len(dead) == 1 else ctx.answer(
            "respawn_order", "Several wanderers respawn: who goes first?", tuple(dead))
        dead.remove(wid)
        respawn(ctx, ctx.wanderer(wid))


def respawn(ctx: Ctx, w: Any) -> None:
    """Roll every sentience value; heal 3 plus the skulls (spheres do not count); place by
    the otherworld die, or on the current shard while trapped."""
    from dmtool.engine.constants import COLOURS

    pool = start_pool(ctx, w, "respawn", {c: w.dice(c) for c in COLOURS}, "respawn")
    help_loop(ctx, w, pool)
    skulls = sum(1 for _, f in pool.dice if f == "skull")
    healed = min(w.wounds, 3 + skulls)
    w.wounds -= healed
    if not w.trapped:
        w.shard = place(ctx, w.id, "random")
    w.alive = True
    ctx.emit("respawned", wanderer=w.id, healed=healed, shard=w.shard)


@refresh_step("restore_capacity")
def _restore(ctx: Ctx) -> None:
    for w in ctx.state.wanderers.values():
        if w.alive:
            w.mc = w.max_mc
    for m in ctx.state.monsters.values():
        m.mc = m.max_mc


@refresh_step("refresh_support")
def _support(ctx: Ctx) -> None:
    for card in ctx.state.support:
        ctx.state.support[card] = True
    for w in ctx.state.wanderers.values():
        w.used.clear()
        w.support_last = False


@refresh_step("devour_cards")
def _devour_cards(ctx: Ctx) -> None:
    """Optional devour rule: rules part 2."""


@refresh_step("devour_tokens")
def _devour_tokens(ctx: Ctx) -> None:
    """Optional devour rule: rules part 2."""


@refresh_step("flip_tracker")
def _flip(ctx: Ctx) -> None:
    ctx.state.round += 1
    ctx.state.phase = "event"
    ctx.emit("phase", phase="event", round=ctx.state.round)

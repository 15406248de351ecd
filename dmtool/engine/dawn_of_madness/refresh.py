"""The refresh phase, step by step, in the wanderer stage and in the finale."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from dmtool.engine.dawn_of_madness import devour
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.constants import COLOURS
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.outcome import end_stage, need_phase
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.rolls import help_loop, start_pool

LAST_ROUND: Final = 10
RefreshFn = Callable[[Ctx], None]
# (name, stages it belongs to, function), in the rulebook's order.
REFRESH_STEPS: Final[list[tuple[str, tuple[str, ...], RefreshFn]]] = []


def refresh_step(name: str, *stages: str) -> Callable[[RefreshFn], RefreshFn]:
    def register(fn: RefreshFn) -> RefreshFn:
        REFRESH_STEPS.append((name, stages or ("wanderer", "finale"), fn))
        return fn

    return register


@RULES.step("refresh")
def _refresh(ctx: Ctx, action: Action) -> None:
    need_phase(ctx, "refresh")
    stage = ctx.state.stage
    for name, stages, fn in REFRESH_STEPS:
        if ctx.halted():
            return
        if stage in stages:
            ctx.emit("refresh_step", name=name)
            fn(ctx)


@refresh_step("win_check", "wanderer")
def _win_check(ctx: Ctx) -> None:
    """Won: the four scores together reach the goal and the abomination is dead. Otherwise
    the end of the tenth round fails the stage."""
    state = ctx.state
    if sum(state.scores.values()) >= state.score_goal and state.abomination_killed:
        end_stage(ctx, "won", "goal_reached")
    elif state.round >= LAST_ROUND:
        end_stage(ctx, "failed", "tenth_round")


@refresh_step("respawn", "wanderer")
def _respawn(ctx: Ctx) -> None:
    respawn_all(ctx)


def respawn_all(ctx: Ctx) -> None:
    """Every dead wanderer respawns; the players choose the order when several do."""
    dead = [w.id for w in ctx.state.wanderers.values() if not w.alive]
    while dead and not ctx.halted():
        wid = dead[0] if len(dead) == 1 else ctx.answer(
            "respawn_order", "Several wanderers respawn: who goes first?", tuple(dead))
        dead.remove(wid)
        respawn(ctx, ctx.wanderer(wid))


def respawn(ctx: Ctx, w: Any) -> None:
    """Roll every sentience value; heal 3 plus the skulls (spheres do not count); place by
    the otherworld die, or on the current shard while trapped."""
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
    restore_all(ctx)


def restore_all(ctx: Ctx) -> None:
    for w in ctx.state.wanderers.values():
        if w.alive:
            w.mc = w.max_mc
    for m in ctx.state.monsters.values():
        m.mc = m.max_mc


@refresh_step("refresh_support")
def _support(ctx: Ctx) -> None:
    refresh_support(ctx)


def refresh_support(ctx: Ctx) -> None:
    """Used support cards turn face up; the once-per-round limits start over."""
    for card in ctx.state.support:
        ctx.state.support[card] = True
    for w in ctx.state.wanderers.values():
        w.used.clear()
        w.support_last = False


@refresh_step("devour_cards")
def _devour_cards(ctx: Ctx) -> None:
    devour.refresh_cards(ctx)


@refresh_step("devour_tokens", "wanderer")
def _devour_tokens(ctx: Ctx) -> None:
    devour.spawn_tokens(ctx)


@refresh_step("flip_tracker")
def _flip(ctx: Ctx) -> None:
    ctx.state.round += 1
    ctx.state.phase = "event"
    ctx.emit("phase", phase="event", round=ctx.state.round)

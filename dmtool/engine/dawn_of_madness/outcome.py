"""How a stage and a phase end, and the guards of steps that need a running stage or a
given phase (shared by every rule that can end the game or the action phase)."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.turns import phase_over


def end_stage(ctx: Ctx, outcome: str, reason: str) -> None:
    """The stage ends at once (won or failed); later effects do not resolve. The end of the
    wanderer stage (the abomination card's back) is resolved when the transition finishes."""
    state = ctx.state
    if state.outcome != "ongoing":
        return
    if state.stage == "finale" and outcome == "failed":
        # The finale cannot be failed; only a conclusion ends it (the engine's reading).
        ctx.emit("not_resolved", effect="fail_stage", reason="the finale ends only in a "
                 "conclusion")
        return
    state.outcome = outcome
    state.reason = reason
    state.phase = "ended"
    if state.stage == "wanderer":
        state.wanderer_outcome = outcome
    ctx.emit("stage_" + outcome, reason=reason)


def end_of_action(ctx: Ctx) -> None:
    """The action phase ends once every tracker is at zero after an action resolves."""
    state = ctx.state
    if state.phase == "action" and state.outcome == "ongoing" and phase_over(state):
        state.phase = "refresh"
        ctx.emit("phase", phase="refresh", round=state.round)


def need_ongoing(ctx: Ctx) -> None:
    if ctx.state.outcome != "ongoing":
        raise Reject("stage_over", "The stage is over.")


def need_phase(ctx: Ctx, *phases: str) -> None:
    need_ongoing(ctx)
    if ctx.state.phase not in phases:
        raise Reject("wrong_phase", f"This step needs the {' or '.join(phases)} phase; the "
                     f"game is in the {ctx.state.phase} phase.")

"""Deep Madness transitions: apply(state, step) -> Applied (new state, events) or Rejected,
with the chapter's losing and winning conditions judged after every step."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.policy import Policy
from dmtool.engine.core.transition import Applied, Rejected

# Importing the rule modules fills the registry before the first transition runs.
from dmtool.engine.deep_madness import (  # noqa: F401
    actions,
    conditions,
    effects_figures,
    effects_flow,
    effects_pieces,
    effects_rules,
    filth,
    hydra,
    monster_steps,
    phases,
    shadow,
    start,
)
from dmtool.engine.deep_madness.catalog import ChapterCatalog
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.dice import ScriptedDice
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.outcome import probe_investigate, settle
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.state import ChapterState
from dmtool.engine.deep_madness.steps import Step, parse_step

__all__ = ["Applied", "Rejected", "apply"]


def apply(state: ChapterState, catalog: ChapterCatalog, step: Step | dict[str, Any], *,
          dice: ScriptedDice, policy: Policy, in_place: bool = False) -> Applied | Rejected:
    """Resolve one step on a private copy of `state` (the given state is never changed,
    unless `in_place`); a rejection leaves no trace in the state."""
    try:
        if not isinstance(step, Step):
            step = parse_step(step)
        work = state if in_place else state.clone()
        if work.outcome != "ongoing":
            raise Reject("chapter_over", f"The chapter is already {work.outcome}.")
        ctx = Ctx(work, catalog, dice, policy)
        work.round_start = False
        RULES.steps[step.kind](ctx, step)
        settle(ctx)
        probe_investigate(ctx)
        ctx.emit("judged", held=sorted(ctx.held), unheld=sorted(ctx.unheld))
    except Reject as rejection:
        return Rejected(rejection.code, rejection.message)
    return Applied(work, ctx.events)

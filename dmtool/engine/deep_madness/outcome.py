"""Winning and losing: after every step the chapter's losing conditions (its own, then the
expansion's common ones) and then its winning conditions are judged; the first that holds
decides the chapter. Investigate conditions are judged too, for the record."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.vocabulary import judge, run_effects


def settle(ctx: Ctx) -> None:
    state = ctx.state
    if state.outcome != "ongoing":
        return
    if _lost(ctx):
        return
    for ref, condition in ctx.catalog.winning():
        if not judge(ctx, ref, condition["when"]):
            continue
        if condition.get("before"):
            ctx.emit("before_winning", rule=ref)
            run_effects(ctx, condition["before"])
            if state.outcome != "ongoing" or _lost(ctx):
                return
        decide(ctx, "won", ref, condition)
        return


def _lost(ctx: Ctx) -> bool:
    for ref, condition in ctx.catalog.losing():
        if judge(ctx, ref, condition["when"]):
            decide(ctx, "lost", ref, condition)
            return True
    return False


def decide(ctx: Ctx, outcome: str, ref: str, condition: dict[str, Any]) -> None:
    ctx.state.outcome = outcome
    ctx.state.reason = {"rule": ref, "summary": " ".join(str(condition["summary"]).split())}
    ctx.emit("chapter_" + outcome, rule=ref)


def probe_investigate(ctx: Ctx) -> None:
    """Judge every investigate condition for every living investigator (no question is
    asked): which actions each could take now goes into the log."""
    ctx.probing = True
    try:
        for n, action in enumerate(ctx.catalog.investigate()):
            ref = f"{ctx.catalog.id}/investigate/{n + 1}"
            for inv in ctx.state.living():
                with ctx.scoped(inv.id):
                    judge(ctx, ref, action["when"])
    finally:
        ctx.probing = False

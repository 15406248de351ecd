"""The interpreter of the chapter vocabulary: effects and conditions from content, each run
by the handler its name is registered under (never by per-chapter code)."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.logic import holds
from dmtool.engine.deep_madness.context import Ctx

__all__ = ["holds", "judge", "run_effects"]


def run_effects(ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    """Resolve effects in order; a decided chapter stops resolving."""
    for effect in effects:
        if ctx.state.outcome != "ongoing":
            return
        [(name, value)] = effect.items()
        handler = ctx.rules.effects.get(name)
        if handler is None:
            raise EngineFault(f"no handler for the chapter effect '{name}'")
        handler(ctx, value)


def judge(ctx: Ctx, ref: str, condition: dict[str, Any]) -> bool:
    """Evaluate a named condition of the chapter (a winning, losing or investigate
    condition) and remember the result under its reference, for the event log."""
    result = holds(ctx, condition)
    (ctx.held if result else ctx.unheld).add(ref)
    return result

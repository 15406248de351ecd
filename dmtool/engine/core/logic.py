"""Conditions every game's vocabulary shares: looking a condition up in the registry, and the
boolean combinators all, any and not over it."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.context import Context
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.registry import Rules


def holds(ctx: Context, condition: dict[str, Any]) -> bool:
    """Evaluate one condition through the evaluator its name is registered under."""
    [(name, value)] = condition.items()
    check = ctx.rules.conditions.get(name)
    if check is None:
        raise EngineFault(f"no evaluator for the condition '{name}'")
    return bool(check(ctx, value))


# Loops rather than all()/any() over generators: conditions are asked on every monster turn
# and event phase, and a generator costs more than the walk.
def _all(ctx: Context, items: list[dict[str, Any]]) -> bool:
    for c in items:  # noqa: SIM110
        if not holds(ctx, c):
            return False
    return True


def _any(ctx: Context, items: list[dict[str, Any]]) -> bool:
    for c in items:  # noqa: SIM110
        if holds(ctx, c):
            return True
    return False


def _not(ctx: Context, item: dict[str, Any]) -> bool:
    return not holds(ctx, item)


def register_combinators(rules: Rules) -> None:
    """Register all, any and not on a game's registry."""
    rules.condition("all")(_all)
    rules.condition("any")(_any)
    rules.condition("not")(_not)

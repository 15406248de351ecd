"""The effect interpreter's registry: one handler per effect of the content vocabulary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dmtool.engine.context import Ctx

Handler = Callable[[Ctx, Any], None]
EFFECTS: dict[str, Handler] = {}


def effect(name: str) -> Callable[[Handler], Handler]:
    """Register the handler of one effect (each name once)."""

    def register(fn: Handler) -> Handler:
        if name in EFFECTS:
            raise RuntimeError(f"effect {name} has two handlers")
        EFFECTS[name] = fn
        return fn

    return register


# Importing the modules fills the registry.
from dmtool.engine.effects import board, flow, monster, wanderer  # noqa: E402,F401

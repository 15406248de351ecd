"""What conditions come to in played games, for `dmtool graph --verify` to hold against DM315.

The engine's log says which entries were read and which entrances refused, but not what an
`if` or an option's condition came to. While verify plays, `observing()` puts a wrapper
around the engine's `if` and `choice` effects that asks each condition once more (through
the engine's own evaluator, which rolls no dice and changes nothing) and records the value
with the entry it is read in; the handlers are put back when the games are played.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.story import holds

# (entry read in, the condition as JSON) -> the values it came to
Seen = dict[tuple[int | None, str], set[bool]]


def key(entry: int | None, condition: Any) -> tuple[int | None, str]:
    return entry, json.dumps(condition, sort_keys=True)


@contextmanager
def observing() -> Iterator[Seen]:
    seen: Seen = {}
    effects = RULES.effects
    plain_if, plain_choice = effects["if"], effects["choice"]

    def note(ctx: Ctx, condition: Any) -> None:
        seen.setdefault(key(ctx.frame.entry, condition), set()).add(holds(ctx, condition))

    def observed_if(ctx: Ctx, spec: dict[str, Any]) -> None:
        note(ctx, spec["when"])
        plain_if(ctx, spec)

    def observed_choice(ctx: Ctx, options: list[dict[str, Any]]) -> None:
        for option in options:
            if "when" in option:
                note(ctx, option["when"])
        plain_choice(ctx, options)

    wrappers: dict[str, Callable[..., Any]] = {"if": observed_if, "choice": observed_choice}
    effects.update(wrappers)
    try:
        yield seen
    finally:
        effects.update({"if": plain_if, "choice": plain_choice})

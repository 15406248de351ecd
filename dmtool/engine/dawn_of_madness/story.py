"""The interpreter of the content vocabulary: effect lists through the registry (conditions
through the core's `holds`), storybook entries, encounters, and death inside them."""

from __future__ import annotations

from typing import Any, Final

from dmtool.engine.core.logic import holds
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.errors import EngineFault

__all__ = ["MAX_NESTING", "encounter", "holds", "resolve_entry", "run_effects"]

# Effect blocks open at once in one encounter (each `goto` opens one inside the last): a
# story whose entries lead only to each other would otherwise nest until the interpreter's
# stack runs out, which a compiled engine does not survive.
MAX_NESTING: Final = 200


def run_effects(ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    """Resolve effects in order through their handlers.

    When the encounter's wanderer dies, the block of effects being resolved at that moment
    finishes (without following links), and the encounter ends when control returns to an
    enclosing block.
    """
    handlers = ctx.rules.effects
    frame = ctx.frame
    frame.depth += 1
    mine = frame.depth
    if mine > MAX_NESTING:
        frame.depth -= 1
        raise EngineFault(f"the story nests more than {MAX_NESTING} blocks of effects in one "
                          f"encounter (entry {frame.entry}): its entries lead on to each other "
                          "without an end")
    # `ctx.halted()` written out: it is asked before every effect (`frame` is `ctx.frame`
    # whenever control is back in this loop: handlers restore the frames they open).
    state = ctx.state
    try:
        for effect in effects:
            if (state.outcome != "ongoing" and not ctx.epilogue) or frame.ended:
                return
            if frame.death_depth is not None:
                if mine < frame.death_depth:
                    frame.ended = True
                    return
                if "goto" in effect:
                    continue
            [(name, value)] = effect.items()
            handler = handlers.get(name)
            if handler is None:
                raise EngineFault(f"no handler for the effect '{name}'")
            handler(ctx, value)
    finally:
        frame.depth -= 1


def resolve_entry(ctx: Ctx, number: int) -> None:
    """Read one storybook entry: check its entrance condition, then resolve its effects."""
    entry = ctx.catalog.entries.get(number)
    if entry is None:
        raise EngineFault(f"the storybook has no entry {number}")
    gate = entry.get("entrance")
    if gate and "when" in gate and not holds(ctx, gate["when"]):
        ctx.emit("entrance_refused", entry=number)
        return
    if number not in ctx.state.visited:
        ctx.state.visited.append(number)
    ctx.emit("entry", entry=number, wanderer=ctx.who)
    previous = ctx.frame.entry
    ctx.frame.entry = number
    try:
        run_effects(ctx, entry.get("effects", []))
    finally:
        ctx.frame.entry = previous


def encounter(ctx: Ctx, wanderer: str, number: int, *, summoned: bool = False,
              card: str | None = None) -> None:
    """A wanderer enters an encounter; a summoned dead wanderer counts as alive inside it."""
    frame = Frame("encounter", wanderer, summoned)
    ctx.emit("encounter_started", wanderer=wanderer, entry=number, card=card, summoned=summoned)
    # `with ctx.in_frame(frame), ctx.acting(who=wanderer)` written out: a game enters dozens
    # of encounters, and each manager costs an object and two calls made from C.
    outer, who, monster = ctx.frame, ctx.who, ctx.monster
    ctx.outer.append(outer)
    ctx.frame, ctx.who, ctx.monster = frame, wanderer, None
    try:
        resolve_entry(ctx, number)
    finally:
        ctx.frame, ctx.who, ctx.monster = outer, who, monster
        ctx.outer.pop()
    reason = "death" if frame.death_depth is not None else "end" if frame.ended else "done"
    ctx.emit("encounter_ended", wanderer=wanderer, entry=number, reason=reason)

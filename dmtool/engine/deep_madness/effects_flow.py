"""Effects that steer resolution: for each investigator, die rolls, rules that last a while
(round modifiers), and revealing infection cards."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import filth
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.vocabulary import holds, run_effects

effect = RULES.effect
SIX_AS_ZERO = "six-counts-as-zero"


@effect("each_investigator")
def _each(ctx: Ctx, spec: dict[str, Any]) -> None:
    """In activation order, each living investigator who meets the condition (judged for
    all of them first, so one's effects do not change who else takes part)."""
    chosen = []
    for inv in ctx.state.living():
        with ctx.scoped(inv.id):
            if "where" not in spec or holds(ctx, spec["where"]):
                chosen.append(inv.id)
    for iid in chosen:
        if ctx.state.outcome != "ongoing":
            return
        with ctx.scoped(iid):
            run_effects(ctx, spec["effects"])


@effect("roll")
def _roll(ctx: Ctx, spec: dict[str, Any]) -> None:
    inv = ctx.scope("roll")
    result = ctx.dice.roll(inv.id, spec["die"], f"roll for a {spec['on']}")
    hit = result == spec["on"]
    ctx.emit("die_rolled", investigator=inv.id, die=spec["die"], result=result, hit=hit)
    if hit:
        run_effects(ctx, spec["effects"])


def roll_number(ctx: Ctx, who: str, die: str, why: str) -> int:
    """A numeric roll; a rule in force may make a six count as zero for this roller."""
    value: int = ctx.dice.roll(who, die, why, number=True)
    if value == 6 and die == "d6" and bound(ctx, SIX_AS_ZERO, who):
        ctx.emit("modified_roll", investigator=who, rolled=6, counts=0, modifier=SIX_AS_ZERO)
        return 0
    return value


def bound(ctx: Ctx, modifier: str, who: str) -> bool:
    """Whether a modifier in force binds this investigator now (its condition is read
    whenever it matters, so an investigator who gains the token later is bound too)."""
    for active in ctx.state.modifiers:
        if active["modifier"] != modifier:
            continue
        condition = active.get("applies_to")
        if condition is None:
            return True
        with ctx.scoped(who):
            if holds(ctx, condition):
                return True
    return False


@effect("round_modifier")
def _round_modifier(ctx: Ctx, spec: dict[str, Any]) -> None:
    """A rule in force: until the round ends when the rulebook says so; a duration the
    rulebook does not print is kept as not printed (the engine never ends it)."""
    until = ctx.state.round if spec.get("duration", "round") == "round" else None
    entry = {"modifier": spec["modifier"], "until_round": until,
             "duration": spec.get("duration", "round")}
    if "applies_to" in spec:
        entry["applies_to"] = spec["applies_to"]
    ctx.state.modifiers.append(entry)
    ctx.emit("modifier_in_force", modifier=spec["modifier"], duration=entry["duration"])


@effect("reveal_infection_card")
def _reveal(ctx: Ctx, spec: dict[str, Any]) -> None:
    state = ctx.state
    if spec["who"] == "every-face-down":
        for inv in list(state.investigators.values()):
            if ctx.state.outcome == "ongoing":
                filth.reveal(ctx, inv, why="every face-down card")
        return
    down = {i.id: len(i.infection_card.filth_cards) for i in state.investigators.values()
            if i.infection_card is not None and not i.infection_card.face_up}
    if not down:
        ctx.emit("not_resolved", effect="reveal_infection_card", reason="no face-down card")
        return
    most = max(down.values())
    tied = [iid for iid, n in down.items() if n == most]
    while len(tied) > 1:  # tied investigators roll until one alone has the lowest result
        rolls = {iid: roll_number(ctx, iid, "d6", "infection card tie") for iid in tied}
        ctx.emit("tie_rolls", rolls=rolls)
        low = min(rolls.values())
        tied = [iid for iid, n in rolls.items() if n == low]
    filth.reveal(ctx, state.investigators[tied[0]], why="most face-down filth cards")

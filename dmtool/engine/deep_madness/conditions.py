"""The conditions of the chapter vocabulary, evaluated against the chapter state and the
investigator in scope."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.logic import register_combinators
from dmtool.engine.deep_madness import things
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.vocabulary import holds

condition = RULES.condition
register_combinators(RULES)


@condition("every_investigator")
def _every(ctx: Ctx, item: dict[str, Any]) -> bool:
    """Every investigator of the game (the killed ones too: they are still investigators
    of the game; a killed investigator loses Rise of Dagon chapters anyway)."""
    found = [i.id for i in ctx.state.investigators.values()]
    results = []
    for iid in found:
        with ctx.scoped(iid):
            results.append(holds(ctx, item))
    return bool(found) and all(results)


@condition("any_investigator")
def _any_investigator(ctx: Ctx, item: dict[str, Any]) -> bool:
    for iid in list(ctx.state.investigators):
        with ctx.scoped(iid):
            if holds(ctx, item):
                return True
    return False


@condition("count")
def _count(ctx: Ctx, spec: dict[str, Any]) -> bool:
    found = things.count(ctx, spec["of"], spec["in"])
    if "at_least" in spec:
        least = things.threshold(ctx, spec["at_least"])
        if least is None or found < least:
            return False
    if "at_most" in spec:
        most = things.threshold(ctx, spec["at_most"])
        if most is None or found > most:
            return False
    return True


@condition("same_space")
def _same_space(ctx: Ctx, thing: dict[str, Any]) -> bool:
    inv = ctx.scope("same_space")
    return things.in_space(ctx, inv.space, thing, held_counts=bool(thing.get("held_counts")),
                           besides=inv.id)


@condition("adjacent_space")
def _adjacent_space(ctx: Ctx, thing: dict[str, Any]) -> bool:
    inv = ctx.scope("adjacent_space")
    if inv.space is None:
        return False
    return any(things.in_space(ctx, s, thing) for s in ctx.catalog.board.neighbours(inv.space))


@condition("in_room")
def _in_room(ctx: Ctx, spec: dict[str, Any]) -> bool:
    inv = ctx.scope("in_room")
    if inv.space is None:
        return False
    room = ctx.catalog.board.room_of(inv.space)
    if "room" in spec:
        return bool(room == spec["room"])
    return (room in ctx.state.devoured) == spec["devoured"]


@condition("infected")
def _infected(ctx: Ctx, flag: bool) -> bool:
    return ctx.scope("infected").infected == flag


@condition("path_connects")
def _path_connects(ctx: Ctx, spec: dict[str, Any]) -> bool:
    """A walk from the investigator's space (holding `from`) through spaces each holding a
    `via` marker (at least one) to a space next to one holding `to`. The walk found is kept
    for 'discard_path' (the players pick among equally short ones)."""
    inv = ctx.scope("path_connects")
    if not things.in_space(ctx, inv.space, spec["from"]) or inv.space is None:
        return False
    via = {"component": spec["via"]}
    walks = ctx.catalog.board.shortest_paths(
        inv.space, set(things.spaces_holding(ctx, spec["to"])),
        set(things.spaces_holding(ctx, via)))
    if not walks:
        return False
    options = tuple("-".join(w) for w in walks)
    picked = options[0] if len(options) == 1 or ctx.probing else ctx.answer(
        "path", "Which path of markers is used?", options)
    ctx.path = walks[options.index(picked)]
    return True


@condition("monster_dead")
def _monster_dead(ctx: Ctx, monster: str) -> bool:
    return ctx.state.killed.get(monster, 0) > 0


@condition("share_space")
def _share_space(ctx: Ctx, pair: list[dict[str, Any]]) -> bool:
    first, second = pair
    return any(things.in_space(ctx, s, first) and things.in_space(ctx, s, second)
               for s in ctx.catalog.board.spaces)


@condition("round_begins")
def _round_begins(ctx: Ctx, number: int) -> bool:
    return ctx.state.round_start and ctx.state.round == number


@condition("shortfall")
def _shortfall(ctx: Ctx, spec: dict[str, Any]) -> bool:
    """Something had to be taken from where none was left (recorded when it happened)."""
    return any(s["from"] == spec["from"] and _short_of(ctx, s, spec["of"])
               for s in ctx.state.shortfalls)


def _short_of(ctx: Ctx, short: dict[str, str], thing: dict[str, Any]) -> bool:
    if "component" in thing:
        return short.get("component") == thing["component"]
    monster = short.get("monster")
    if monster is None:
        return False
    kind = thing.get("monster_class")
    if kind == "any-except-horror-zero":
        return not ctx.catalog.horror_zero(monster)
    if kind == "non-epic":
        return not ctx.catalog.epic(monster)
    return kind == "any" or thing.get("monster") == monster


@condition("investigator_killed")
def _investigator_killed(ctx: Ctx, _: bool) -> bool:
    return bool(ctx.state.dead)


@condition("devour_marker_at_end")
def _devour_at_end(ctx: Ctx, _: bool) -> bool:
    spaces = ctx.state.devour_spaces
    return spaces is not None and ctx.state.devour_position >= spaces - 1

"""What a chapter's conditions and effects name ('things'): pieces and figures that match a
component, a monster or a class of monsters, and where they are counted."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.errors import EngineFault
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import (
    FILTH_CARDS,
    FILTH_TOKENS,
    INFECTION_CARDS,
    INFECTION_TOKENS,
    Figure,
    Investigator,
    Piece,
)

Thing = dict[str, Any]


def wanted_colour(ctx: Ctx, thing: Thing) -> str | None:
    """The colour a 'matching' thing must have: that of the same-named component the
    investigator in scope holds (None when they hold none, so nothing matches)."""
    held = ctx.scope("matching").holds(thing["matching"])
    return held[0].colour if held else None


def piece_matches(ctx: Ctx, piece: Piece, thing: Thing) -> bool:
    if thing.get("component") != piece.component:
        return False
    if "state" in thing and piece.state != thing["state"]:
        return False
    if "matching" in thing:
        colour = wanted_colour(ctx, thing)
        return colour is not None and piece.colour == colour
    return True


def figure_matches(ctx: Ctx, figure: Figure, thing: Thing) -> bool:
    if "monster" in thing:
        return figure.monster == thing["monster"]
    kind = thing.get("monster_class")
    if kind == "any":
        return True
    if kind == "non-epic":
        return not ctx.catalog.epic(figure.monster)
    if kind == "any-except-horror-zero":
        return not ctx.catalog.horror_zero(figure.monster)
    return False


def in_space(ctx: Ctx, space: str | None, thing: Thing, *, held_counts: bool = False,
             besides: str | None = None) -> bool:
    """Whether the thing lies (or stands) in the space; with `held_counts`, a matching piece
    held by another investigator in that space counts too."""
    if space is None:
        return False
    if "component" in thing:
        if any(piece_matches(ctx, p, thing) for p in ctx.state.pieces_at(space)):
            return True
        if held_counts:
            return any(piece_matches(ctx, p, thing) for i in ctx.state.living()
                       if i.space == space and i.id != besides for p in i.held)
        return False
    return any(figure_matches(ctx, f, thing) for f in ctx.state.figures_at(space))


def spaces_holding(ctx: Ctx, thing: Thing) -> list[str]:
    return [s for s in ctx.catalog.board.spaces if in_space(ctx, s, thing)]


def held_count(ctx: Ctx, inv: Investigator, thing: Thing) -> int:
    """How many of a component an investigator holds (tokens counted on the sheet too)."""
    component = thing.get("component")
    if component == INFECTION_TOKENS:
        return inv.infection_tokens
    if component == FILTH_TOKENS:
        return inv.filth_tokens
    if component == FILTH_CARDS:
        card = inv.infection_card
        return len(card.filth_cards) if card and not card.face_up else 0
    if component == INFECTION_CARDS:
        return 1 if inv.infection_card else 0
    if component is None:
        raise EngineFault(f"only components are held, not {thing}")
    return sum(1 for p in inv.held if piece_matches(ctx, p, thing))


def count(ctx: Ctx, thing: Thing, where: str) -> int:
    """The count of a thing in one of the places a 'count' condition names."""
    state = ctx.state
    if "rooms" in thing:
        rooms = set(ctx.catalog.board.rooms.values())
        devoured = rooms & set(state.devoured)
        return len(devoured) if thing["rooms"] == "devoured" else len(rooms - devoured)
    if where == "held":
        return held_count(ctx, ctx.scope("count held"), thing)
    if where == "held_total":
        return sum(held_count(ctx, i, thing) for i in state.investigators.values())
    if where in ("board", "game"):
        if "component" not in thing:
            return sum(1 for f in state.figures.values() if figure_matches(ctx, f, thing))
        found = sum(1 for pieces in state.spaces.values() for p in pieces
                    if piece_matches(ctx, p, thing))
        if where == "game":
            found += sum(held_count(ctx, i, thing) for i in state.investigators.values())
        return found
    if where == "killed":
        return sum(n for m, n in state.killed.items() if _monster_in(ctx, m, thing))
    if where == "reserve":
        return sum(len(v) for m, v in state.reserve.items() if _monster_in(ctx, m, thing))
    if where == "pool":
        return sum(1 for p in state.supply.get(thing.get("component", ""), [])
                   if piece_matches(ctx, p, thing))
    if where == "removed":
        return state.removed.get(thing.get("component", ""), 0)
    raise EngineFault(f"cannot count in '{where}'")


def _monster_in(ctx: Ctx, monster: str, thing: Thing) -> bool:
    return figure_matches(ctx, Figure("-", monster, "-"), thing)


def threshold(ctx: Ctx, value: Any) -> int | None:
    """A threshold's number for this game; None when the rulebook prints none for this many
    investigators (the condition then cannot hold)."""
    if isinstance(value, int):
        return value
    by = value.get("by_investigators", {})
    found = by.get(str(len(ctx.state.investigators)))
    return int(found) if found is not None else None

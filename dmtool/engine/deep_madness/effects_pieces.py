"""Effects on tokens and markers: gaining, discarding, removing from the game, flipping,
placing, and discarding a path of markers."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import special, supply, things
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Investigator, Piece
from dmtool.engine.deep_madness.registry import RULES

effect = RULES.effect


@effect("none")
def _none(ctx: Ctx, _: Any) -> None:
    ctx.emit("no_effect")


@effect("gain")
def _gain(ctx: Ctx, spec: dict[str, Any]) -> None:
    inv = ctx.scope("gain")
    component, amount = spec["component"], int(spec.get("count", 1))
    hook = ctx.rules.hooks.get(f"gain:{component}")
    if hook is not None:  # filth, infection: pieces that follow their own rules
        hook(ctx, inv, amount)
        return
    asked = component
    for _ in range(amount):
        component = special.gained_instead(ctx, asked) or ""
        if not component:
            return
        limit = spec.get("max_held")
        if limit is not None and len(inv.holds(component)) >= limit:
            ctx.emit("not_resolved", effect="gain", reason=f"{inv.id} holds {limit} already")
            return
        piece = _from_space(ctx, inv, component) if spec.get("from") == "space" else \
            supply.take(ctx, component, colour=_colour_for(ctx, component))
        if piece is None:
            return
        inv.held.append(piece)
        ctx.emit("gained", investigator=inv.id, component=component, colour=piece.colour)


def _colour_for(ctx: Ctx, component: str) -> str | None:
    """A coloured piece taken right after matching a colour is of that colour."""
    pool = ctx.state.supply.get(component)
    if ctx.colour is not None and pool and any(p.colour == ctx.colour for p in pool):
        return ctx.colour
    return None


def _from_space(ctx: Ctx, inv: Investigator, component: str) -> Piece | None:
    lying = [p for p in ctx.state.pieces_at(inv.space) if p.component == component]
    if not lying:
        ctx.emit("not_resolved", effect="gain", reason=f"no {component} in {inv.space}")
        return None
    options = tuple(dict.fromkeys(str(p.colour) for p in lying))
    pick = options[0] if len(options) == 1 else ctx.answer(
        "piece", f"Which {component} does {inv.id} take?", options)
    piece = next(p for p in lying if str(p.colour) == pick)
    ctx.state.spaces[inv.space or ""].remove(piece)
    return piece


@effect("discard")
def _discard(ctx: Ctx, spec: dict[str, Any]) -> None:
    inv = ctx.scope("discard")
    component = spec["component"]
    if spec.get("from") == "space":
        lying = [p for p in ctx.state.pieces_at(inv.space) if p.component == component]
        for piece in lying[:1]:
            ctx.state.spaces[inv.space or ""].remove(piece)
            supply.give_back(ctx, piece)
            ctx.emit("discarded", component=component, space=inv.space)
        return
    special = ctx.rules.hooks.get(f"discard:{component}")
    held = inv.holds(component)
    amount = len(held) if spec.get("count") == "all" else int(spec.get("count", 1))
    if special is not None:
        special(ctx, inv, amount)
        return
    for piece in held[:amount]:
        inv.held.remove(piece)
        supply.give_back(ctx, piece)
        ctx.emit("discarded", investigator=inv.id, component=component, colour=piece.colour)


@effect("remove_from_game")
def _remove(ctx: Ctx, spec: dict[str, Any]) -> None:
    inv = ctx.scope("remove_from_game")
    component, which = spec["component"], spec["which"]
    want = {"component": component, **({"state": spec["state"]} if "state" in spec else {})}
    if which == "own":
        for piece in inv.holds(component)[:1]:
            inv.held.remove(piece)
            supply.remove_from_game(ctx, piece)
    elif which == "space":
        lying = [p for p in ctx.state.pieces_at(inv.space) if things.piece_matches(ctx, p, want)]
        for piece in lying[:1]:
            ctx.state.spaces[inv.space or ""].remove(piece)
            supply.remove_from_game(ctx, piece)
    else:
        _remove_matching(ctx, inv, component)


def _remove_matching(ctx: Ctx, inv: Investigator, component: str) -> None:
    """The investigator's piece and the one of the same colour in their space (lying there,
    or held by another investigator standing there); the colour is remembered."""
    mine = inv.holds(component)
    if not mine:
        return
    colour = mine[0].colour
    inv.held.remove(mine[0])
    supply.remove_from_game(ctx, mine[0])
    lying = [p for p in ctx.state.pieces_at(inv.space)
             if p.component == component and p.colour == colour]
    if lying:
        ctx.state.spaces[inv.space or ""].remove(lying[0])
        supply.remove_from_game(ctx, lying[0])
    else:
        for other in ctx.state.living():
            held = [p for p in other.holds(component) if p.colour == colour]
            if other.id != inv.id and other.space == inv.space and held:
                other.held.remove(held[0])
                supply.remove_from_game(ctx, held[0])
                break
    ctx.colour = colour


@effect("flip")
def _flip(ctx: Ctx, spec: dict[str, Any]) -> None:
    component, to = spec["component"], spec["to"]
    if spec.get("where", "own_space") == "board":
        spaces = list(ctx.state.spaces)
    else:
        spaces = [ctx.scope("flip").space or ""]
    for space in spaces:
        for piece in ctx.state.pieces_at(space):
            if piece.component == component and piece.state != to:
                piece.state = to
                ctx.emit("flipped", component=component, space=space, to=to)
                if spec.get("where", "own_space") != "board":
                    return


@effect("place")
def _place(ctx: Ctx, spec: dict[str, Any]) -> None:
    component, where = spec["component"], spec["where"]
    inv = ctx.scope("place") if where != "undevoured_room" else None
    space = _where(ctx, where, inv)
    if space is None:
        ctx.emit("not_resolved", effect="place", reason=f"nowhere to place {component}")
        return
    own = inv.holds(component) if inv is not None else []
    if own:
        piece: Piece | None = own[0]
        inv.held.remove(own[0])  # type: ignore[union-attr]
        if own[0].colour is None:  # one's own marker shows whose it is (who placed it)
            own[0].colour = inv.colour  # type: ignore[union-attr]
    else:
        piece = supply.take(ctx, component, why="place")
    if piece is None:
        return
    ctx.state.spaces.setdefault(space, []).append(piece)
    ctx.emit("piece_placed", component=component, space=space, colour=piece.colour)


def _where(ctx: Ctx, where: str, inv: Investigator | None) -> str | None:
    board = ctx.catalog.board
    if where == "own_space":
        return inv.space if inv is not None else None
    if where == "own_room":  # the room the investigator stands in: their own space
        return inv.space if inv is not None else None
    rooms = sorted(set(board.rooms.values()) - set(ctx.state.devoured))
    if not rooms:
        return None
    room = rooms[0] if len(rooms) == 1 else ctx.answer("room", "Which undevoured room?",
                                                       tuple(rooms))
    return _pick_space(ctx, board.spaces_in(room))


def _pick_space(ctx: Ctx, spaces: list[str]) -> str:
    return spaces[0] if len(spaces) == 1 else ctx.answer(
        "space", "The players choose a space in the room", tuple(spaces))


@effect("discard_path")
def _discard_path(ctx: Ctx, spec: dict[str, Any]) -> None:
    component = spec["via"]
    for space in ctx.path:
        lying = [p for p in ctx.state.pieces_at(space) if p.component == component]
        for piece in lying[:1]:
            ctx.state.spaces[space].remove(piece)
            supply.give_back(ctx, piece)
            ctx.emit("discarded", component=component, space=space)
    ctx.path = []

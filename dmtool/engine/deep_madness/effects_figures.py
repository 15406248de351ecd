"""Effects on figures and the board: spawning, moving and transporting figures, moving home,
devouring and flooding rooms, and swapping a monster card on the activation track."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import figures, special, things
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Figure, Piece
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.vocabulary import run_effects

effect = RULES.effect
ROOM_DECK = "room"


@effect("spawn")
def _spawn(ctx: Ctx, spec: dict[str, Any]) -> None:
    if spec.get("timing") == "end-of-spawn-phase":
        pending = {k: v for k, v in spec.items() if k != "timing"}
        ctx.state.pending.append({"at": "end-of-spawn-phase", "spawn": pending})
        ctx.emit("spawn_waiting", monster=spec["monster"], until="end of the spawn phase")
        return
    used: set[str] = set()
    for _ in range(int(spec.get("count", 1))):
        if ctx.state.outcome != "ongoing":
            return
        space = _spawn_space(ctx, spec.get("at"), used)
        figure = figures.spawn(ctx, spec["monster"], space=space)
        if figure is None:
            continue
        used.add(figure.space)
        with ctx.scoped(figure=figure.id):
            run_effects(ctx, spec.get("then_each", []))


def _spawn_space(ctx: Ctx, at: Any, used: set[str]) -> str | None:
    if at is None:
        return None
    if at == "devoured-room":
        room = ctx.room
        return ctx.catalog.board.spawn_spaces.get(room) if room is not None else None
    if at == "different-spaces":
        for _ in range(len(ctx.state.decks.get(figures.DEVOURED_DECK, [])) or 1):
            space = figures.spawn_space(ctx)
            if space not in used:
                return space
        return None
    found = things.spaces_holding(ctx, at)
    return found[0] if found else None


@effect("move_figure")
def _move_figure(ctx: Ctx, spec: dict[str, Any]) -> None:
    thing = spec["figure"]
    for _ in range(int(spec.get("count", 1))):
        mover = _mover(ctx, thing, bool(spec.get("from_reserve")))
        if mover is None:
            ctx.emit("not_resolved", effect="move_figure", reason=f"no {thing} to move")
            return
        if "to" in spec or "to_space" in spec:
            _put(ctx, mover, _destination(ctx, spec))
        else:
            goals = things.spaces_holding(ctx, spec["toward"])
            _step(ctx, mover, goals, int(spec.get("spaces", 1)))


def _mover(ctx: Ctx, thing: dict[str, Any], from_reserve: bool) -> Figure | Piece | None:
    if "component" in thing:
        options = [(s, p) for s, ps in ctx.state.spaces.items() for p in ps
                   if things.piece_matches(ctx, p, thing)]
        if not options:
            return None
        keys = tuple(f"{s}#{i}" for i, (s, _) in enumerate(options))
        pick = keys[0] if len(keys) == 1 else ctx.answer(
            "figure", f"Which {thing['component']} moves?", keys)
        return options[keys.index(pick)][1]
    found = [f for f in ctx.state.figures.values() if things.figure_matches(ctx, f, thing)]
    if found:
        return found[0] if len(found) == 1 else ctx.state.figures[ctx.answer(
            "figure", "Which figure moves?", tuple(f.id for f in found))]
    if from_reserve and "monster" in thing:
        return Figure("", thing["monster"], "")
    return None


def _destination(ctx: Ctx, spec: dict[str, Any]) -> str | None:
    if "to" in spec:
        found = things.spaces_holding(ctx, spec["to"])
        return found[0] if found else None
    if spec["to_space"] == "own-start-space":
        return ctx.scope("move to start").start
    board, room = ctx.catalog.board, ctx.room
    spaces = board.spaces_in(room) if room is not None else []
    near = [(min((d for i in ctx.state.living() if i.space is not None
                  for d in [board.range(s, i.space)] if d is not None), default=999), s)
            for s in spaces]
    if not near:
        return None
    best = min(d for d, _ in near)
    options = tuple(s for d, s in near if d == best)
    return options[0] if len(options) == 1 else ctx.answer(
        "space", "Which equally near space?", options)


def _put(ctx: Ctx, mover: Figure | Piece, space: str | None) -> None:
    if space is None:
        ctx.emit("not_resolved", effect="move_figure", reason="no destination")
        return
    if isinstance(mover, Figure):
        if not mover.id:  # from the reserve
            figures.spawn(ctx, mover.monster, space=space)
            return
        start, mover.space = mover.space, space
        ctx.emit("figure_moved", figure=mover.id, **{"from": start}, to=space, transport=True)
        return
    for where, pieces in ctx.state.spaces.items():
        if mover in pieces:
            pieces.remove(mover)
            ctx.state.spaces.setdefault(space, []).append(mover)
            ctx.emit("piece_moved", component=mover.component, **{"from": where}, to=space)
            special.piece_entered(ctx, mover, space)
            return


def _step(ctx: Ctx, mover: Figure | Piece, goals: list[str], spaces: int) -> None:
    if isinstance(mover, Figure):
        figures.move_toward(ctx, mover, goals, spaces)
        return
    here = next(s for s, ps in ctx.state.spaces.items() if mover in ps)
    shadow = Figure("piece", mover.component, here)
    figures.move_toward(ctx, shadow, goals, spaces)
    _put(ctx, mover, shadow.space)


@effect("move_self")
def _move_self(ctx: Ctx, where: str) -> None:
    inv = ctx.scope("move_self")
    start, inv.space = inv.space, inv.start
    ctx.emit("investigator_moved", investigator=inv.id, **{"from": start}, to=inv.space,
             forced=True)


@effect("devour_room")
def _devour_room(ctx: Ctx, spec: dict[str, Any]) -> None:
    """The room whose card tops the room deck is devoured (its card joins the devoured
    deck); the effects that follow are about that room."""
    deck = ctx.state.decks.get(ROOM_DECK, [])
    if not deck:
        ctx.emit("not_resolved", effect="devour_room", reason="the room deck is empty")
        return
    room = int(deck.pop(0))
    ctx.state.devoured.append(room)
    ctx.state.decks.setdefault(figures.DEVOURED_DECK, []).append(room)
    ctx.emit("room_devoured", room=room)
    with ctx.scoped(room=room):
        special.at_moment(ctx, "room-devoured")
        run_effects(ctx, spec.get("then", []))


@effect("replace_monster_card")
def _replace_card(ctx: Ctx, spec: dict[str, Any]) -> None:
    track = ctx.state.track
    if spec["from"] not in track:
        ctx.emit("not_resolved", effect="replace_monster_card",
                 reason=f"{spec['from']} is not on the activation track")
        return
    track[track.index(spec["from"])] = spec["to"]
    ctx.emit("monster_card_replaced", **{"from": spec["from"]}, to=spec["to"])


@effect("flood_rooms")
def _flood_rooms(ctx: Ctx, spec: dict[str, Any]) -> None:
    board = ctx.catalog.board
    rooms = sorted({board.room_of(s) for s in things.spaces_holding(ctx, spec["containing"])})
    for room in rooms:
        for space in board.spaces_in(room):
            if space not in ctx.state.flooded:
                ctx.state.flooded.append(space)
        ctx.emit("room_flooded", room=room)

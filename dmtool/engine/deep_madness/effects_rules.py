"""Effects and conditions the chapters' special rules use: an investigator killed on the
spot, pieces discarded from the space of the figure in scope, who sees whom, figures
spawned along the path to the loudest investigator, markers returned to their owners, and
a devoured room restored."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import figures, special, supply, things
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.effects_flow import bound
from dmtool.engine.deep_madness.registry import RULES


@RULES.effect("die")
def _die(ctx: Ctx, spec: dict[str, Any]) -> None:
    figures.kill_investigator(ctx, ctx.scope("die"), cause=str(spec["cause"]))


@RULES.effect("discard_here")
def _discard_here(ctx: Ctx, spec: dict[str, Any]) -> None:
    """Every piece of the component in the space of the figure in scope goes to its pool."""
    figure = ctx.state.figures.get(ctx.figure or "")
    if figure is None:
        ctx.emit("not_resolved", effect="discard_here", reason="no figure in scope")
        return
    pieces = ctx.state.spaces.get(figure.space, [])
    for piece in [p for p in pieces if p.component == spec["component"]]:
        pieces.remove(piece)
        supply.give_back(ctx, piece)
        ctx.emit("discarded", component=piece.component, space=figure.space)


@RULES.condition("seen_by_figure")
def _seen_by_figure(ctx: Ctx, _: bool) -> bool:
    """The investigator in scope stands in the sight of the figure in scope (the monster's
    sight: a Hydra sees past closed hatches, not locked ones)."""
    inv, figure = ctx.scope("seen_by_figure"), ctx.state.figures.get(ctx.figure or "")
    if figure is None or inv.space is None:
        return False
    return ctx.catalog.board.line_of_sight(figure.space, inv.space, viewer=figure.monster,
                                           flooded=ctx.state.flooded)


@RULES.condition("sees")
def _sees(ctx: Ctx, thing: dict[str, Any]) -> bool:
    """The investigator in scope has a figure of the monster in their own line of sight."""
    inv = ctx.scope("sees")
    if inv.space is None:
        return False
    board = ctx.catalog.board
    return any(things.figure_matches(ctx, f, thing)
               and board.line_of_sight(inv.space, f.space, viewer="investigator",
                                      flooded=ctx.state.flooded)
               for f in ctx.state.figures.values())


@RULES.effect("spawn_along_path")
def _spawn_along_path(ctx: Ctx, spec: dict[str, Any]) -> None:
    """X figures of a monster along the shortest path from the figure in scope to the
    investigator holding the most of a component (X is that count; ties go to the nearest
    investigator, then to the players): one per space from the space next to the figure,
    the rest in the investigator's space, which alone may hold several."""
    source = ctx.state.figures.get(ctx.figure or "")
    if source is None:
        ctx.emit("not_resolved", effect="spawn_along_path", reason="no figure in scope")
        return
    board, thing = ctx.catalog.board, {"component": spec["of"]}
    counts = {i.id: _count_as(ctx, i.id, spec, things.held_count(ctx, i, thing))
              for i in ctx.state.living() if i.space is not None}
    most = max(counts.values(), default=0)
    if most <= 0:
        ctx.emit("not_resolved", effect="spawn_along_path", reason=f"nobody holds {spec['of']}")
        return
    loudest = [i for i in ctx.state.living() if counts.get(i.id) == most]
    near = min(board.distance(source.space, i.space or "") or 0 for i in loudest)
    tied = tuple(i.id for i in loudest if (board.distance(source.space, i.space or "") or 0)
                 == near)
    target = ctx.investigator(tied[0] if len(tied) == 1 else ctx.answer(
        "investigator", "Which equally loud and near investigator is the target?", tied))
    path, here = [], source.space
    while here != target.space:
        options = tuple(board.steps_toward(here, target.space or ""))
        if not options:
            break
        here = options[0] if len(options) == 1 else ctx.answer(
            "step", "Which equally short path do the figures spawn along?", options)
        path.append(here)
    taken = {f.space for f in ctx.state.figures.values() if f.monster == spec["monster"]}
    slots = [s for s in path[:-1] if s not in taken] + path[-1:]
    for n in range(most):
        if ctx.state.outcome != "ongoing" or not slots:
            return
        figures.spawn(ctx, spec["monster"], space=slots[min(n, len(slots) - 1)])


def _count_as(ctx: Ctx, who: str, spec: dict[str, Any], held: int) -> int:
    """What the investigator counts as holding: a modifier in force may raise it."""
    raised = spec.get("treated_as")
    if raised is not None and bound(ctx, raised["modifier"], who):
        return max(held, int(raised["count"]))
    return held


def _owner(ctx: Ctx, colour: str | None) -> str | None:
    return next((i.id for i in ctx.state.investigators.values() if i.colour == colour), None)


@RULES.effect("return_to_owner")
def _return_to_owner(ctx: Ctx, spec: dict[str, Any]) -> None:
    """Pieces go back to the investigator who placed them (their colour says whose): those
    lying in the room in scope, or the one of the investigator in scope, wherever it lies."""
    component = spec["component"]
    if spec["from"] == "room":
        room = ctx.room
        spaces = ctx.catalog.board.spaces_in(room) if room is not None else []
        colours = None
    else:
        spaces, colours = list(ctx.state.spaces), {ctx.scope("return_to_owner").colour}
    for space in spaces:
        pieces = ctx.state.spaces.get(space, [])
        for piece in [p for p in pieces if p.component == component
                      and (colours is None or p.colour in colours)]:
            owner = _owner(ctx, piece.colour)
            if owner is None:
                continue
            pieces.remove(piece)
            ctx.investigator(owner).held.append(piece)
            ctx.emit("returned", component=component, space=space, investigator=owner)


@RULES.effect("restore_room")
def _restore_room(ctx: Ctx, _: object) -> None:
    """The devoured room the investigator in scope stands in turns back to its normal side:
    the pieces the chapter's restoration rule names are discarded from it, its spaces are
    dry again, and its card leaves the devoured deck."""
    inv = ctx.scope("restore_room")
    board = ctx.catalog.board
    room = board.room_of(inv.space) if inv.space is not None else None
    rules = [body for _, body in special.clauses(ctx.catalog, "restoration")]
    if room is None or room not in ctx.state.devoured or not rules:
        ctx.emit("not_resolved", effect="restore_room",
                 reason=f"{inv.id} stands in no devoured room" if rules else
                 "the chapter has no restoration rule")
        return
    discard = {c for body in rules for c in body["discard"]}
    for space in board.spaces_in(room):
        pieces = ctx.state.spaces.get(space, [])
        for piece in [p for p in pieces if p.component in discard]:
            pieces.remove(piece)
            supply.give_back(ctx, piece)
        if space in ctx.state.flooded:
            ctx.state.flooded.remove(space)
    ctx.state.devoured.remove(room)
    deck = ctx.state.decks.get(figures.DEVOURED_DECK, [])
    if room in deck:
        deck.remove(room)
    ctx.emit("room_restored", room=room, investigator=inv.id)


@RULES.condition("on_spawn_marker")
def _on_spawn_marker(ctx: Ctx, _: bool) -> bool:
    """The investigator in scope stands on the spawn space of a devoured room."""
    inv = ctx.scope("on_spawn_marker")
    return inv.space is not None and inv.space in special.spawn_marker_spaces(ctx)


@RULES.condition("own_piece_in")
def _own_piece_in(ctx: Ctx, spec: dict[str, Any]) -> bool:
    """The piece of the investigator in scope (their colour) lies in a room of that state."""
    inv, board = ctx.scope("own_piece_in"), ctx.catalog.board
    devoured = spec["rooms"] == "devoured"
    return any(p.component == spec["component"] and p.colour == inv.colour
               and (board.room_of(space) in ctx.state.devoured) == devoured
               for space, pieces in ctx.state.spaces.items() for p in pieces)


@RULES.effect("place_on_card")
def _place_on_card(ctx: Ctx, spec: dict[str, Any]) -> None:
    """A token goes onto a monster card (where a rule may later take it from)."""
    card = spec["card"]
    ctx.state.on_cards[card] = ctx.state.on_cards.get(card, 0) + 1
    ctx.emit("placed_on_card", component=spec["component"], card=card,
             total=ctx.state.on_cards[card])

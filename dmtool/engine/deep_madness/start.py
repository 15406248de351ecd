"""The start of a chapter: the special setup steps the chapter gives as data, the markers
its board places in named rooms, and the domain rule when an investigator makes it
compulsory."""

from __future__ import annotations

from dmtool.engine.deep_madness import domain
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.records import Piece
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.steps import Step
from dmtool.engine.deep_madness.supply import take
from dmtool.engine.deep_madness.vocabulary import run_effects


@RULES.step("start")
def _start(ctx: Ctx, step_: Step) -> None:
    state = ctx.state
    if state.round != 1:
        raise Reject("bad_setup", "A chapter starts once, before its first round.")
    if domain.required(list(state.investigators.values())) and not state.domain_rule:
        state.domain_rule = True
        ctx.emit("domain_rule_required", investigators=[
            i.id for i in state.investigators.values() if i.character in domain.REQUIRED_BY])
    _board_markers(ctx)
    effects = ctx.catalog.chapter.get("special_setup", {}).get("effects", [])
    ctx.emit("chapter_started", chapter=ctx.catalog.id, setup_effects=len(effects))
    run_effects(ctx, effects)
    state.round_start = True


def _board_markers(ctx: Ctx) -> None:
    """Markers the board puts in named rooms go on the room's spawn space (or its first
    space), unless the described setup already placed that component."""
    board, state = ctx.catalog.board, ctx.state
    placed = {p.component for ps in state.spaces.values() for p in ps}
    for marker in ctx.catalog.chapter.get("board", {}).get("markers", []):
        component = marker["component"]
        if component in placed or not marker.get("rooms"):
            continue
        for room in marker["rooms"]:
            spaces = board.spaces_in(room)
            if not spaces:
                continue
            where = board.spawn_spaces.get(room, spaces[0])
            for _ in range(int(marker.get("count", 1))):
                if state.supply.get(component, True) == []:
                    ctx.emit("not_resolved", effect="place", reason=f"no {component} left")
                    break
                piece = take(ctx, component, why="board setup") or Piece(component)
                state.spaces.setdefault(where, []).append(piece)
                ctx.emit("piece_placed", component=component, space=where, colour=piece.colour)

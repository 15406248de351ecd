"""Effects and conditions the chapters' special rules use: an investigator killed on the
spot, pieces discarded from the space of the figure in scope, and who sees whom."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import figures, supply, things
from dmtool.engine.deep_madness.context import Ctx
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

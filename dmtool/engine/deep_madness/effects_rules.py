"""Effects and conditions the chapters' special rules use: an investigator killed on the
spot, pieces discarded from the space of the figure in scope, who sees whom, and figures
spawned along the path to the loudest investigator."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import figures, supply, things
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

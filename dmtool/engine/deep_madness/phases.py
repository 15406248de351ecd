"""System steps: a devouring-track hazard, the end of an activation, a monster's activation,
the end of a round, a spawn, a kill, the devour marker, measuring, and bare effects."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import figures, special
from dmtool.engine.deep_madness.actions import check_may_attack
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.steps import Step, figure, investigator, space
from dmtool.engine.deep_madness.vocabulary import run_effects

step = RULES.step


@step("hazard")
def _hazard(ctx: Ctx, step_: Step) -> None:
    """The hazard of one skull colour (or, on a track whose skulls carry no colour, the
    hazard by its number in the chapter's list)."""
    hazards = ctx.catalog.hazards()
    which = step_.arg("skull", step_.args)
    if isinstance(which, int):
        found = hazards[which - 1] if 1 <= which <= len(hazards) else None
    else:
        matching = [h for h in hazards if h["skull"] == which]
        found = matching[0] if len(matching) == 1 else None
    if found is None:
        shown = ", ".join(h["skull"] for h in hazards)
        raise Reject("no_hazard", f"No hazard '{which}' on this chapter's track ({shown}); "
                     "give a skull colour, or a number where skulls carry no colour.")
    ctx.emit("hazard", skull=found["skull"], number=hazards.index(found) + 1)
    run_effects(ctx, found["effects"])


@step("end_activation")
def _end_activation(ctx: Ctx, step_: Step) -> None:
    """The end of an activation: the rules that wait for it (filth, for one) resolve."""
    if step_.investigator is not None:
        inv = investigator(ctx, step_)
        ctx.emit("activation_ended", investigator=inv.id)
        for name, rule in sorted(ctx.rules.hooks.items()):
            if name.startswith("end_activation:investigator:"):
                rule(ctx, inv)
        special.end_of_activation(ctx, investigator=inv.id)
        inv.placed_token = False
        return
    mover = figure(ctx, step_.arg("figure", step_.args))
    ctx.emit("activation_ended", figure=mover.id)
    hook = ctx.rules.hooks.get(f"end_activation:figure:{mover.monster}")
    if hook is not None:
        hook(ctx, mover)
    special.end_of_activation(ctx, figure=mover)


@step("activate")
def _activate(ctx: Ctx, step_: Step) -> None:
    """A monster's activation, as far as the expansions print it: it moves `move` spaces
    toward its target (the nearest investigator it may go for), then its activation ends.
    Monster cards are not in our sources, so any other action is described by the fixture."""
    mover = figure(ctx, step_.arg("figure"))
    ctx.emit("activated", figure=mover.id, why="activation")
    spaces = int(step_.arg("move", 0))
    targets = [i.space for i in figures.target_of(ctx, mover) if i.space is not None]
    targets += [f.space for f in special.monster_targets(ctx, mover)]
    targets = special.hunt_goals(ctx, mover) or targets
    if spaces and targets:
        figures.move_toward(ctx, mover, targets, spaces)
    _end_activation(ctx, Step("end_activation", None, {"figure": mover.id}))


@step("end_round")
def _end_round(ctx: Ctx, step_: Step) -> None:
    """Effects waiting for the end of the round's spawn phase resolve, rules lasting the
    round end, and the next round begins."""
    state = ctx.state
    waiting = [p for p in state.pending if p["at"] == "end-of-spawn-phase"]
    state.pending = [p for p in state.pending if p not in waiting]
    for pending in waiting:
        run_effects(ctx, [{"spawn": pending["spawn"]}])
    special.end_of_round(ctx)
    ended = [m for m in state.modifiers if m.get("until_round") == state.round]
    state.modifiers = [m for m in state.modifiers if m not in ended]
    for modifier in ended:
        ctx.emit("modifier_ended", modifier=modifier["modifier"])
    state.round += 1
    state.round_start = True
    for inv in state.investigators.values():
        inv.placed_token = False
        inv.actions_taken = 0
    ctx.emit("round_began", round=state.round)


@step("spawn")
def _spawn(ctx: Ctx, step_: Step) -> None:
    """A monster must spawn (as a spawn card or a monster's action says)."""
    where = step_.arg("space")
    figures.spawn(ctx, str(step_.arg("monster")),
                  space=space(ctx, where) if where is not None else None,
                  colour=step_.arg("colour"))


@step("kill")
def _kill(ctx: Ctx, step_: Step) -> None:
    """A figure is killed (by the investigator named, if any)."""
    target = figure(ctx, step_.arg("figure", step_.args))
    killer = step_.arg("by")
    if killer is not None:
        inv = investigator(ctx, Step("kill", killer))
        check_may_attack(ctx, target.monster, target, inv)
    figures.kill(ctx, target, by=killer)


@step("advance_devour")
def _advance_devour(ctx: Ctx, step_: Step) -> None:
    state = ctx.state
    moved = int(step_.arg("spaces", step_.args or 1))
    last = (state.devour_spaces or 1) - 1
    state.devour_position = min(last, state.devour_position + moved) if state.devour_spaces \
        else state.devour_position + moved
    ctx.emit("devour_marker", position=state.devour_position, spaces=state.devour_spaces)


@step("measure")
def _measure(ctx: Ctx, step_: Step) -> None:
    """Distance, range and line of sight from one space to others, as separate answers."""
    board, start = ctx.catalog.board, space(ctx, step_.arg("from"))
    viewer = str(step_.arg("viewer", "investigator"))
    for target in step_.arg("to", []):
        there = space(ctx, target)
        ctx.emit("measured", **{"from": start}, to=there, distance=board.distance(start, there),
                 range=board.range(start, there),
                 line_of_sight=board.line_of_sight(start, there, viewer=viewer,
                                                   flooded=ctx.state.flooded))


@step("effect")
def _effect(ctx: Ctx, step_: Step) -> None:
    """Resolve effects of the vocabulary directly, for the investigator named (if any)."""
    effects: Any = step_.args if isinstance(step_.args, list) else [step_.args]
    if step_.investigator is not None:
        investigator(ctx, step_)
    with ctx.scoped(step_.investigator):
        run_effects(ctx, effects)

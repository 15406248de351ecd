"""Investigator steps: moving (never across a red line by choice), being moved (across any
line), investigate actions from the chapter, resting, enlightening, attacking, gaining a
token and being killed."""

from __future__ import annotations

from dmtool.engine.deep_madness import domain, figures, special, supply
from dmtool.engine.deep_madness.board import RED
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.effects_flow import bound
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.records import Investigator
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.steps import ACTIONS, Step, figure, investigator, space
from dmtool.engine.deep_madness.vocabulary import judge, run_effects

step = RULES.step
WOUND_PER_ACTION = "wound-per-action-in-unflooded-devoured-room"


def _route(ctx: Ctx, inv: Investigator, step_: Step) -> list[str]:
    if isinstance(step_.args, dict) and "path" in step_.args:
        return [space(ctx, s) for s in step_.args["path"]]
    return [space(ctx, step_.arg("to", step_.args))]


@step("move")
def _move(ctx: Ctx, step_: Step) -> None:
    """Voluntary movement, space by space along white lines."""
    inv = investigator(ctx, step_)
    board, here = ctx.catalog.board, inv.space
    for there in _route(ctx, inv, step_):
        if here is None or not board.adjacent(here, there):
            if here is not None and board.line(here, there) == RED:
                raise Reject("red_line", f"{here} and {there} are divided by a red space "
                             "line; figures cannot cross it by their own movement.")
            raise Reject("not_adjacent", f"{there} is not adjacent to {here}.")
        here = there
    start, inv.space = inv.space, here
    ctx.emit("investigator_moved", investigator=inv.id, **{"from": start}, to=here)
    after_action(ctx, inv, "move")


@step("force_move")
def _force_move(ctx: Ctx, step_: Step) -> None:
    """Involuntary movement (an effect moves the figure): any line may be crossed."""
    inv = investigator(ctx, step_)
    board, here = ctx.catalog.board, inv.space
    for there in _route(ctx, inv, step_):
        if here is None or there not in board.forced_neighbours(here):
            raise Reject("not_adjacent", f"{there} does not touch {here} across any line.")
        here = there
    start, inv.space = inv.space, here
    ctx.emit("investigator_moved", investigator=inv.id, **{"from": start}, to=here,
             forced=True)


@step("investigate")
def _investigate(ctx: Ctx, step_: Step) -> None:
    inv = investigator(ctx, step_)
    options = ctx.catalog.investigate()
    number = step_.arg("action", step_.args)
    if not isinstance(number, int) or not 1 <= number <= len(options):
        raise Reject("no_investigate", f"The chapter has {len(options)} investigate "
                     f"action(s); '{number}' is none of them.")
    action = options[number - 1]
    with ctx.scoped(inv.id, colour=None):
        if not judge(ctx, f"{ctx.catalog.id}/investigate/{number}", action["when"]):
            raise Reject("no_investigate", f"Investigate action {number} is not open to "
                         f"{inv.id} now: {' '.join(str(action['summary']).split())}")
        ctx.emit("investigated", investigator=inv.id, action=number)
        run_effects(ctx, action["effects"])
    after_action(ctx, inv, "investigate")


@step("rest")
def _rest(ctx: Ctx, step_: Step) -> None:
    inv = investigator(ctx, step_)
    domain.rest(ctx, inv)
    after_action(ctx, inv, "rest")


@step("enlighten")
def _enlighten(ctx: Ctx, step_: Step) -> None:
    inv = investigator(ctx, step_)
    domain.place_token(ctx, inv, str(step_.arg("card")), str(step_.arg("token")))


@step("attack")
def _attack(ctx: Ctx, step_: Step) -> None:
    """An attack's outcome, as described: the damage it deals to one figure."""
    inv = investigator(ctx, step_)
    target = figure(ctx, step_.arg("figure"))
    check_may_attack(ctx, target.monster, target, inv)
    ctx.emit("attacked", investigator=inv.id, figure=target.id)
    figures.wound(ctx, target, int(step_.arg("damage", 1)), by=inv.id)
    after_action(ctx, inv, "attack", ranged=bool(step_.arg("ranged", False)))


def check_may_attack(ctx: Ctx, monster: str, target: object, inv: Investigator) -> None:
    barred = special.attack_barred(ctx, monster)
    if barred is not None:
        raise Reject("may_not_attack", f"{getattr(target, 'id', target)} cannot be attacked "
                     f"now ({barred}).")
    rule = ctx.rules.hooks.get(f"may_attack:{monster}")
    if rule is not None and not rule(ctx, target, inv):
        raise Reject("not_your_shadow", f"{getattr(target, 'id', target)} is not "
                     f"{inv.id}'s to attack.")


@step("gain")
def _gain(ctx: Ctx, step_: Step) -> None:
    """A token or card gained (as some rule or card not in our sources gives it)."""
    inv = investigator(ctx, step_)
    component, amount = str(step_.arg("component")), int(step_.arg("count", 1))
    hook = ctx.rules.hooks.get(f"gain:{component}")
    if hook is not None:
        hook(ctx, inv, amount)
        return
    for _ in range(amount):
        with ctx.scoped(inv.id):
            taken = special.gained_instead(ctx, component)
        if taken is None:
            return
        piece = supply.take(ctx, taken, colour=step_.arg("colour"))
        if piece is None:
            return
        inv.held.append(piece)
        ctx.emit("gained", investigator=inv.id, component=taken, colour=piece.colour)


@step("exhaust_oxygen")
def _exhaust_oxygen(ctx: Ctx, step_: Step) -> None:
    """Oxygen exhausted (as the base game's drowning rules or a devoured effect ask)."""
    inv = investigator(ctx, step_)
    with ctx.scoped(inv.id):
        for _ in range(int(step_.arg("amount", 1))):
            special.exhaust_oxygen(ctx)


@step("mark")
def _mark(ctx: Ctx, step_: Step) -> None:
    """An investigator's ability that marks a monster (Regan Waite's second ability; her
    card is not legible, so only who may be marked is ruled here)."""
    inv = investigator(ctx, step_)
    target = figure(ctx, step_.arg("figure", step_.args))
    rule = ctx.rules.hooks.get(f"may_mark:{target.monster}")
    if rule is not None and not rule(ctx, target):
        raise Reject("may_not_mark", f"{target.id} cannot be marked now.")
    ctx.emit("marked", investigator=inv.id, figure=target.id)


@step("die")
def _die(ctx: Ctx, step_: Step) -> None:
    inv = investigator(ctx, step_)
    figures.kill_investigator(ctx, inv, cause=str(step_.arg("cause", "described")))


def after_action(ctx: Ctx, inv: Investigator, kind: str, *, ranged: bool = False) -> None:
    """Once an action has fully resolved: the chapter's rules that follow an action, then
    rules in force that cost a wound per action."""
    assert kind in ACTIONS
    ctx.emit("action_resolved", investigator=inv.id, action=kind)
    first = inv.actions_taken == 0
    inv.actions_taken += 1
    special.after_action(ctx, inv.id, kind, ranged=ranged, first=first)
    if not inv.alive or inv.space is None or not bound(ctx, WOUND_PER_ACTION, inv.id):
        return
    room = ctx.catalog.board.room_of(inv.space)
    if room in ctx.state.devoured and inv.space not in ctx.state.flooded:
        figures.wound_investigator(ctx, inv, 1, cause=WOUND_PER_ACTION)

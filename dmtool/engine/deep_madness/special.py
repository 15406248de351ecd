"""A chapter's special rules, executed from their structure (the `executes` clauses of its
`special_rules`): who may wound a monster, when it may not be attacked, what happens at
the end of a round, which pieces leave the game on entering a monster's space, which
monster other monsters take for an investigator, what a monster's move goes for, what
follows the end of an activation, and where a monster card acts in the round.

Every clause names the monster or component it is about, so one chapter's rule never
leaks into another: the engine reads the chapter in play, never a chapter id.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.engine.deep_madness import supply, things
from dmtool.engine.deep_madness.catalog import ChapterCatalog
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Figure, Piece
from dmtool.engine.deep_madness.vocabulary import holds, run_effects

END_OF_ROUND = "end-of-round"
END_OF_ACTIVATION = "end-of-activation"
AFTER_ACTION = "after-action"


def clauses(catalog: ChapterCatalog, kind: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(reference, body) of every clause of one kind in the chapter's special rules; the
    reference is '<chapter>/<rule id>', as fixtures and the event log name it."""
    for rule in catalog.chapter.get("special_rules", []) or []:
        for clause in rule.get("executes", []) or []:
            if kind in clause:
                yield f"{catalog.id}/{rule.get('id')}", clause[kind]


def _immunity(ctx: Ctx, monster: str) -> tuple[str, str] | None:
    return next(((ref, body["wounds_from"]) for ref, body in clauses(ctx.catalog, "immunity")
                 if body["monster"] == monster), None)


def wound_barred(ctx: Ctx, figure: Figure, by: str | None) -> str | None:
    """The rule that keeps these wounds off the figure (None: it takes them). Only a
    monster's figure counts as a monster's damage; an investigator's attack or a bare
    effect does not."""
    found = _immunity(ctx, figure.monster)
    if found is None:
        return None
    ref, wounds_from = found
    if wounds_from == "monsters" and by is not None and by in ctx.state.figures \
            and by != figure.id:
        return None
    return ref


def attack_barred(ctx: Ctx, monster: str) -> str | None:
    """The rule that forbids investigators to attack this monster now (None: they may)."""
    for ref, body in clauses(ctx.catalog, "attack_guard"):
        if body["monster"] == monster and holds(ctx, body["while"]):
            return ref
    return None


def end_of_round(ctx: Ctx) -> None:
    """The effects the chapter's rules attach to the end of every round."""
    at_moment(ctx, END_OF_ROUND)


def end_of_activation(ctx: Ctx, *, figure: Figure | None = None,
                      investigator: str | None = None) -> None:
    """The effects the chapter's rules attach to the end of a figure's activation (by its
    monster) or of an investigator's; the figure or the investigator is in scope."""
    for ref, body in clauses(ctx.catalog, "trigger"):
        if body["at"] != END_OF_ACTIVATION or ctx.state.outcome != "ongoing":
            continue
        if figure is not None and body.get("monster") == figure.monster:
            scope: dict[str, Any] = {"figure": figure.id}
        elif investigator is not None and body.get("investigator"):
            scope = {}
        else:
            continue
        with ctx.scoped(investigator, **scope):
            _fire_in_scope(ctx, ref, body, at=END_OF_ACTIVATION)


def after_action(ctx: Ctx, investigator: str, action: str, *, ranged: bool,
                 first: bool) -> None:
    """The effects the chapter's rules attach to an investigator's action once it has fully
    resolved: by the kind of action, whether an attack was ranged, and whether it was the
    round's first action; the investigator is in scope."""
    for ref, body in clauses(ctx.catalog, "trigger"):
        if body["at"] != AFTER_ACTION or ctx.state.outcome != "ongoing":
            continue
        if action not in body.get("actions", [action]):
            continue
        if "ranged" in body and body["ranged"] != (action == "attack" and ranged):
            continue
        if body.get("first_of_round") is False and first:
            continue
        with ctx.scoped(investigator):
            _fire_in_scope(ctx, ref, body, at=AFTER_ACTION, action=action)


def _fire_in_scope(ctx: Ctx, ref: str, body: dict[str, Any], **logged: str) -> None:
    """A trigger's effects, run when its condition holds in the scope already entered (a
    function of its own: mypyc compiles no `continue` out of a `with` block)."""
    if "when" in body and not holds(ctx, body["when"]):
        return
    ctx.emit("special_rule", rule=ref, **logged)
    run_effects(ctx, body["effects"])


def gained_instead(ctx: Ctx, component: str) -> str | None:
    """What the investigator in scope takes when the rules let them take `component`: the
    component itself, or what a rule lets them take instead (their choice); None when a
    rule refuses it or a cap is reached (both logged)."""
    inv = ctx.scope("gain")
    refused = gain_refused(ctx, component)
    if refused is not None:
        ctx.emit("not_resolved", effect="gain", reason=f"{inv.id} takes no {component} "
                 f"({refused})")
        return None
    for ref, body in clauses(ctx.catalog, "instead_of_gain"):
        if body["component"] == component:
            other = body["may_take"]
            capped = _cap_reached(ctx, other)
            if capped is not None:
                # A capped token is no choice: the investigator takes what they were given.
                ctx.emit("not_resolved", effect="instead", reason=capped)
                continue
            if ctx.answer("instead", f"{inv.id} gains {component}; take {other} instead?",
                          (component, other), default=component) == other:
                ctx.emit("special_rule", rule=ref, at="gain", instead=other)
                component = other
    capped = _cap_reached(ctx, component)
    if capped is not None:
        ctx.emit("not_resolved", effect="gain", reason=capped)
        return None
    return component


def _cap_reached(ctx: Ctx, component: str) -> str | None:
    """Why the investigator in scope may not take one more of `component` (None: they may)."""
    inv = ctx.scope("gain")
    for ref, body in clauses(ctx.catalog, "cap"):
        if body["component"] == component and len(inv.holds(component)) >= body["max_held"]:
            return f"{inv.id} holds {body['max_held']} {component} already ({ref})"
    return None


def offset_damage(ctx: Ctx, damage: int) -> int:
    """Damage about to reach the investigator in scope, less what they cancel by giving up
    pieces a rule accepts (their choice how many), each costing the madness it names."""
    inv = ctx.scope("damage")
    for ref, body in clauses(ctx.catalog, "damage_offset"):
        held = inv.holds(body["component"])
        most = min(len(held), damage)
        if most <= 0:
            continue
        spent = int(ctx.answer("spend", f"How many {body['component']} does {inv.id} give up "
                               "to cancel damage?", tuple(range(most + 1)), default=0))
        for piece in held[:spent]:
            inv.held.remove(piece)
            supply.give_back(ctx, piece)
        if spent:
            inv.madness += spent * int(body.get("madness_each", 0))
            damage -= spent
            ctx.emit("special_rule", rule=ref, at="damage", spent=spent, madness=inv.madness)
    return damage


def exhaust_oxygen(ctx: Ctx) -> None:
    """The investigator in scope exhausts 1 oxygen, or (their choice) discards a token that
    a rule lets stand in for it from the monster card where those tokens lie."""
    inv = ctx.scope("oxygen")
    for ref, body in clauses(ctx.catalog, "oxygen_substitute"):
        card, component = body["card"], body["component"]
        if ctx.state.on_cards.get(card, 0) > 0 and ctx.answer(
                "instead", f"{inv.id} exhausts 1 oxygen; discard a {component} from the "
                f"{card} card instead?", ("oxygen", component), default="oxygen") == component:
            ctx.state.on_cards[card] -= 1
            ctx.emit("special_rule", rule=ref, at="oxygen", card=card)
            return
    inv.oxygen_exhausted += 1
    ctx.emit("oxygen_exhausted", investigator=inv.id, total=inv.oxygen_exhausted)


def gain_refused(ctx: Ctx, component: str) -> str | None:
    """The rule that keeps the investigator in scope from taking this component now."""
    for ref, body in clauses(ctx.catalog, "refuse_gain"):
        if body["component"] == component and not holds(ctx, body["unless"]):
            return ref
    return None


def at_moment(ctx: Ctx, moment: str, *, monster: str | None = None) -> None:
    """The effects the chapter's rules attach to a moment of the round (the room or the
    figure just found stays in scope); a rule about one monster waits for that monster."""
    for ref, body in clauses(ctx.catalog, "trigger"):
        if body.get("monster", monster) != monster:
            continue
        if body["at"] == moment and ctx.state.outcome == "ongoing":
            ctx.emit("special_rule", rule=ref, at=moment)
            run_effects(ctx, body["effects"])


def spawn_marker_spaces(ctx: Ctx) -> list[str]:
    """The spaces holding a spawn marker: the spawn space of every devoured room."""
    spawns = ctx.catalog.board.spawn_spaces
    return [spawns[room] for room in ctx.state.devoured if room in spawns]


def fallback_spawn_space(ctx: Ctx) -> str | None:
    """Where a spawn with no place goes when no spawn marker is left, if a rule names a
    monster whose space serves then."""
    if spawn_marker_spaces(ctx):
        return None
    for ref, body in clauses(ctx.catalog, "spawn_fallback"):
        found = next((f for f in ctx.state.figures.values() if f.monster == body["monster"]),
                     None)
        if found is not None:
            ctx.emit("special_rule", rule=ref, at="spawn", space=found.space)
            return found.space
    return None


def hunt_goals(ctx: Ctx, mover: Figure) -> list[str] | None:
    """The spaces a monster's move goes for when a rule sends it after a thing, while one is
    on the board (None: it goes for investigators as usual)."""
    for _, body in clauses(ctx.catalog, "hunts"):
        if body["monster"] == mover.monster:
            found = things.spaces_holding(ctx, body["toward"])
            if found:
                return found
    return None


def piece_entered(ctx: Ctx, piece: Piece, space: str) -> None:
    """A piece (a token or a figure counted as a component) moved onto `space`: a rule may
    take it out of the game when a given monster stands there."""
    for ref, body in clauses(ctx.catalog, "removal"):
        if piece.component != body["piece"]:
            continue
        if not any(f.monster == body["entering"] and f.space == space
                   for f in ctx.state.figures.values()):
            continue
        pieces = ctx.state.spaces.get(space, [])
        if piece in pieces:
            pieces.remove(piece)
            ctx.state.removed[piece.component] = ctx.state.removed.get(piece.component, 0) + 1
            ctx.emit("removed_from_game", component=piece.component, space=space, rule=ref)
        return


def counts_as_investigator(ctx: Ctx, monster: str) -> bool:
    return any(body["monster"] == monster
               for _, body in clauses(ctx.catalog, "counts_as_investigator"))


def monster_targets(ctx: Ctx, mover: Figure) -> list[Figure]:
    """The figures another monster takes for investigators (never the mover itself)."""
    return [f for f in ctx.state.figures.values()
            if f.id != mover.id and f.monster != mover.monster
            and counts_as_investigator(ctx, f.monster)]


def activation_order(ctx: Ctx) -> list[str]:
    """The monster cards in the order they act: the activation track, with each card a rule
    places before the first investigator moved to the front, each a rule places after the
    last monster moved to the end, and each a rule places right after another monster put
    there (a Hydra's Domain after the Hydras, though it has no card of its own)."""
    order = list(ctx.state.track)
    for _, body in clauses(ctx.catalog, "activation"):
        moved = [m for m in order if m in body["monsters"]] or list(body["monsters"])
        rest = [m for m in order if m not in body["monsters"]]
        if body["order"] == "before-first-investigator":
            order = moved + rest
        elif body["order"] == "after" and body.get("after") in rest:
            at = rest.index(body["after"]) + 1
            order = rest[:at] + moved + rest[at:]
        else:
            order = rest + moved
    return order

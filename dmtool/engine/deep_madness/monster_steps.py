"""Monster steps that the fixtures describe: a monster's attack on an investigator (or on a
figure its chapter makes it take for one), a card effect a special rule defines, and the
order the monster cards act in."""

from __future__ import annotations

from dmtool.engine.deep_madness import figures, special
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.registry import RULES
from dmtool.engine.deep_madness.steps import Step, figure, investigator
from dmtool.engine.deep_madness.vocabulary import run_effects

step = RULES.step


@step("monster_attack")
def _monster_attack(ctx: Ctx, step_: Step) -> None:
    """A monster's attack, as described: the damage it deals. An investigator may first
    cancel damage as the chapter's rules allow; then the resistance roll (not in our
    sources, so the fixture says how many points it `resisted`) and the rest are wounds. A
    figure that cannot defend takes all of it (Penitent Sorrow)."""
    attacker = figure(ctx, step_.arg("figure"))
    damage = int(step_.arg("damage", 1))
    target_inv, target_fig = step_.arg("investigator"), step_.arg("target")
    if (target_inv is None) == (target_fig is None):
        raise Reject("bad_action", "A monster attack names either the 'investigator' or the "
                     "'target' figure it attacks.")
    if target_inv is not None:
        inv = investigator(ctx, Step("monster_attack", str(target_inv)))
        if inv not in figures.target_of(ctx, attacker):
            raise Reject("not_a_target", f"{attacker.id} does not take {inv.id} for an "
                         "investigator it may attack.")
        ctx.emit("monster_attacked", figure=attacker.id, investigator=inv.id, damage=damage)
        with ctx.scoped(inv.id):
            damage = special.offset_damage(ctx, damage)
        resisted = min(damage, int(step_.arg("resisted", 0)))
        figures.wound_investigator(ctx, inv, damage - resisted, cause=f"{attacker.id}'s attack")
        return
    victim = figure(ctx, target_fig)
    if victim not in special.monster_targets(ctx, attacker):
        raise Reject("not_a_target", f"{attacker.id} does not take {victim.id} for an "
                     "investigator; monsters attack investigators only.")
    ctx.emit("monster_attacked", figure=attacker.id, target=victim.id, damage=damage)
    figures.wound(ctx, victim, damage, by=attacker.id)


@step("card_effect")
def _card_effect(ctx: Ctx, step_: Step) -> None:
    """A monster card's effect that the chapter's special rules define (the card texts are
    not in our sources, but the rule says what the named effect does)."""
    name = str(step_.arg("id", step_.args))
    for ref, body in special.clauses(ctx.catalog, "card_effect"):
        if body["id"] == name:
            mover = next((f for f in ctx.state.figures.values()
                          if f.monster == body["monster"]), None)
            if mover is None:
                raise Reject("unknown_figure", f"No {body['monster']} figure is on the board.")
            ctx.emit("special_rule", rule=ref, at="card-effect", name=name)
            with ctx.scoped(figure=mover.id):
                run_effects(ctx, body["effects"])
            return
    names = ", ".join(b["id"] for _, b in special.clauses(ctx.catalog, "card_effect"))
    raise Reject("bad_action", f"No special rule of this chapter defines the card effect "
                 f"'{name}' (it defines: {names or 'none'}).")


@step("refresh")
def _refresh(ctx: Ctx, step_: Step) -> None:
    """The refresh phase, as far as the chapters' special rules act in it."""
    special.at_moment(ctx, "refresh")


@step("activation_order")
def _activation_order(ctx: Ctx, step_: Step) -> None:
    """Which monster cards act, in order, this round (the track as the special rules
    arrange it); nothing changes."""
    ctx.emit("activation_order", order=special.activation_order(ctx))

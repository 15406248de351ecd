"""Carrying out a checked wanderer action: paying, then resolving it with dice and policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from dmtool.engine.dawn_of_madness import combat, story
from dmtool.engine.dawn_of_madness.constants import (
    COLOURS,
    count_colours,
    domain_texts,
)
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.effects.wanderer import (
    draw_domain_card,
    enforce_limit,
    give_domain_card,
)
from dmtool.engine.dawn_of_madness.items import take_effect
from dmtool.engine.dawn_of_madness.legacy import consume
from dmtool.engine.dawn_of_madness.outcome import end_of_action
from dmtool.engine.dawn_of_madness.plans import Plan
from dmtool.engine.dawn_of_madness.rolls import discard_domain_card
from dmtool.engine.dawn_of_madness.state import Wanderer

Doer = Callable[[Ctx, Wanderer, Plan], None]
DOERS: Final[dict[str, Doer]] = {}


def doer(kind: str) -> Callable[[Doer], Doer]:
    def register(fn: Doer) -> Doer:
        DOERS[kind] = fn
        return fn

    return register


def perform(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    for brain in plan.brains:
        w.spend(brain)
    paid = plan.cost - len(plan.brains)
    w.mc -= paid
    ctx.emit("action", wanderer=w.id, action=plan.kind, cost=paid,
             brains=domain_texts(plan.brains), support=plan.data.get("support"))
    if "support" in plan.data:
        ctx.state.support[plan.data["support"]] = False
    w.support_last = "support" in plan.data
    if plan.kind in ("domain", "search", "trade", "legacy") and not plan.free:
        w.used.add(plan.kind)
    DOERS[plan.kind](ctx, w, plan)
    end_of_action(ctx)


@doer("move")
def _move(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    ctx.emit("moved", wanderer=w.id, **{"from": w.shard}, to=plan.data["to"],
             spaces=plan.data["spaces"])
    w.shard = plan.data["to"]


@doer("attack")
def _attack(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    combat.attack(ctx, w, ctx.state.monsters[plan.data["monster"]], plan.data["rift"])


@doer("confront")
def _confront(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    combat.confront(ctx, w, ctx.state.monsters[plan.data["monster"]])


@doer("encounter")
def _encounter(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    story.encounter(ctx, w.id, plan.data["entry"], card=plan.data.get("card"))


@doer("domain")
def _domain(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    colours = ctx.catalog.shards[w.shard or 0]["sentience"]  # `Catalog.shard_colours`
    faces = ctx.dice.d6(ctx.state, w.id, count_colours(colours), "domain action")
    gained = [(c, f) for c in COLOURS for f in faces.get(c, [])]
    for d in gained:
        w.store(d)
    ctx.emit("domains_gained", wanderer=w.id, domains=domain_texts(gained))


@doer("search")
def _search(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    card = draw_domain_card(ctx)
    if card is not None:
        give_domain_card(ctx, w, card)


@doer("trade")
def _trade(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    other = ctx.wanderer(plan.data["with"])
    for card, giver, taker in [(c, w, other) for c in plan.data["give"]] + [
            (c, other, w) for c in plan.data["take"]]:
        giver.domain_cards.remove(card)
        taker.domain_cards.append(card)
        if card in giver.charges:
            taker.charges[card] = giver.charges.pop(card)
        take_effect(ctx, giver, card, gained=False)
        take_effect(ctx, taker, card, gained=True)
    ctx.emit("traded", wanderer=w.id, partner=other.id, gave=plan.data["give"],
             took=plan.data["take"])
    enforce_limit(ctx, w)
    enforce_limit(ctx, other)


@doer("existence")
def _existence(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    card = plan.data["card"]
    w.existence -= plan.data["price"]
    w.existence_deck.remove(card)
    w.existence_cards.append(card)
    ctx.emit("existence_card_bought", wanderer=w.id, card=card, price=plan.data["price"])


@doer("component")
def _component(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    card = plan.data["card"]
    if plan.data.get("charge"):
        w.charges[card] -= 1  # one existence token leaves the card
        ctx.emit("charge_spent", wanderer=w.id, card=card, left=w.charges[card])
    with ctx.in_frame(Frame("effect", wanderer=w.id)), ctx.acting(who=w.id):
        story.run_effects(ctx, plan.data["effects"])
    if plan.data.get("charge") and w.charges.get(card, 1) <= 0 and card in w.domain_cards:
        discard_domain_card(ctx, w, card, why="no charges left")


@doer("legacy")
def _legacy(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    consume(ctx, w, plan.data["card"])


@doer("pass")
def _pass(ctx: Ctx, w: Wanderer, plan: Plan) -> None:
    w.mc = 0
    ctx.emit("dropped_to_zero", character=w.id)

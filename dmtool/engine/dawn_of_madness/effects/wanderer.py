"""Effects on the resolving wanderer: health, capacity, existence, domains, cards, traps."""

from __future__ import annotations

from typing import Any

from dmtool.engine.dawn_of_madness import condition_cards, health, outcome, sheet
from dmtool.engine.dawn_of_madness.constants import (
    WITHERED,
    WITHERED_LIMIT,
    domain_text,
    domain_texts,
    domains_from_mapping,
)
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.effects import effect
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.items import take_effect
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.rolls import discard_domain_card
from dmtool.engine.dawn_of_madness.state import Wanderer
from dmtool.engine.dawn_of_madness.story import run_effects


@effect("score")
def _score(ctx: Ctx, changes: dict[str, int]) -> None:
    for ending, n in changes.items():
        ctx.state.scores[ending] = max(0, ctx.state.scores.get(ending, 0) + n)
    ctx.emit("score", changes=dict(changes), scores=dict(ctx.state.scores))


@effect("restore_health")
def _restore_health(ctx: Ctx, n: int) -> None:
    sheet.restore_health(ctx, ctx.need_resolver("restore_health"), n)


@effect("lose_health")
def _lose_health(ctx: Ctx, n: int) -> None:
    health.lose_health(ctx, ctx.need_resolver("lose_health"), n, cause="effect")


@effect("restore_mental_capacity")
def _restore_mc(ctx: Ctx, n: int) -> None:
    sheet.restore_mental_capacity(ctx, ctx.need_resolver("restore_mental_capacity"), n)


@effect("lose_mental_capacity")
def _lose_mc(ctx: Ctx, n: int) -> None:
    health.lose_mental_capacity(ctx, ctx.need_resolver("lose_mental_capacity"), n,
                                cause="effect")


@effect("take_damage")
def _take_damage(ctx: Ctx, spec: dict[str, Any]) -> None:
    w = ctx.need_resolver("take_damage")
    health.take_damage(ctx, w, spec["colour"], spec["amount"], source=ctx.monster or "effect")


@effect("gain_existence")
def _gain_existence(ctx: Ctx, n: int) -> None:
    sheet.gain_existence(ctx, ctx.need_resolver("gain_existence"), n, cause="effect")


@effect("lose_existence")
def _lose_existence(ctx: Ctx, n: int) -> None:
    health.lose_existence(ctx, ctx.need_resolver("lose_existence"), n)


@effect("gain_domain")
def _gain_domain(ctx: Ctx, domains: dict[str, list[str]]) -> None:
    w = ctx.need_resolver("gain_domain")
    gained = domains_from_mapping(domains)
    for d in gained:
        w.store(d)
    ctx.emit("domains_gained", wanderer=w.id, domains=domain_texts(gained))


@effect("lose_domain")
def _lose_domain(ctx: Ctx, domains: dict[str, list[str]]) -> None:
    w = ctx.need_resolver("lose_domain")
    lost = []
    for d in domains_from_mapping(domains):
        if w.stored(d):  # as many as the wanderer has
            w.spend(d)
            lost.append(domain_text(d))
    ctx.emit("domains_lost", wanderer=w.id, domains=lost)


def draw_domain_card(ctx: Ctx) -> str | None:
    """The top card of the domain deck, reshuffling the discard pile into it when empty."""
    decks = ctx.state.decks
    deck = decks.setdefault("domain", [])
    if not deck and decks.get("domain_discard"):
        decks["domain"] = ctx.dice.shuffle(ctx.state, "domain", decks["domain_discard"])
        decks["domain_discard"] = []
        deck = decks["domain"]
        ctx.emit("deck_reshuffled", deck="domain")
    return deck.pop(0) if deck else None


def give_domain_card(ctx: Ctx, w: Wanderer, card: str) -> None:
    """A charged card gets its existence tokens; a card with lasting effects applies them
    alongside every other card held."""
    w.domain_cards.append(card)
    charges = ctx.catalog.domain_cards.get(card, {}).get("charges")
    if charges:
        w.charges[card] = charges
    ctx.emit("domain_card_gained", wanderer=w.id, card=card)
    take_effect(ctx, w, card, gained=True)
    enforce_limit(ctx, w)


def enforce_limit(ctx: Ctx, w: Wanderer) -> None:
    """Over the domain card limit, the holder discards down to it (their choice)."""
    while len(w.domain_cards) > w.domain_card_limit:
        pick = ctx.answer("discard_domain_card", f"{w.id} holds more domain cards than the "
                          "limit and must discard one", tuple(w.domain_cards))
        discard_domain_card(ctx, w, pick, why="limit")


@effect("gain_domain_card")
def _gain_domain_card(ctx: Ctx, spec: dict[str, Any]) -> None:
    w = ctx.need_resolver("gain_domain_card")
    if "card" in spec:
        card = spec["card"]
        for pile in ("domain", "domain_discard"):
            if card in ctx.state.decks.get(pile, []):
                ctx.state.decks[pile].remove(card)
        give_domain_card(ctx, w, card)
        return
    for _ in range(spec.get("count", 1)):
        card = draw_domain_card(ctx)
        if card is None:
            ctx.emit("not_resolved", effect="gain_domain_card", reason="domain deck empty")
            return
        give_domain_card(ctx, w, card)


@effect("discard_domain_card")
def _discard_domain_card(ctx: Ctx, spec: dict[str, Any]) -> None:
    w = ctx.need_resolver("discard_domain_card")
    for _ in range(spec["count"]):
        if not w.domain_cards:
            return
        pick = w.domain_cards[0] if len(w.domain_cards) == 1 else ctx.answer(
            "discard_domain_card", f"{w.id} discards a domain card", tuple(w.domain_cards))
        discard_domain_card(ctx, w, pick, why="effect")


def _coda(ctx: Ctx, coda: str) -> dict[str, Any]:
    if coda not in ctx.catalog.codas:
        raise EngineFault(f"no definition for the coda card '{coda}'")
    return ctx.catalog.codas[coda]


@effect("gain_coda")
def _gain_coda(ctx: Ctx, coda: str) -> None:
    w = ctx.need_resolver("gain_coda")
    card = _coda(ctx, coda)
    if ctx.state.stage == "finale":
        # The finale's setup removed every coda card nobody had obtained.
        ctx.emit("not_resolved", effect="gain_coda", reason="coda cards left the game")
        return
    # One card of each coda: the deck of the central wanderer's codas (DoM "Prepare the
    # Encounter Cards and Coda Cards") holds it only while nobody has obtained it, so an
    # encounter resolved again gives nothing more (its front changes sentience only once).
    for other in ctx.state.wanderers.values():
        if coda in other.codas:
            ctx.emit("not_resolved", effect="gain_coda", reason=f"{other.id} holds it")
            return
    w.codas.append(coda)
    ctx.emit("coda_gained", wanderer=w.id, coda=coda)
    with ctx.acting(who=w.id):
        run_effects(ctx, card.get("effects", []))


@effect("lose_coda")
def _lose_coda(ctx: Ctx, coda: str) -> None:
    w = ctx.need_resolver("lose_coda")
    if coda not in w.codas:
        return
    w.codas.remove(coda)
    if coda in w.exhausted:
        w.exhausted.remove(coda)
    # The front's sentience changes were recorded on the sheet; returning the card undoes them.
    for e in _coda(ctx, coda).get("effects", []):
        for colour, n in e.get("modify_sentience", {}).items():
            w.sentience[colour] -= n
    ctx.emit("coda_lost", wanderer=w.id, coda=coda)


@effect("gain_condition")
def _gain_condition(ctx: Ctx, spec: dict[str, Any]) -> None:
    w = ctx.need_resolver("gain_condition")
    kind = spec["type"]
    for _ in range(spec.get("count", 1)):
        if ctx.halted():
            return
        if kind == WITHERED and w.conditions.get(kind, 0) + 1 >= WITHERED_LIMIT \
                and ctx.state.stage == "wanderer":
            w.conditions[kind] = w.conditions.get(kind, 0) + 1
            outcome.end_stage(ctx, "failed", "fourth_withered")
            return
        if condition_cards.draw(ctx, w, kind) is None:
            ctx.emit("not_resolved", effect="gain_condition", reason=f"{kind} deck empty")
            return
        if kind == WITHERED:
            sheet.modify_max(ctx, w, health=-1)


@effect("discard_condition")
def _discard_condition(ctx: Ctx, spec: dict[str, Any]) -> None:
    w = ctx.need_resolver("discard_condition")
    kind = spec["type"]
    for _ in range(spec.get("count", 1)):
        if condition_cards.discard(ctx, w, kind) is None:
            return
        if kind == WITHERED:
            sheet.modify_max(ctx, w, health=1)


@effect("modify_sentience")
def _modify_sentience(ctx: Ctx, changes: dict[str, int]) -> None:
    w = ctx.need_resolver("modify_sentience")
    for colour, n in changes.items():
        w.sentience[colour] = w.sentience.get(colour, 0) + n  # may go negative on the sheet
    ctx.emit("sentience_changed", wanderer=w.id, changes=dict(changes),
             sentience=dict(w.sentience))


@effect("modify_max")
def _modify_max(ctx: Ctx, spec: dict[str, int]) -> None:
    sheet.modify_max(ctx, ctx.need_resolver("modify_max"), **spec)


@effect("trap")
def _trap(ctx: Ctx, _: Any) -> None:
    w = ctx.need_resolver("trap")
    entry = ctx.frame.entry
    w.trapped = {"shard": w.shard or 0, "entry": entry or 0}
    ctx.emit("trapped", wanderer=w.id, shard=w.shard, entry=entry)


@effect("release_trap")
def _release(ctx: Ctx, _: Any) -> None:
    w = ctx.need_resolver("release_trap")
    if w.trapped:
        w.trapped = None
        ctx.emit("released", wanderer=w.id)


@effect("move_wanderer")
def _move_wanderer(ctx: Ctx, where: Any) -> None:
    w = ctx.need_resolver("move_wanderer")
    shard = place(ctx, w.id, where)
    ctx.emit("moved", wanderer=w.id, **{"from": w.shard}, to=shard, forced=True)
    w.shard = shard


@effect("unlock")
def _unlock(ctx: Ctx, cards: list[str]) -> None:
    state = ctx.state
    for card in cards:
        if card in state.unlocked:
            continue
        state.unlocked.append(card)
        owner = ctx.catalog.existence_cards.get(card, {}).get("wanderer")
        if owner in state.wanderers:
            state.wanderers[owner].existence_deck.append(card)
        elif card in ctx.catalog.domain_cards:
            state.decks.setdefault("domain", []).append(card)
        ctx.emit("unlocked", card=card)

"""Domain and enlighten (R54): the first rest action of a round draws a domain card and its
token; once per activation a token fills the leftmost empty slot of an enlightenment card
that takes it; a full card resolves. The rule is compulsory with Meredith or Regan Waite."""

from __future__ import annotations

from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.records import Investigator

DOMAIN_DECK = "domain"
REQUIRED_BY = ("meredith-waite", "regan-waite")  # investigators who make the rule compulsory
MEREDITH = "meredith-waite"  # Enlightened Mistress: may look at three and keep one


def required(investigators: list[Investigator]) -> bool:
    return any(i.character in REQUIRED_BY for i in investigators)


def rest(ctx: Ctx, inv: Investigator) -> None:
    """A rest action: with the rule in use, the first in the round draws a domain card."""
    ctx.emit("rested", investigator=inv.id)
    if not ctx.state.domain_rule:
        return
    if inv.rest_draw_round == ctx.state.round:
        ctx.emit("not_resolved", effect="draw domain card",
                 reason="one domain card per round by resting")
        return
    inv.rest_draw_round = ctx.state.round
    draw(ctx, inv)


def draw(ctx: Ctx, inv: Investigator) -> None:
    """A domain card and the domain token it shows (never discarded by choice)."""
    deck = ctx.state.decks.setdefault(DOMAIN_DECK, [])
    if not deck:
        ctx.emit("not_resolved", effect="draw domain card", reason="the domain deck is empty")
        return
    card = deck.pop(0)
    if inv.character == MEREDITH and deck and ctx.answer(
            "look_three", f"{inv.id} may look at the top three domain cards and keep one",
            (True, False), default=False):
        seen = [card, *deck[:2]]
        del deck[:2]
        card = ctx.answer("keep", "Which domain card is kept?", tuple(seen))
        rest_of = [c for c in seen if c != card]
        deck.extend(rest_of)
        ctx.emit("domain_cards_returned", investigator=inv.id, cards=rest_of)
    inv.domain_cards.append(card)
    token = ctx.catalog.domain_cards.get(card)
    if token is not None:
        inv.domain_tokens[token] = inv.domain_tokens.get(token, 0) + 1
    ctx.emit("domain_card_drawn", investigator=inv.id, card=card, token=token)


def place_token(ctx: Ctx, inv: Investigator, card: str, token: str) -> None:
    """Fill the card's leftmost empty slot (free of action cost, once per activation); a
    card whose last slot fills resolves at once."""
    state = ctx.state
    if not state.domain_rule:
        raise Reject("domain_rule_off", "The domain and enlighten rule is not in use.")
    if inv.placed_token:
        raise Reject("token_placed", f"{inv.id} has placed a domain token this activation.")
    if inv.domain_tokens.get(token, 0) <= 0:
        raise Reject("no_token", f"{inv.id} holds no '{token}' domain token.")
    slots = state.enlightenment.get(card)
    if slots is None:
        raise Reject("unknown_card", f"No enlightenment card '{card}' is in play.")
    filled = slots["filled"]
    if len(filled) >= len(slots["slots"]) or slots["slots"][len(filled)] != token:
        raise Reject("slot_mismatch", f"The leftmost empty slot of '{card}' does not take a "
                     f"'{token}' token.")
    inv.domain_tokens[token] -= 1
    inv.placed_token = True
    filled.append(token)
    ctx.emit("domain_token_placed", investigator=inv.id, card=card, token=token,
             slot=len(filled))
    if len(filled) == len(slots["slots"]):
        resolve(ctx, card)


def resolve(ctx: Ctx, card: str) -> None:
    """A full enlightenment card's effect, as its description gives it: wounds healed for
    every investigator, then the tokens on it discarded (Collective Renewal's pattern)."""
    rules = ctx.catalog.enlightenment.get(card, {})
    ctx.emit("enlightenment_resolved", card=card)
    heal = int(rules.get("heals_each", 0))
    for inv in ctx.state.living():
        healed = min(heal, inv.wounds)
        if healed:
            inv.wounds -= healed
            ctx.emit("investigator_healed", investigator=inv.id, amount=healed)
    if rules.get("clears", True):
        ctx.state.enlightenment[card]["filled"] = []
        ctx.emit("enlightenment_cleared", card=card)

"""Filth and infection (R50): filth cards stacking on a face-down infection card, resolved when
it is revealed (at four cards, by a hazard, or at the end of a chapter), filth tokens turning
into infection tokens three for one, and the infected and non-infected investigators."""

from __future__ import annotations

from dmtool.engine.deep_madness import supply
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import (
    FILTH_CARDS,
    FILTH_TOKENS,
    INFECTION_CARDS,
    INFECTION_TOKENS,
    InfectionCard,
    Investigator,
    Piece,
)
from dmtool.engine.deep_madness.registry import RULES

FILTH_DECK, FILTH_DISCARD = "filth", "filth_discard"
TOKENS_PER_INFECTION = 3  # Filth Cards: three filth tokens become one infection token
FLIP_AT = 4  # the face-down infection card flips at four filth cards


def draw_filth_card(ctx: Ctx) -> str | None:
    """The top filth card; an exhausted deck is refilled by shuffling its discards."""
    decks = ctx.state.decks
    deck = decks.setdefault(FILTH_DECK, [])
    if not deck and decks.get(FILTH_DISCARD):
        decks[FILTH_DECK] = ctx.dice.shuffle(FILTH_DECK, decks[FILTH_DISCARD])
        decks[FILTH_DISCARD] = []
        deck = decks[FILTH_DECK]
        ctx.emit("deck_reshuffled", deck=FILTH_DECK)
    return deck.pop(0) if deck else None


@RULES.hook(f"gain:{FILTH_CARDS}")
def gain_filth_cards(ctx: Ctx, inv: Investigator, amount: int = 1) -> None:
    for _ in range(amount):
        if ctx.state.outcome == "ongoing":
            gain_filth_card(ctx, inv)


def gain_filth_card(ctx: Ctx, inv: Investigator, *, cause: str = "effect") -> None:
    """A face-down infection card takes the card unseen (and flips at four); otherwise the
    card is resolved at once."""
    card = draw_filth_card(ctx)
    if card is None:
        ctx.emit("not_resolved", effect="gain filth card", reason="filth deck and discards empty")
        return
    infection = inv.infection_card
    ctx.emit("filth_card_gained", investigator=inv.id, card=card, cause=cause,
             face_down=bool(infection and not infection.face_up))
    if infection is not None and not infection.face_up:
        infection.filth_cards.append(card)
        if len(infection.filth_cards) >= FLIP_AT:
            reveal(ctx, inv, why=f"{FLIP_AT} filth cards")
        return
    resolve_filth_card(ctx, inv, card)


def resolve_filth_card(ctx: Ctx, inv: Investigator, card: str) -> None:
    """The card's filth tokens, then the card goes to the discards."""
    tokens = ctx.catalog.filth_cards.get(card, 0)
    ctx.emit("filth_card_resolved", investigator=inv.id, card=card, tokens=tokens)
    ctx.state.decks.setdefault(FILTH_DISCARD, []).insert(0, card)
    gain_filth_tokens(ctx, inv, tokens)


@RULES.hook(f"gain:{FILTH_TOKENS}")
def gain_filth_tokens(ctx: Ctx, inv: Investigator, amount: int = 1) -> None:
    got = supply.take_tokens(ctx, FILTH_TOKENS, amount)
    if got:
        inv.filth_tokens += got
        ctx.emit("filth_tokens_gained", investigator=inv.id, amount=got, total=inv.filth_tokens)
    while inv.filth_tokens >= TOKENS_PER_INFECTION and ctx.state.outcome == "ongoing":
        inv.filth_tokens -= TOKENS_PER_INFECTION
        supply.return_tokens(ctx, FILTH_TOKENS, TOKENS_PER_INFECTION)
        gain_infection_token(ctx, inv, cause="three filth tokens")


@RULES.hook(f"gain:{INFECTION_TOKENS}")
def gain_infection_token(ctx: Ctx, inv: Investigator, amount: int = 1, *,
                         cause: str = "effect") -> None:
    for _ in range(amount):
        if not supply.take_tokens(ctx, INFECTION_TOKENS, 1):
            return
        first = not inv.infected
        inv.infection_tokens += 1
        ctx.emit("infection_token_gained", investigator=inv.id, total=inv.infection_tokens,
                 cause=cause, newly_infected=first)


@RULES.hook(f"gain:{INFECTION_CARDS}")
def deal_infection_card(ctx: Ctx, inv: Investigator, amount: int = 1) -> None:
    """An investigator without one receives an infection card, face down (kept for the
    whole campaign; a second is never dealt)."""
    if inv.infection_card is not None:
        ctx.emit("not_resolved", effect="gain infection card", reason=f"{inv.id} has one")
        return
    piece = supply.take(ctx, INFECTION_CARDS, why="infection card")
    if piece is None:
        return
    inv.infection_card = InfectionCard(piece.colour or f"infection-{inv.id}")
    ctx.emit("infection_card_dealt", investigator=inv.id, card=inv.infection_card.id)


def reveal(ctx: Ctx, inv: Investigator, *, why: str) -> None:
    """The infection card turns face up: its filth tokens, then every filth card on it."""
    card = inv.infection_card
    if card is None or card.face_up:
        return
    card.face_up = True
    stacked, card.filth_cards = card.filth_cards, []
    ctx.emit("infection_card_revealed", investigator=inv.id, card=card.id, why=why,
             filth_cards=stacked)
    gain_filth_tokens(ctx, inv, card.tokens)
    for filth in stacked:
        if ctx.state.outcome != "ongoing":
            return
        resolve_filth_card(ctx, inv, filth)


def discard_face_down_filth(ctx: Ctx, inv: Investigator) -> None:
    """After a non-infected investigator kills a Hydra: one face-down filth card of their
    choice leaves their infection card."""
    card = inv.infection_card
    if card is None or card.face_up or not card.filth_cards:
        ctx.emit("not_resolved", effect="discard filth card",
                 reason=f"{inv.id} has no face-down filth card")
        return
    options = tuple(dict.fromkeys(card.filth_cards))
    pick = options[0] if len(options) == 1 else ctx.answer(
        "filth_card", f"{inv.id} discards which face-down filth card?", options)
    card.filth_cards.remove(pick)
    ctx.state.decks.setdefault(FILTH_DISCARD, []).insert(0, pick)
    ctx.emit("filth_card_discarded", investigator=inv.id, card=pick)


def discard_filth_token(ctx: Ctx, inv: Investigator) -> None:
    if inv.filth_tokens <= 0:
        ctx.emit("not_resolved", effect="discard filth token", reason=f"{inv.id} has none")
        return
    inv.filth_tokens -= 1
    supply.give_back(ctx, Piece(FILTH_TOKENS))
    ctx.emit("filth_token_discarded", investigator=inv.id, total=inv.filth_tokens)


def in_use(ctx: Ctx) -> bool:
    """The filth rules bind the chapters whose components include the filth cards."""
    return FILTH_CARDS in ctx.catalog.components


@RULES.hook("end_activation:investigator:filth")
def investigator_activation_ends(ctx: Ctx, inv: Investigator) -> None:
    """A filth card per Hydra in sight and per Hydra's Domain in the space; between infected
    and non-infected investigators sharing the space."""
    if not in_use(ctx) or not inv.alive:
        return
    board, state = ctx.catalog.board, ctx.state
    for figure in list(state.figures.values()):
        seen = figure.monster == "hydra" and inv.space is not None and board.line_of_sight(
            inv.space, figure.space, viewer="investigator", flooded=state.flooded)
        if seen or (figure.monster == "hydras-domain" and figure.space == inv.space):
            gain_filth_card(ctx, inv, cause=f"{figure.id} at the end of {inv.id}'s activation")
    others = [o for o in state.living() if o.id != inv.id and o.space == inv.space]
    if inv.infected:
        for other in others:
            if not other.infected:
                gain_filth_card(ctx, other, cause=f"infected {inv.id} in the same space")
    else:
        for other in others:
            if other.infected:
                gain_filth_card(ctx, inv, cause=f"infected {other.id} in the same space")

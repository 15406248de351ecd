"""Condition card decks: drawing from the top, discarding to the top or the bottom.

A card id is its type (identical cards, e.g. 'withered') or its type, a hyphen and what
tells it apart (e.g. 'traumatized-3', the third sort of Traumatized card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dmtool.engine.dawn_of_madness.constants import (
    CONDITION_DECKS,
    DISCARD_TO_BOTTOM,
    TRAUMATIZED_SORTS,
)

if TYPE_CHECKING:
    from dmtool.engine.dawn_of_madness.context import Ctx
    from dmtool.engine.dawn_of_madness.records import Wanderer
    from dmtool.engine.dawn_of_madness.state import GameState


def card_type(card: str) -> str:
    return card.split("-", 1)[0]


def default_pile(kind: str, *, sorts: bool = False) -> list[str]:
    """A full deck of one type. With `sorts`, the Traumatized deck holds its five sorts
    (three of each); otherwise every card of a type is the same card."""
    size = CONDITION_DECKS[kind][0]
    if sorts and kind == "traumatized":
        return [f"traumatized-{1 + i % TRAUMATIZED_SORTS}" for i in range(size)]
    return [kind] * size


def default_piles(*, sorts: bool = False) -> dict[str, list[str]]:
    return {kind: default_pile(kind, sorts=sorts) for kind in CONDITION_DECKS}


def next_card(state: GameState, kind: str) -> str | None:
    """The top card of a deck: players can always see which sort of Traumatized card is
    next, because the sorts have different backs."""
    pile = state.condition_decks.get(kind)
    return pile[0] if pile else None


def _pile(state: GameState, kind: str) -> list[str] | None:
    if kind not in CONDITION_DECKS:
        return None  # a type the base game does not count: no deck to run out
    if kind not in state.condition_decks:
        state.condition_decks[kind] = default_pile(kind)
    return state.condition_decks[kind]


def draw(ctx: Ctx, w: Wanderer, kind: str, *, force: bool = False) -> str | None:
    """The wanderer takes the top card of the type's deck; None if the deck is empty (unless
    `force`: a Withered card is received on every death)."""
    pile = _pile(ctx.state, kind)
    if pile is not None and pile:
        card = pile.pop(0)
    elif pile is None or force:
        card = kind
    else:
        return None
    w.conditions[kind] = w.conditions.get(kind, 0) + 1
    w.condition_cards.append(card)
    ctx.emit("condition_gained", wanderer=w.id, condition=kind, card=card,
             count=w.conditions[kind])
    return card


def discard(ctx: Ctx, w: Wanderer, kind: str) -> str | None:
    """Give back one card of a type: on top of its deck, or at the bottom for Disoriented,
    Lightheaded and Traumatized. Which card, when they differ, is the holder's choice."""
    if w.conditions.get(kind, 0) <= 0:
        return None
    held = [c for c in w.condition_cards if card_type(c) == kind]
    options = tuple(dict.fromkeys(held))
    card = options[0] if len(options) == 1 else kind
    if len(options) > 1:
        card = ctx.answer("discard_condition_card", f"{w.id} discards which {kind} card?",
                          options)
    if card in w.condition_cards:
        w.condition_cards.remove(card)
    w.conditions[kind] -= 1
    if not w.conditions[kind]:
        del w.conditions[kind]
    pile = _pile(ctx.state, kind)
    where = "bottom" if kind in DISCARD_TO_BOTTOM else "top"
    if pile is not None:
        if where == "bottom":
            pile.append(card)
        else:
            pile.insert(0, card)
    ctx.emit("condition_discarded", wanderer=w.id, condition=kind, card=card, to=where)
    return card

"""The optional devour rule: the devour deck, dice removed in tests, devour cards resolved,
and devour tokens spawned from the active confrontation card.

Devour card ids: an abomination's own cards are '<abomination>/devour-N' (N from 1); the
Otherworld devour cards are their content ids (a card with copies gets '#K' per copy).
"""

from __future__ import annotations

from typing import Any, Final

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import COLOURS
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.records import Wanderer
from dmtool.engine.dawn_of_madness.story import run_effects

OTHERWORLD_IN_DECK: Final = 12  # twelve of the thirty common cards join the abomination's twelve
DECK: Final = "devour"
DISCARD: Final = "devour_discard"


def card(catalog: Catalog, cid: str) -> dict[str, Any]:
    owner, _, number = cid.partition("/devour-")
    if number:
        cards = catalog.monsters.get(owner, {}).get("devour_cards", [])
        index = int(number) - 1
        return cards[index] if 0 <= index < len(cards) else {}
    return catalog.devour_cards.get(cid.split("#")[0], {})


def specific_cards(catalog: Catalog, abomination: str) -> list[str]:
    cards = catalog.monsters.get(abomination, {}).get("devour_cards", [])
    return [f"{abomination}/devour-{i + 1}" for i in range(len(cards))]


def otherworld_cards(catalog: Catalog) -> list[str]:
    out: list[str] = []
    for cid, body in sorted(catalog.devour_cards.items()):
        copies = int(body.get("copies", 1))
        out += [cid] if copies == 1 else [f"{cid}#{k + 1}" for k in range(copies)]
    return out


def build_deck(ctx: Ctx) -> None:
    """Setup 4.6: the abomination's own cards and twelve Otherworld cards, shuffled."""
    state = ctx.state
    if not state.devour_rule or state.abomination is None or DECK in state.decks:
        return
    common = otherworld_cards(ctx.catalog)
    if len(common) > OTHERWORLD_IN_DECK:
        common = ctx.dice.shuffle(state, "otherworld_devour", common)[:OTHERWORLD_IN_DECK]
    deck = specific_cards(ctx.catalog, state.abomination) + common
    state.decks[DECK] = ctx.dice.shuffle(state, DECK, deck)
    state.decks[DISCARD] = []
    ctx.emit("devour_deck", cards=len(deck))


def tokens_at(ctx: Ctx, shard: int | None) -> int:
    return ctx.state.shards[shard].tokens.get("devour", 0) if shard is not None else 0


def reveal(ctx: Ctx) -> str | None:
    """The top devour card (the discards are shuffled into a new deck when it runs out)."""
    decks = ctx.state.decks
    deck = decks.setdefault(DECK, [])
    if not deck and decks.get(DISCARD):
        decks[DECK] = ctx.dice.shuffle(ctx.state, DECK, decks[DISCARD])
        decks[DISCARD] = []
        deck = decks[DECK]
        ctx.emit("deck_reshuffled", deck=DECK)
    if not deck:
        return None
    cid = deck.pop(0)
    decks.setdefault(DISCARD, []).insert(0, cid)
    return cid


def reduce_dice(ctx: Ctx, w: Wanderer, counts: dict[str, int], kind: str) -> dict[str, int]:
    """In a test, one devour card per devour token in the tester's space: each icon takes one
    die of its colour away from the roll. The revealed cards are discarded, their texts
    ignored. A respawn roll is not a test."""
    if not ctx.state.devour_rule or kind == "respawn":
        return counts
    tokens = tokens_at(ctx, w.shard)
    if not tokens:
        return counts
    left = dict(counts)
    revealed: list[str] = []
    removed: dict[str, int] = {}
    for _ in range(tokens):
        cid = reveal(ctx)
        if cid is None:
            break
        revealed.append(cid)
        for colour in card(ctx.catalog, cid).get("icons", []):
            if left.get(colour, 0) > 0:
                left[colour] -= 1
                removed[colour] = removed.get(colour, 0) + 1
    ctx.emit("devour_dice", wanderer=w.id, cards=revealed,
             removed={c: removed[c] for c in COLOURS if c in removed})
    return left


def resolve_card(ctx: Ctx, w: Wanderer) -> None:
    """Resolve the top devour card's effect for the wanderer (its icons are ignored)."""
    cid = reveal(ctx)
    if cid is None:
        ctx.emit("not_resolved", effect="resolve_devour_card", reason="devour deck empty")
        return
    ctx.emit("devour_resolved", wanderer=w.id, card=cid)
    with ctx.in_frame(Frame("effect", wanderer=w.id)), ctx.acting(who=w.id):
        run_effects(ctx, card(ctx.catalog, cid).get("effects", []))


def resolve_if_in_space(ctx: Ctx, w: Wanderer) -> None:
    """An effect forcing a devour card: one card if at least one token is in the space."""
    if not ctx.state.devour_rule:
        ctx.emit("not_resolved", effect="resolve_devour_card", reason="devour rule off")
    elif not tokens_at(ctx, w.shard):
        ctx.emit("not_resolved", effect="resolve_devour_card", reason="no devour token here")
    else:
        resolve_card(ctx, w)


def refresh_cards(ctx: Ctx) -> None:
    """Refresh step 5: each living wanderer with a devour token in their space resolves one
    devour card (one, however many tokens), in seat order; also after the abomination's
    death."""
    if not ctx.state.devour_rule:
        return
    for w in list(ctx.state.wanderers.values()):
        if ctx.halted():
            return
        if w.alive and tokens_at(ctx, w.shard):
            resolve_card(ctx, w)


def spawn_tokens(ctx: Ctx) -> None:
    """Refresh step 6: while the abomination is in the game, spawn as many devour tokens as
    the active confrontation card shows, each on a rolled shard. An abomination's own
    spawning rule (its effects) places the first tokens instead of the die."""
    state = ctx.state
    aid = state.abomination
    if not state.devour_rule or aid is None or aid not in state.monsters:
        return
    number = state.confrontation["active"]
    if number is None:
        return
    wanted = int(ctx.catalog.confrontation_card(aid, number).get("devour_tokens", 0))
    if wanted <= 0:
        return
    before = sum(s.tokens.get("devour", 0) for s in state.shards.values())
    rule = ctx.catalog.monster(aid).get("devour_spawning", {}).get("effects", [])
    if rule:
        with ctx.acting(monster=aid):
            run_effects(ctx, rule)
    placed = sum(s.tokens.get("devour", 0) for s in state.shards.values()) - before
    for _ in range(max(0, wanted - placed)):
        shard = place(ctx, "devour", "random")
        tokens = state.shards[shard].tokens
        tokens["devour"] = tokens.get("devour", 0) + 1
        ctx.emit("token_placed", token="devour", shard=shard)

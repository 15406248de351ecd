"""Legacy: abomination legacy cards and lineage tokens, passive and consumable legacy cards,
finale legacy cards, and resetting a wanderer.

Legacy card ids are '<abomination>/legacy-N' (N from 1, in the order the card lists them).
"""

from __future__ import annotations

from typing import Any, Final

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.records import Wanderer
from dmtool.engine.dawn_of_madness.sheet import gain_existence
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.engine.dawn_of_madness.story import run_effects

RETURN_REWARD: Final = 3  # existence for handing back a second card of the same abomination


def source(card: str) -> str:
    """The abomination a legacy card comes from."""
    return card.partition("/")[0]


def held_from(state: GameState, wid: str, abomination: str) -> str | None:
    return next((c for c in state.legacy.get(wid, []) if source(c) == abomination), None)


def hand_out(ctx: Ctx) -> None:
    """Killed: shuffle the abomination's legacy cards nobody holds; every wanderer of the
    game (dead or alive) draws one. A wanderer who already holds one of its cards keeps
    either card: the new one (the old goes back) or the old one plus 3 existence."""
    state, aid = ctx.state, ctx.state.abomination or ""
    taken = {c for cards in state.legacy.values() for c in cards}
    deck = [c for c in ctx.catalog.legacy_cards(aid) if c not in taken]
    deck = ctx.dice.shuffle(state, "legacy", deck)
    for w in state.wanderers.values():
        if not deck:
            ctx.emit("not_resolved", effect="legacy", reason="no legacy card left")
            return
        new = deck.pop(0)
        old = held_from(state, w.id, aid)
        mine = state.legacy.setdefault(w.id, [])
        if old is None:
            mine.append(new)
            ctx.emit("legacy_gained", wanderer=w.id, card=new)
            continue
        keep = ctx.answer("legacy_keep", f"{w.id} already holds {old} from {aid}: keep the "
                          f"new card {new} (the old one goes back) or the old one (and 3 "
                          "existence)", ("new", "old"))
        if keep == "new":
            mine[mine.index(old)] = new
            deck.append(old)
            ctx.emit("legacy_replaced", wanderer=w.id, card=new, returned=old)
        else:
            deck.append(new)
            ctx.emit("legacy_declined", wanderer=w.id, card=new)
            gain_existence(ctx, w, RETURN_REWARD, cause="returned legacy card")


def clear_lineage(ctx: Ctx) -> None:
    """Killed: its own lineage token (if an earlier game left one) leaves the family card.
    The rulebook only says the punishment lasts until the wanderers deactivate it."""
    state, aid = ctx.state, ctx.state.abomination or ""
    family = ctx.catalog.family_of(aid)
    tokens = state.lineage.get(family or "", [])
    if aid in tokens:
        tokens.remove(aid)
        if not tokens:
            del state.lineage[family or ""]
        ctx.emit("lineage_token_removed", family=family, abomination=aid)


def punish(ctx: Ctx) -> None:
    """Not killed: its family gains the abomination's lineage token, and every wanderer of
    the game hands back the legacy cards that came from it."""
    state, aid = ctx.state, ctx.state.abomination or ""
    family = ctx.catalog.family_of(aid)
    if family is not None:
        tokens = state.lineage.setdefault(family, [])
        if aid not in tokens:
            tokens.append(aid)
        ctx.emit("lineage_token", family=family, abomination=aid)
    for wid in state.wanderers:
        returned = [c for c in state.legacy.get(wid, []) if source(c) == aid]
        if returned:
            state.legacy[wid] = [c for c in state.legacy[wid] if source(c) != aid]
            ctx.emit("legacy_returned", wanderer=wid, cards=returned)


def apply_at_setup(ctx: Ctx, w: Wanderer) -> None:
    """Passive legacy cards and the finale legacy card change the starting sheet."""
    effects: list[dict[str, Any]] = []
    for card in ctx.state.legacy.get(w.id, []):
        defn = ctx.catalog.legacy_card(card) or {}
        if defn.get("type") == "passive":
            effects += defn.get("effects", [])
    finale = ctx.state.finale_legacy.get(w.id)
    if finale is not None:
        defn = ctx.catalog.finale_legacy_cards.get(finale, {})
        if defn.get("sentience"):
            effects.append({"modify_sentience": dict(defn["sentience"])})
        effects += defn.get("effects", [])
    if effects:
        ctx.emit("legacy_applied", wanderer=w.id)
        with ctx.in_frame(Frame("effect", wanderer=w.id)), ctx.acting(who=w.id):
            run_effects(ctx, effects)


def consumables(state: GameState, catalog: Catalog, w: Wanderer) -> list[str]:
    """Consumable legacy cards the wanderer can still spend this game."""
    spent = state.legacy_used.get(w.id, [])
    return [c for c in state.legacy.get(w.id, []) if c not in spent
            and (catalog.legacy_card(c) or {}).get("type") == "consumable"]


def consume(ctx: Ctx, w: Wanderer, card: str) -> None:
    """Spend a consumable legacy card: its effect now; back in the next game."""
    ctx.state.legacy_used.setdefault(w.id, []).append(card)
    ctx.emit("legacy_used", wanderer=w.id, card=card)
    with ctx.in_frame(Frame("effect", wanderer=w.id)), ctx.acting(who=w.id):
        run_effects(ctx, (ctx.catalog.legacy_card(card) or {}).get("effects", []))


def award_finale_legacy(ctx: Ctx, card: str | None) -> None:
    """The central wanderer's new finale legacy card replaces any earlier one."""
    if card is None:
        return
    central = ctx.state.central
    old = ctx.state.finale_legacy.get(central)
    ctx.state.finale_legacy[central] = card
    ctx.emit("finale_legacy", wanderer=central, card=card, replaced=old)


def reset_wanderer(state: GameState, catalog: Catalog, wid: str) -> list[str]:
    """Back to the original state: unlocked envelope cards, the finale legacy card and the
    abomination legacy cards all go back. Returns what went back."""
    gone = [c for c in state.unlocked if catalog.owner(c) == wid]
    state.unlocked = [c for c in state.unlocked if c not in gone]
    gone += state.legacy.pop(wid, [])
    finale = state.finale_legacy.pop(wid, None)
    return gone + ([finale] if finale else [])

"""Domain cards as items: lasting effects while held, and uses (with charges) as actions.

A domain card whose effects only change sentience values or maximums works while it is
held: all such cards in a wanderer's possession apply together, and losing the card
takes its change away. Any other effects are the item's use, a component action.
"""

from __future__ import annotations

from typing import Any, Final

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.records import Wanderer
from dmtool.engine.dawn_of_madness.sheet import modify_max

HELD: Final = ("modify_sentience", "modify_max")
USE_COST: Final = 1  # an item's use costs 1 mental capacity unless the card prints an action


def held_effects(catalog: Catalog, card: str) -> list[dict[str, Any]]:
    defn = catalog.domain_cards.get(card, {})
    effects = defn.get("effects", [])
    if defn.get("charges") or not effects or any(next(iter(e)) not in HELD for e in effects):
        return []
    return list(effects)


def use_action(catalog: Catalog, w: Wanderer, card: str) -> dict[str, Any] | None:
    """The component action an item offers: its printed action, or its effects as a use."""
    defn = catalog.existence_cards.get(card) or catalog.domain_cards.get(card) or {}
    action = defn.get("action")
    if isinstance(action, dict):
        return action
    if card in w.domain_cards and defn.get("effects") and not held_effects(catalog, card):
        return {"cost": USE_COST, "effects": defn["effects"]}
    return None


def take_effect(ctx: Ctx, w: Wanderer, card: str, *, gained: bool) -> None:
    """Apply (on gaining) or take back (on losing) a held card's lasting changes."""
    effects = held_effects(ctx.catalog, card)
    if not effects:
        return
    sign = 1 if gained else -1
    for effect in effects:
        [(name, spec)] = effect.items()
        if name == "modify_sentience":
            for colour, n in spec.items():
                w.sentience[colour] = w.sentience.get(colour, 0) + sign * n
        else:
            modify_max(ctx, w, **{k: sign * v for k, v in spec.items()})
    ctx.emit("item_in_effect" if gained else "item_out_of_effect", wanderer=w.id, card=card,
             sentience=dict(w.sentience))

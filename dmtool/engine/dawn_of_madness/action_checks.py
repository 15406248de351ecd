"""The legality and cost of each wanderer action (pure: reads the state, never changes it).

A checker returns the action's Plan, or the Reject that refuses it without raising it:
the players test many illegal candidates each decision, and a returned rejection costs a
fraction of a raised one. `actions.check` raises it for callers that want an exception."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from dmtool.engine.core.policy import DefaultPolicy
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import MAX_RANGE
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.dice import SeededDice
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.items import use_action
from dmtool.engine.dawn_of_madness.legacy import consumables
from dmtool.engine.dawn_of_madness.plans import (
    BASE_COST,
    Plan,
    Verdict,
    parse_rift,
    range_cost,
)
from dmtool.engine.dawn_of_madness.state import GameState, Wanderer
from dmtool.engine.dawn_of_madness.story import holds

Checker = Callable[[GameState, Catalog, Wanderer, Any, bool], Verdict]
CHECKS: Final[dict[str, Checker]] = {}


def checker(kind: str) -> Callable[[Checker], Checker]:
    def register(fn: Checker) -> Checker:
        CHECKS[kind] = fn
        return fn

    return register


def _void(state: GameState, w: Wanderer, what: str) -> Reject | None:
    if w.shard is not None and state.shards[w.shard].has("void"):
        return Reject("void_shard", f"Shard {w.shard} holds a void token: no {what} action "
                       "there.")
    return None


def _once(w: Wanderer, kind: str, free: bool) -> Reject | None:
    # Support cards' domain and search actions do not count toward the limit.
    if not free and kind in w.used:
        return Reject("once_per_round", f"{w.id} has already taken the {kind} action this "
                       "round.")
    return None


@checker("move")
def _move(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    if isinstance(args, int):
        args = {"to": args}
    start = w.shard or 0
    if "path" in args:
        route = list(args["path"])
        if not catalog.board.is_path(start, route):
            return Reject("no_path", f"{route} is not a route along the board's paths from "
                          f"shard {start}.")
    elif "to" in args:
        d = catalog.board.distance(start, args["to"])
        if d is None:
            return Reject("no_path", f"No path leads from shard {start} to {args['to']}.")
        route = [args["to"]] * d  # only the length matters for the cost
    else:
        return Reject("bad_action", "A move names 'to: N' or 'path: [...]'.")
    if not route:
        return Reject("bad_move", "A move goes at least one space.")
    if len(route) > MAX_RANGE:
        return Reject("too_far", f"A move goes at most {MAX_RANGE} spaces; this one is "
                      f"{len(route)}.")
    return Plan("move", len(route), data={"to": route[-1], "spaces": len(route)})


@checker("attack")
def _attack(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    m = state.monsters.get(args.get("monster", ""))
    if m is None:
        return Reject("unknown_monster", f"No monster '{args.get('monster')}' is on the board.")
    if m.kind == "abomination":
        return Reject("abomination_not_attackable", "The abomination cannot be attacked; "
                      "confront it instead.")
    d = range_cost(state, catalog, w, m.shard)
    if isinstance(d, Reject):
        return d
    rift = parse_rift(args.get("rift"), m.rifts)
    if isinstance(rift, Reject):
        return rift
    return Plan("attack", BASE_COST["attack"] + d, data={"monster": m.id, "rift": rift})


@checker("encounter")
def _encounter(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    shard = w.shard or 0
    card = args.get("card") if isinstance(args, dict) else None
    if w.trapped:
        if card is not None:
            return Reject("trapped", f"{w.id} is trapped and can only re-enter encounter "
                          f"{w.trapped['entry']}.")
        return Plan("encounter", BASE_COST["encounter"], data={"entry": w.trapped["entry"]})
    refused = _void(state, w, "encounter")
    if refused is not None:
        return refused
    if card is not None:
        if card not in state.shards[shard].cards:
            return Reject("no_encounter", f"The encounter card '{card}' is not on shard {shard}.")
        defn = catalog.encounter_cards.get(card) or catalog.finale_cards.get(card, {})
        gate = defn.get("entrance")
        if gate and "when" in gate and not _holds(state, catalog, w, gate["when"]):
            return Reject("entrance_condition", f"The entrance condition of '{card}' does not "
                          "hold.")
        return Plan("encounter", BASE_COST["encounter"], data={"entry": defn["entry"],
                                                               "card": card})
    if state.shards[shard].has("completed"):
        return Reject("encounter_completed", f"Shard {shard}'s encounter is completed.")
    if state.stage == "finale":
        # Only the finale encounter of the current ending may be entered.
        entry = catalog.finale_entry(shard, state.ending)
        if entry is None:
            return Reject("no_encounter", f"Shard {shard} has no finale encounter for ending "
                          f"{state.ending}.")
        return Plan("encounter", BASE_COST["encounter"], data={"entry": entry})
    entry = catalog.shard_entry(shard)
    if entry is None:
        return Reject("no_encounter", f"Shard {shard} has no encounter.")
    return Plan("encounter", BASE_COST["encounter"], data={"entry": entry})


def _holds(state: GameState, catalog: Catalog, w: Wanderer, cond: dict[str, Any]) -> bool:
    """Evaluate an entrance condition on the state itself, leaving no trace. Conditions only
    read the state, except that placing 'current' for a wanderer off the board rolls the
    otherworld die: the generator is put back (cheaper than the clone this used to take)."""
    saved = state.rng
    try:
        return holds(Ctx(state, catalog, SeededDice(), DefaultPolicy(), who=w.id), cond)
    finally:
        state.rng = saved


@checker("domain")
def _domain(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    refused = _once(w, "domain", free) or _void(state, w, "domain")
    if refused is not None:
        return refused
    return Plan("domain", BASE_COST["domain"])


@checker("search")
def _search(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    refused = _once(w, "search", free) or _void(state, w, "search")
    if refused is not None:
        return refused
    if not state.decks.get("domain") and not state.decks.get("domain_discard"):
        return Reject("deck_empty", "The domain deck and its discard pile are empty.")
    return Plan("search", BASE_COST["search"])


@checker("trade")
def _trade(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    refused = _once(w, "trade", False)
    if refused is not None:
        return refused
    other = state.wanderers.get(args.get("with", ""))
    if other is None or other.id == w.id or not other.alive or other.shard != w.shard:
        return Reject("no_partner", f"{args.get('with')} is not another living wanderer in "
                      f"{w.id}'s space.")
    give, take = list(args.get("give", [])), list(args.get("take", []))
    for cards, holder in ((give, w), (take, other)):
        codas = [c for c in cards if c in holder.codas]
        if codas:
            return Reject("not_tradeable", f"'{codas[0]}' is a coda card; codas are never "
                          "traded.")
        short = Counter(cards) - Counter(holder.domain_cards)
        if short:
            return Reject("card_not_held", f"{holder.id} does not hold the domain card "
                          f"'{next(iter(short))}' (as many times as listed).")
    return Plan("trade", 0, data={"with": other.id, "give": give, "take": take})


@checker("existence")
def _existence(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    card = args.get("card")
    if card not in w.existence_deck:
        return Reject("unknown_card", f"'{card}' is not in {w.id}'s existence deck.")
    cost = catalog.existence_cards.get(card, {}).get("cost", 0)
    if w.existence < cost:
        return Reject("not_enough_existence", f"'{card}' costs {cost} existence; {w.id} has "
                      f"{w.existence}.")
    return Plan("existence", 0, data={"card": card, "price": cost})


@checker("confront")
def _confront(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    if state.stage == "finale":
        return Reject("no_confrontation", "The finale has no confrontation actions.")
    m = state.monsters.get(state.abomination or "")
    if m is None:
        return Reject("no_abomination", "The abomination is not on the board.")
    if state.confrontation["active"] is None:
        return Reject("no_active_card", "No confrontation card is active.")
    d = range_cost(state, catalog, w, m.shard)
    if isinstance(d, Reject):
        return d
    return Plan("confront", BASE_COST["confront"] + d, data={"monster": m.id})


@checker("component")
def _component(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    card = args.get("card")
    if card not in w.existence_cards and card not in w.domain_cards:
        return Reject("card_not_held", f"{w.id} holds no card '{card}'.")
    defn = catalog.existence_cards.get(card) or catalog.domain_cards.get(card) or {}
    action = use_action(catalog, w, card)
    charged = card in w.domain_cards and bool(defn.get("charges"))
    if not isinstance(action, dict):
        return Reject("no_component_action", f"'{card}' has no action.")
    if charged and w.charges.get(card, 0) <= 0:
        return Reject("no_component_action", f"'{card}' has no charge left.")
    return Plan("component", action.get("cost", 0), data={
        "card": card, "effects": action.get("effects", []), "charge": charged})


@checker("legacy")
def _legacy(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    card = args.get("card")
    if "legacy" in w.used or card not in consumables(state, catalog, w):
        return Reject("legacy_unavailable", f"{w.id} cannot spend the legacy card '{card}' now "
                      "(one consumable per round, each once per game).")
    return Plan("legacy", 0, data={"card": card})


@checker("pass")
def _pass(state: GameState, catalog: Catalog, w: Wanderer, args: Any, free: bool) -> Verdict:
    return Plan("pass", 0)

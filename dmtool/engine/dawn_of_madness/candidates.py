"""The actions worth trying for the active characters, before the legality checks.

A decision tests only a few candidates (the random player draws a kind, then an action of
it; the greedy player ranks plain values and tests the best), so the menu lists them as
blocks of raw items (a move's destination, a card id) and builds an Action, with its
argument mapping, only for a candidate someone looks at. `Menu.actions()` is the whole
list, in the order the engine has always listed it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, NamedTuple

from dmtool.engine.dawn_of_madness.actions import Action, new_action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import MAX_RANGE, domain_text
from dmtool.engine.dawn_of_madness.legacy import consumables
from dmtool.engine.dawn_of_madness.plans import BASE_COST
from dmtool.engine.dawn_of_madness.state import GameState, Wanderer

Entry = tuple[str, str | None, Any]  # (kind, wanderer, args): an Action not built yet
Items = tuple[Any, ...]


class Section(NamedTuple):
    """Part of a wanderer's listing: one kind, its raw items, each item's arguments, and
    whether it has any items (cheaper than listing them; None: it always has one)."""

    kind: str
    items: Callable[[GameState, Catalog, Wanderer], Items]
    args: Callable[[Any], Any]
    present: Callable[[GameState, Catalog, Wanderer], bool] | None = None


def _one(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return (None,)


def _no_args(item: Any) -> dict[str, Any]:
    return {}


def _card(item: Any) -> dict[str, Any]:
    return {"card": item}


def _destinations(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return catalog.board.around(w.shard or 0, MAX_RANGE)


def _can_move(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    return bool(catalog.board.around(w.shard or 0, MAX_RANGE))


def _to(item: Any) -> dict[str, Any]:
    return {"to": item}


def _encounter_cards(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return tuple(state.shards[w.shard or 0].cards)


def _any_encounter_card(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    return bool(state.shards[w.shard or 0].cards)


def _rifts(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return tuple([(m.id, domain_text(rift))
                  for m in state.monsters.values() for rift in dict.fromkeys(m.rifts)])


def _any_rift(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    for m in state.monsters.values():  # noqa: SIM110 (a loop: asked every random decision)
        if m.rifts:
            return True
    return False


def _rift(item: Any) -> dict[str, Any]:
    return {"monster": item[0], "rift": item[1]}


def _partners(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return tuple(o for o in state.wanderers if o != w.id)


def _any_partner(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    return len(state.wanderers) > 1


def _trade(item: Any) -> dict[str, Any]:
    return {"with": item, "give": [], "take": []}


def _existence_deck(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return tuple(w.existence_deck)


def _can_buy(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    return bool(w.existence_deck)


def _consumables(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return tuple(consumables(state, catalog, w)) if state.legacy.get(w.id) else ()


def _any_consumable(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    return bool(state.legacy.get(w.id)) and bool(consumables(state, catalog, w))


def _held_cards(state: GameState, catalog: Catalog, w: Wanderer) -> Items:
    return (*w.existence_cards, *w.domain_cards)


def _any_held(state: GameState, catalog: Catalog, w: Wanderer) -> bool:
    return bool(w.existence_cards or w.domain_cards)


# A wanderer's candidates in listing order. A kind may have several sections (plain
# encounter first, encounter cards after the moves). Support actions come last: each
# face-up support card offers again the candidates of the kind it grants.
SECTIONS: Final[tuple[Section, ...]] = (
    Section("pass", _one, _no_args), Section("domain", _one, _no_args),
    Section("search", _one, _no_args), Section("encounter", _one, _no_args),
    Section("confront", _one, _no_args), Section("move", _destinations, _to, _can_move),
    Section("encounter", _encounter_cards, _card, _any_encounter_card),
    Section("attack", _rifts, _rift, _any_rift),
    Section("trade", _partners, _trade, _any_partner),
    Section("existence", _existence_deck, _card, _can_buy),
    Section("legacy", _consumables, _card, _any_consumable),
    Section("component", _held_cards, _card, _any_held),
)
SECTION_KINDS: Final = frozenset(section.kind for section in SECTIONS)
KINDS: Final = tuple(section.kind for section in SECTIONS)
BASE_COSTS: Final = tuple(BASE_COST.get(kind, 0) for kind in KINDS)
_new_tuple: Final = tuple.__new__
REFUSABLE: Final = frozenset({"confront", "domain", "search", "encounter"})  # see Menu._blocked
# The kinds `Menu.hopeless_item` judges item by item (the others never: callers skip it).
ITEM_JUDGED: Final = frozenset({"existence"})
# The plain encounter of the wanderer's shard (listed before the encounter cards).
ENCOUNTER_HERE: Final = next(i for i, section in enumerate(SECTIONS) if section.kind == "encounter")


class Slot(NamedTuple):
    """A block of candidates before it is listed: whose, which section (its index in
    SECTIONS), and the support card granting it again (None: the wanderer's own)."""

    wanderer: str
    section: int
    card: str | None = None
    kind: str = ""  # the listed action kind: 'support' for a card's slot (see `make_slot`)


def make_slot(wanderer: str, section: int, card: str | None = None) -> Slot:
    """A slot with its kind filled in (read for every slot of every random decision)."""
    # tuple.__new__ rather than Slot(...): see `new_action`.
    return _new_tuple(Slot, (wanderer, section, card,
                             "support" if card is not None else KINDS[section]))


def support_offers(state: GameState, catalog: Catalog) -> tuple[tuple[str, str], ...]:
    """(card, kind of action it grants) of each face-up support card, in play order."""
    granting = catalog.derived.get("support_grants")
    if granting is None:  # each card's granted kind, when the menu lists that kind
        granting = catalog.derived["support_grants"] = {
            card: kind for card, defn in catalog.support_cards.items()
            if (kind := defn.get("action")) in SECTION_KINDS}
    return tuple([(card, granting[card]) for card, up in state.support.items()
                  if up and card in granting])


@lru_cache(maxsize=256)
def slots_for(wanderers: tuple[str, ...],
              offers: tuple[tuple[str, str], ...]) -> tuple[Slot, ...]:
    """The listing's slots in order: each wanderer's sections, then what its support cards
    grant (each granted section again, card by card). The same few combinations come back
    all game long, so they are worked out once."""
    out: list[Slot] = []
    for wid in wanderers:
        out += [make_slot(wid, i) for i in range(len(SECTIONS))]
        out += [make_slot(wid, i, card) for card, granted in offers
                for i, section in enumerate(SECTIONS) if section.kind == granted]
    return tuple(out)


Presence = Callable[[GameState, Catalog, Wanderer], bool] | None
Check = tuple[str, str, Presence]  # (kind, wanderer, whether the slot has items; None: yes)


class Listing(NamedTuple):
    """`slots_for` with what the random player reads of it each decision, worked out once:
    the slots of each kind in listing order, and the presence checks `Menu.kinds` makes
    (a slot whose kind an earlier slot always offers is left out: it cannot change the
    order of first appearance)."""

    wanderers: tuple[str, ...]
    slots: tuple[Slot, ...]
    by_kind: dict[str, tuple[Slot, ...]]
    checks: tuple[Check, ...]


NO_LISTING: Final = Listing((), (), {}, ())


@lru_cache(maxsize=256)
def listing_for(wanderers: tuple[str, ...], offers: tuple[tuple[str, str], ...]) -> Listing:
    slots = slots_for(wanderers, offers)
    by_kind: dict[str, list[Slot]] = {}
    for slot in slots:
        by_kind.setdefault(slot.kind, []).append(slot)
    always: set[str] = set()
    checks: list[Check] = []
    for slot in slots:
        if slot.kind in always:
            continue
        present = SECTIONS[slot.section].present
        checks.append((slot.kind, slot.wanderer, present))
        if present is None:
            always.add(slot.kind)
    return Listing(wanderers, slots, {kind: tuple(group) for kind, group in by_kind.items()},
                   tuple(checks))


MAX_BASE_COST: Final = max(BASE_COSTS)


class Standing(NamedTuple):
    """What a wanderer's candidates are refused for (see `refused`), read off the state once
    per decision: the facts, not the reasons."""

    trapped: bool
    support_last: bool
    mc: int  # capped at MAX_BASE_COST: only compared with base costs
    used_domain: bool
    used_search: bool
    void: bool  # a void token on the wanderer's shard
    completed: bool  # the plain encounter of the wanderer's shard is completed


class Table(NamedTuple):
    """The facts of the table that refuse candidates whoever takes them."""

    no_confrontation: bool  # the finale, no abomination, or no active confrontation card
    no_domain_deck: bool  # the domain deck and its discard pile are both empty


def standing(state: GameState, w: Wanderer) -> Standing:
    here = state.shards.get(w.shard) if w.shard is not None else None  # None: off the board
    # tuple.__new__ rather than Standing(...): see `new_action` (read every decision).
    return _new_tuple(Standing, (bool(w.trapped), w.support_last, min(w.mc, MAX_BASE_COST),
                                 "domain" in w.used, "search" in w.used,
                                 here is not None and here.has("void"),
                                 here is not None and here.has("completed")))


def table(state: GameState) -> Table:
    return _new_tuple(Table, (state.stage == "finale" or state.abomination not in state.monsters
                              or state.confrontation["active"] is None,
                              not state.decks.get("domain")
                              and not state.decks.get("domain_discard")))


def refused(slot: Slot, w: Standing, t: Table) -> bool:
    """Whether the legality check refuses every candidate of the slot, by the first
    refusals of `wanderer_verdict`, `check_inner`, `_pay` and the checkers of confront,
    domain, search and encounter (a pure function of the facts: see `Menu.refuses_all`)."""
    kind, free = KINDS[slot.section], slot.card is not None
    if w.trapped:
        return free or kind not in ("encounter", "pass")
    if free:
        if w.support_last:
            return True
    elif BASE_COSTS[slot.section] > w.mc:  # the menu never pays with brains
        return True
    if kind not in REFUSABLE:
        return False
    if kind == "confront":
        return t.no_confrontation
    if kind == "domain":
        return (not free and w.used_domain) or w.void
    if kind == "search":
        return (not free and w.used_search) or w.void or t.no_domain_deck
    if kind == "encounter":
        return w.void or (slot.section == ENCOUNTER_HERE and w.completed)
    return False


class Menu:
    """The candidates of the active characters: a monster's turn for each active monster,
    or each active wanderer's actions worth trying, listed a section at a time."""

    __slots__ = ("activations", "catalog", "hopeless_slots", "listed", "listing", "slots",
                 "standings", "state", "table")

    def __init__(self, state: GameState, catalog: Catalog, active: list[str]) -> None:
        self.state, self.catalog = state, catalog
        monsters = state.monsters
        self.activations = [new_action("activate", None, {"monster": cid})
                            for cid in active if cid in monsters]
        # The active characters are all monsters or all wanderers (`active_characters`).
        wanderers = () if self.activations and len(self.activations) == len(active) else tuple(
            [cid for cid in active if cid not in monsters])
        self.listing = (listing_for(wanderers, support_offers(state, catalog)) if wanderers
                        else NO_LISTING)
        self.slots = self.listing.slots
        self.listed: dict[tuple[str, int], Items] = {}
        self.hopeless_slots: dict[Slot, bool] = {}
        self.standings: dict[str, Standing] = {}
        self.table: Table | None = None

    def items(self, slot: Slot) -> Items:
        """The slot's raw items (a support slot shares its section's)."""
        key = (slot.wanderer, slot.section)
        found = self.listed.get(key)
        if found is None:
            w = self.state.wanderers[slot.wanderer]
            found = self.listed[key] = SECTIONS[slot.section].items(self.state, self.catalog, w)
        return found

    def present(self, slot: Slot) -> bool:
        """Whether the slot has any candidate (without listing it when that is cheaper)."""
        section = SECTIONS[slot.section]
        if section.present is None:
            return True
        listed = self.listed.get((slot.wanderer, slot.section))
        if listed is not None:
            return bool(listed)
        return section.present(self.state, self.catalog, self.state.wanderers[slot.wanderer])

    def hopeless(self, slot: Slot, item: Any) -> bool:
        """Whether the legality check would certainly refuse this candidate now: a cheap
        proof from the first refusals the checks make (most candidates tested in a decision
        are refused for these few reasons). False proves nothing; the check has the last
        word, so skipping a hopeless candidate never changes which legal one is found."""
        return self.blocked(slot) or self.hopeless_item(slot, item)

    def hopeless_item(self, slot: Slot, item: Any) -> bool:
        """`hopeless` for a candidate of a slot already known not to be `blocked`."""
        if KINDS[slot.section] in ITEM_JUDGED:  # `_existence` in action_checks
            price = self.catalog.existence_cards.get(item, {}).get("cost", 0)
            return bool(self.state.wanderers[slot.wanderer].existence < price)
        return False

    def blocked(self, slot: Slot) -> bool:
        """Whether every candidate of the slot is hopeless (worked out once per slot)."""
        found = self.hopeless_slots.get(slot)
        if found is None:
            found = self.hopeless_slots[slot] = self.refuses_all(slot)
        return found

    def refuses_all(self, slot: Slot) -> bool:
        """`blocked` worked out afresh, for a caller that asks once per slot (`draws`,
        greedy's `ranked`): `refused` on the facts, read once per wanderer."""
        # hot path: the facts are read once per decision, then only looked up.
        return refused(slot, self.standings.get(slot.wanderer) or self.standing(slot.wanderer),
                       self.table or self.facts())

    def standing(self, wid: str) -> Standing:
        found = self.standings.get(wid)
        if found is None:
            found = self.standings[wid] = standing(self.state, self.state.wanderers[wid])
        return found

    def facts(self) -> Table:
        if self.table is None:
            self.table = table(self.state)
        return self.table

    def entry(self, slot: Slot, item: Any) -> Entry:
        """The candidate one of the slot's raw items stands for."""
        section = SECTIONS[slot.section]
        args = section.args(item)
        if slot.card is None:
            return section.kind, slot.wanderer, args
        return "support", slot.wanderer, {"card": slot.card, section.kind: args}

    def action(self, slot: Slot, item: Any) -> Action:
        return new_action(*self.entry(slot, item))

    def kinds(self) -> list[str]:
        """Wanderer action kinds with a candidate, in order of first appearance."""
        # hot path (every random decision): the listing's checks, inlined. Nothing is
        # listed yet when the random player asks, so `present`'s look at `listed` is moot.
        state, catalog, wanderers = self.state, self.catalog, self.state.wanderers
        found: dict[str, None] = {}
        for kind, wid, present in self.listing.checks:
            if kind not in found and (present is None
                                      or present(state, catalog, wanderers[wid])):
                found[kind] = None
        return list(found)

    def of_kind(self, kind: str) -> list[tuple[Slot, Any]]:
        """The candidates of one kind as (slot, raw item), in listing order (a fresh list)."""
        return [(slot, item) for slot in self.listing.by_kind.get(kind, ())
                for item in self.items(slot)]

    def draws(self, kind: str) -> list[tuple[Slot, Any] | None]:
        """`of_kind`, with None in place of each `hopeless` candidate (the random player
        still draws it, then draws again): each slot is judged here, once."""
        out: list[tuple[Slot, Any] | None] = []
        for slot in self.listing.by_kind.get(kind, ()):
            items = self.items(slot)
            if not items:
                continue
            if self.refuses_all(slot):  # a slot belongs to one kind: judged once
                out += [None] * len(items)
            elif KINDS[slot.section] in ITEM_JUDGED:
                out += [None if self.hopeless_item(slot, item) else (slot, item)
                        for item in items]
            else:
                out += [(slot, item) for item in items]
        return out

    def actions(self) -> list[Action]:
        """Every candidate, in listing order: monsters' turns, then wanderer actions."""
        return self.activations + [self.action(slot, item) for slot in self.slots
                                   for item in self.items(slot)]

"""A rough heuristic player ('greedy'), for balance readings that mean more than random
play: confront when possible, enter encounters, hit monsters close by, gather domains,
and walk toward the abomination or the nearest open encounter; take help when offered."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from heapq import heappop, heappush
from typing import Any, Final

from dmtool.engine.core.policy import REQUIRED, Question
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.candidates import (
    ITEM_JUDGED,
    KINDS,
    SECTIONS,
    Items,
    Menu,
    Slot,
    Standing,
    Table,
    refused,
)
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import MAX_RANGE, SHARDS
from dmtool.engine.dawn_of_madness.state import GameState

KIND_VALUE: Final = {"confront": 100, "legacy": 95, "encounter": 90, "attack": 60, "existence": 70,
              "domain": 50, "search": 45, "component": 30, "move": 20, "trade": -5,
              "pass": 0}
YES: Final = ("defend", "spend_domains", "discard_cards", "may")
FIRST_OPTION: Final = frozenset({"target", "respawn_order", "monster_step", "order",
                          "discard_domain_card", "discard_condition_card"})
Group = tuple[str, str | None, Items, float]  # kind, wanderer, raw items, bonus


def ranked(state: GameState, catalog: Catalog, menu: Menu) -> Iterator[Action]:
    """The menu's candidates, best first, each Action built only when it is reached.

    The order is exactly a stable sort of the whole listing by value (less the candidates
    the menu proves illegal, see `Menu.hopeless`), found lazily with a heap keyed
    (-value, slot number, item number): a slot enters it with the best value any of its
    candidates can score, unless the facts refuse every candidate of it (`_viable`), and
    only when it comes to the top is it listed and, for a move or an attack, valued item
    by item. Most decisions end on a candidate of a kind worth more than any move, whose
    destinations are then never valued."""
    slots = menu.slots
    heap = list(_viable(menu))  # sorted, so already a heap
    items_of = menu.items  # hot path: looked up once
    listed: dict[int, Items] = {}
    places: dict[str | None, tuple[int, int | None] | None] = {}
    goals: dict[int, int | None] = {}
    while heap:
        _, number, item = heappop(heap)
        if item >= 0:  # a move or an attack, valued when its slot came to the top
            yield menu.action(slots[number], listed[number][item])
            continue
        slot = slots[number]
        items = items_of(slot)
        if not items:
            continue
        kind = KINDS[slot.section]
        if kind == "move" or kind == "attack":
            listed[number] = items
            bonus = 0.0 if slot.card is None else 1.0
            values = _values(state, catalog, (kind, slot.wanderer, items, bonus), places,
                             goals)
            for index, value in enumerate(values):
                heappush(heap, (-value, number, index))
            continue
        # Every candidate of the slot has the value it entered with: nothing left in the
        # heap goes before any of them (see `_plan`), so they come in turn.
        if kind in ITEM_JUDGED:
            for raw in items:
                if not menu.hopeless_item(slot, raw):
                    yield menu.action(slot, raw)
        else:
            for raw in items:
                yield menu.action(slot, raw)


Entry = tuple[float, int, int]  # (-value, slot number, item number or -1), see `_plan`
Facts = tuple[tuple[Standing, ...], Table]  # each listed wanderer's standing, the table's

# `_plan` by the identity of the slots tuple (`slots_for` hands out the same tuple for the
# same wanderers and cards): hashing a tuple of slots for every decision cost more than the
# rest of the lookup. Each entry keeps its tuple alive, so an id is never reused meanwhile;
# with it, the plan less the slots refused, by the facts that refused them (a few dozen
# combinations come back all run long).
_PLANS: Final[dict[int, tuple[tuple[Slot, ...], tuple[Entry, ...], dict[Facts, tuple[Entry, ...]]]]] = {}


def _viable(menu: Menu) -> tuple[Entry, ...]:
    """The heap entries of the menu's slots that the facts do not refuse, in heap order."""
    slots = menu.slots
    found = _PLANS.get(id(slots))
    if found is None or found[0] is not slots:
        if len(_PLANS) >= 1024:  # bounded like the caches it sits on
            _PLANS.clear()
        found = _PLANS[id(slots)] = (slots, _plan(slots), {})
    _, plan, viable = found
    wanderers = menu.listing.wanderers
    facts = (tuple([menu.standing(wid) for wid in wanderers]), menu.facts())
    entries = viable.get(facts)
    if entries is None:
        if len(viable) >= 4096:
            viable.clear()
        standings = dict(zip(wanderers, facts[0]))
        entries = viable[facts] = tuple(
            [entry for entry in plan
             if not refused(slots[entry[1]], standings[slots[entry[1]].wanderer], facts[1])])
    return entries


@lru_cache(maxsize=256)
def _plan(slots: tuple[Slot, ...]) -> tuple[Entry, ...]:
    """Each slot's entry in the ranking heap, in heap order: (-best value, slot number,
    -1). The -1 puts a slot before its own candidates, whose entries (-value, slot number,
    item number) can only come later: a move ends at most MAX_RANGE spaces nearer its
    goal (10 points a space), an attack only loses points with distance, and every other
    kind has one value."""
    entries = []
    for number, slot in enumerate(slots):
        kind = SECTIONS[slot.section].kind
        best = (KIND_VALUE.get(kind, 10) + (slot.card is not None)
                + (10 * MAX_RANGE if kind == "move" else 0))
        entries.append((-best, number, -1))
    return tuple(sorted(entries))


def rank(state: GameState, catalog: Catalog, actions: list[Action]) -> list[Action]:
    """A list of candidates, best first (ties keep the list's order)."""
    return [actions[i] for i in _order(state, catalog, [_group(a) for a in actions])]


def _group(action: Action) -> Group:
    """One listed action as a group of one raw item (a support card's action ranks as
    the action it grants, plus one)."""
    kind, args = action.kind, action.args if isinstance(action.args, dict) else {}
    bonus = 0.0
    if kind == "support":
        inner = [k for k in args if k != "card"]
        kind, bonus = inner[0], 1.0
        args = args[kind] if isinstance(args[kind], dict) else {}
    item = (args.get("to") if kind == "move" else
            (args.get("monster", ""), None) if kind == "attack" else None)
    return kind, action.wanderer, (item,), bonus


def _order(state: GameState, catalog: Catalog, groups: list[Group]) -> list[int]:
    """Flat indices of the groups' items, best value first; ties keep their order (the
    sort is stable)."""
    places: dict[str | None, tuple[int, int | None] | None] = {}
    goals: dict[int, int | None] = {}
    values: list[float] = []
    for group in groups:
        values += _values(state, catalog, group, places, goals)
    return sorted(range(len(values)), key=values.__getitem__, reverse=True)


def _values(state: GameState, catalog: Catalog, group: Group,
            places: dict[str | None, tuple[int, int | None] | None],
            goals: dict[int, int | None]) -> list[float]:
    """The value of each of a group's items. A decision values some fifty candidates, most
    of them moves: a group at a time, and each wanderer's place and goal once (kept in
    `places` and `goals` for the decision)."""
    kind, who, items, bonus = group
    base = KIND_VALUE.get(kind, 10) + bonus
    if kind != "move" and kind != "attack":
        return [base] * len(items)
    if who not in places:
        places[who] = _place(state, catalog, who, goals)
    place = places[who]
    if place is None:
        return [base] * len(items)
    if kind == "attack":
        row = catalog.board.distances(place[0])
        monsters = state.monsters
        return [base - 10 * (row.get(monsters[mid].shard) or 0) if mid in monsters
                else base for mid, _ in items]
    here, goal = place
    if goal is None:
        return [base - 5] * len(items)
    row = catalog.board.distances(goal)  # distances are symmetric
    before = row.get(here) or 0
    return [base + 10 * (before - (row.get(to) or 0)) if isinstance(to, int)
            else base - 5 for to in items]


def _place(state: GameState, catalog: Catalog, who: str | None,
           goals: dict[int, int | None]) -> tuple[int, int | None] | None:
    """A wanderer's shard and the shard it walks toward (None off the board)."""
    w = state.wanderers.get(who or "")
    if w is None or w.shard is None:
        return None
    if w.shard not in goals:
        goals[w.shard] = _goal(state, catalog, w.shard)
    return w.shard, goals[w.shard]


def _goal(state: GameState, catalog: Catalog, here: int) -> int | None:
    """The abomination's shard while it lives, else the nearest shard with an encounter the
    wanderers can still enter (the lowest number among the nearest)."""
    abomination = state.monsters.get(state.abomination or "")
    if abomination is not None and state.stage == "wanderer":
        return abomination.shard
    entries = catalog.encounter_entries(state.stage, state.ending)
    shards = state.shards
    # Here, then the shards joined to it nearest first and by number: the first that
    # qualifies is the nearest with the lowest number.
    for n in (here, *catalog.board.around(here, len(SHARDS))):
        shard = shards.get(n)
        if shard is None:
            continue
        tokens = shard.tokens
        if tokens.get("void", 0) > 0:
            continue
        if shard.cards or (entries.get(n) is not None and tokens.get("completed", 0) <= 0):
            return n
    return None


def answer(question: Question) -> tuple[str, Any] | None:
    """The heuristic's answer, or None to leave the question to the random pick."""
    key, options = question.keys[0], question.options  # `Question.key`, read once
    if key in YES and question.valid(key, True):
        return key, True
    if key == "absorb" and options:
        return key, max(options)
    if key == "legacy_keep":
        return key, "new"
    if key in FIRST_OPTION and options:
        return key, options[0]
    if question.default is not REQUIRED and not options:
        return key, question.default
    return None

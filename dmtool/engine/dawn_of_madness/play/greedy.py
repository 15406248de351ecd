"""A rough heuristic player ('greedy'), for balance readings that mean more than random
play: confront when possible, enter encounters, hit monsters close by, gather domains,
and walk toward the abomination or the nearest open encounter; take help when offered."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from itertools import accumulate
from typing import Any

from dmtool.engine.core.policy import REQUIRED, Question
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.candidates import SECTIONS, Items, Menu, Slot
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import MAX_RANGE, SHARDS
from dmtool.engine.dawn_of_madness.state import GameState

KIND_VALUE = {"confront": 100, "legacy": 95, "encounter": 90, "attack": 60, "existence": 70,
              "domain": 50, "search": 45, "component": 30, "move": 20, "trade": -5,
              "pass": 0}
YES = ("defend", "spend_domains", "discard_cards", "may")
FIRST_OPTION = frozenset({"target", "respawn_order", "monster_step", "order",
                          "discard_domain_card", "discard_condition_card"})
Group = tuple[str, str | None, Items, float]  # kind, wanderer, raw items, bonus
VARIABLE = ("move", "attack")  # the kinds whose value depends on where things are


def ranked(state: GameState, catalog: Catalog, menu: Menu) -> Iterator[Action]:
    """The menu's candidates, best first, each Action built only when it is reached.

    The order is exactly a stable sort of the whole listing by value (less the candidates
    the menu proves illegal, see `Menu.hopeless`), found lazily: the
    candidates of kinds worth more than any move or attack can score come first and need
    no ranking; the rest are ranked only when none of those is legal (about half the
    decisions)."""
    first, rest = _plan(menu.slots)
    # Candidates the menu can prove illegal are left out: the legal ones keep their order.
    for slot in first:
        if menu.blocked(slot):
            continue
        for item in menu.items(slot):
            if not menu.hopeless_item(slot, item):
                yield menu.action(slot, item)
    blocks = [(slot, items) for slot in rest
              if not menu.blocked(slot) and (items := menu.items(slot))]
    best = _order(state, catalog, [(SECTIONS[slot.section].kind, slot.wanderer, items,
                                    0.0 if slot.card is None else 1.0)
                                   for slot, items in blocks])
    starts = list(accumulate((len(items) for _, items in blocks), initial=0))
    for flat in best:
        index = bisect_right(starts, flat) - 1
        slot, items = blocks[index]
        yield menu.action(slot, items[flat - starts[index]])


@lru_cache(maxsize=256)
def _plan(slots: tuple[Slot, ...]) -> tuple[tuple[Slot, ...], tuple[Slot, ...]]:
    """The slots whose constant value beats the best a move or an attack can score, best
    first (ties in listing order), and the other slots in listing order."""
    values = [KIND_VALUE.get(SECTIONS[s.section].kind, 10) + (s.card is not None)
              for s in slots]
    variable = [i for i, s in enumerate(slots) if SECTIONS[s.section].kind in VARIABLE]
    # A move ends at most MAX_RANGE spaces nearer its goal (10 points a space); an attack
    # only loses points with distance.
    bound = max((values[i] + (10 * MAX_RANGE if SECTIONS[slots[i].section].kind == "move"
                              else 0) for i in variable), default=float("-inf"))
    first = sorted((i for i in range(len(slots)) if i not in variable and values[i] > bound),
                   key=lambda i: -values[i])
    return (tuple(slots[i] for i in first),
            tuple(s for i, s in enumerate(slots) if i not in first))


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
    sort is stable). A decision ranks some fifty candidates, most of them moves: values
    are worked out a group at a time, and each wanderer's place and goal once."""
    places: dict[str | None, tuple[int, int | None] | None] = {}
    goals: dict[int, int | None] = {}
    values: list[float] = []
    for kind, who, items, bonus in groups:
        base = KIND_VALUE.get(kind, 10) + bonus
        if kind != "move" and kind != "attack":
            values += [base] * len(items)
            continue
        if who not in places:
            places[who] = _place(state, catalog, who, goals)
        place = places[who]
        if place is None:
            values += [base] * len(items)
        elif kind == "attack":
            row = catalog.board.distances(place[0])
            monsters = state.monsters
            values += [base - 10 * (row.get(monsters[mid].shard) or 0) if mid in monsters
                       else base for mid, _ in items]
        elif place[1] is None:
            values += [base - 5] * len(items)
        else:
            here, goal = place
            row = catalog.board.distances(goal)  # distances are symmetric
            before = row.get(here) or 0
            values += [base + 10 * (before - (row.get(to) or 0)) if isinstance(to, int)
                       else base - 5 for to in items]
    return sorted(range(len(values)), key=values.__getitem__, reverse=True)


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

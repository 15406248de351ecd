"""A rough heuristic player ('greedy'), for balance readings that mean more than random
play: confront when possible, enter encounters, hit monsters close by, gather domains,
and walk toward the abomination or the nearest open encounter; take help when offered."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.policy import REQUIRED, Question
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.state import GameState

KIND_VALUE = {"confront": 100, "legacy": 95, "encounter": 90, "attack": 60, "existence": 70,
              "domain": 50, "search": 45, "component": 30, "move": 20, "trade": -5,
              "pass": 0}
YES = ("defend", "spend_domains", "discard_cards", "may")


def rank(state: GameState, catalog: Catalog, actions: list[Action]) -> list[Action]:
    """The candidates, best first (ties keep the engine's order: the sort is stable).

    This runs for every decision of every greedy game over some fifty candidates, most of
    them moves: each wanderer's place and goal are looked up once, not once per move."""
    board = catalog.board
    goals: dict[int, int | None] = {}
    places: dict[str | None, tuple[int, int | None] | None] = {}
    values: list[float] = []
    for action in actions:
        kind, args = action.kind, action.args if isinstance(action.args, dict) else {}
        bonus = 0.0
        if kind == "support":
            inner = [k for k in args if k != "card"]
            kind, args, bonus = inner[0], args[inner[0]], 1.0
        value = KIND_VALUE.get(kind, 10) + bonus
        if kind == "attack" or kind == "move":
            who = action.wanderer
            if who not in places:
                places[who] = _place(state, catalog, who, goals)
            place = places[who]
            if place is not None:
                here, goal = place
                if kind == "attack":
                    m = state.monsters.get(args.get("monster", ""))
                    far = board.distance(here, m.shard) if m else None
                    value -= 10 * (far or 0)
                else:
                    to = args.get("to")
                    if goal is not None and isinstance(to, int):
                        before, after = board.distance(here, goal), board.distance(to, goal)
                        value += 10 * ((before or 0) - (after or 0))
                    else:
                        value -= 5
        values.append(value)
    order = sorted(range(len(actions)), key=values.__getitem__, reverse=True)
    return [actions[i] for i in order]


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
    wanderers can still enter."""
    abomination = state.monsters.get(state.abomination or "")
    if abomination is not None and state.stage == "wanderer":
        return abomination.shard
    open_: list[int] = []
    for n, shard in state.shards.items():
        if shard.has("void"):
            continue
        entry = (catalog.finale_entry(n, state.ending) if state.stage == "finale"
                 else catalog.shard_entry(n))
        if shard.cards or (entry is not None and not shard.has("completed")):
            open_.append(n)
    reachable = [(catalog.board.distance(here, n), n) for n in open_]
    reachable = [(d, n) for d, n in reachable if d is not None]
    return min(reachable)[1] if reachable else None


def answer(question: Question) -> tuple[str, Any] | None:
    """The heuristic's answer, or None to leave the question to the random pick."""
    if question.key in YES and question.valid(question.key, True):
        return question.key, True
    if question.key == "absorb" and question.options:
        return question.key, max(question.options)
    if question.key == "legacy_keep":
        return question.key, "new"
    if question.key in ("target", "respawn_order", "monster_step", "order",
                        "discard_domain_card", "discard_condition_card") and question.options:
        return question.key, question.options[0]
    if question.default is not REQUIRED and not question.options:
        return question.key, question.default
    return None

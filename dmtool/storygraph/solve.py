"""The fixpoint of what can happen in a game, and the reachability it gives.

Static conditions prune sides: a side guarded by `has_coda X` is dropped when no reachable
branch awards X, one guarded by `score_at_least {D: 26}` when ending D can never have 26
points, and so on (see conditions.Facts). More facts (codas, entries read, wider score and
sentience ranges) only ever open more sides, so we iterate upwards from what the start
gives (the codas other cards award, no entry read, no points, each wanderer's dashboard)
to the least fixpoint: nothing supports itself (two sides each needing the coda only the
other awards stay closed). Every fact of a real game is in it, by induction on the game's
steps: each step's condition held under facts already in the fixpoint, so its side is open
there. The per-game bounds name their premises (storygraph.totals).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.bounds import asked, tighten
from dmtool.storygraph.build import Node, Root, StoryGraph
from dmtool.storygraph.conditions import Facts
from dmtool.storygraph.reach import NOTHING, Must, Track, search


@dataclass(frozen=True)
class Solution:
    facts: Facts
    reached: frozenset[Node]  # from every root (wanderer stage and all finales)
    stage: frozenset[Node]  # from the wanderer stage's roots only
    finale: dict[str, frozenset[Node]]  # per ending, from its finale roots
    # The rounds each reached node can be read in (the hull over the stage and finales).
    rounds: dict[Node, tuple[float, float]]
    # The least points of each ending in its own finale (see _floor), and the ending whose
    # finale alone reads each node that no other part of the game reads.
    floors: dict[str, int]
    ending_of: dict[Node, str]
    # What every way to each node has surely done (reach.search's `must`), and the nodes
    # whose conditions may concern another wanderer than the reader (Track.grouped).
    must: dict[Node, Must]
    grouped: frozenset[Node]

    def facts_at(self, node: Node, facts: Facts | None = None) -> Facts:
        """The facts where `node` is read: its rounds, and its ending's floor if it has one."""
        base = self.facts if facts is None else facts
        letter = self.ending_of.get(node)
        if letter is not None and letter in self.floors:
            base = base.at_ending(letter, self.floors[letter])
        held, seen = self.knows(node)
        return base.at_rounds(self.rounds.get(node, (1, float("inf")))).knowing(held, seen)

    def knows(self, node: Node) -> Must:
        """What every way to `node` has surely done, as its conditions may use it."""
        held, seen = self.must.get(node, NOTHING)
        return (frozenset() if node in self.grouped else held), seen


def solve(graph: StoryGraph) -> Solution:
    """Reachability under the tightest facts we can prove (the least fixpoint)."""
    graph.asked = asked(graph)
    track = _track(graph)
    in_finale = None if track is None else Track(track.codas, track.entries, track.grouped,
                                                 gains=False)
    start = Facts(codas=graph.context.codas_elsewhere, visited=frozenset())
    facts = tighten(graph, start, (), (), ())
    while True:
        # What every root reaches is what the wanderer stage's roots reach and what each
        # ending's finale roots do, together. Searched apart, they serve the score bounds
        # too (tighten), and the last step's are the solution's stage and finales: no
        # search is made twice.
        rounds: dict[Node, tuple[float, float]] = {}
        must: dict[Node, Must] = {}
        stage = search(graph, graph.stage_roots, facts, rounds=rounds, track=track, must=must)
        searched = [(stage, must)]
        finale = {}
        floors: dict[str, int] = {}
        for letter, roots in graph.finale_roots.items():
            spans: dict[Node, tuple[float, float]] = {}
            floor = _floor(graph, roots, facts, letter)
            here = facts if floor is None else facts.at_ending(letter, floor)
            if floor is not None:
                floors[letter] = floor
            known: dict[Node, Must] = {}
            finale[letter] = search(graph, roots, here, rounds=spans, track=in_finale,
                                    must=known)
            searched.append((finale[letter], known))
            for node, (low, high) in spans.items():
                was = rounds.get(node, (low, high))
                rounds[node] = (min(was[0], low), max(was[1], high))
        in_finales: dict[Node, object] = {}
        for found in finale.values():
            in_finales.update(found)
        reached = {**stage, **in_finales}
        tighter = tighten(graph, facts, reached, stage, in_finales)
        if tighter == facts:
            break
        facts = tighter
    owners: dict[Node, str | None] = {}
    for letter, found in finale.items():
        for node in found:
            owners[node] = letter if owners.get(node, letter) == letter else None
    ending_of = {n: e for n, e in owners.items() if e is not None and n not in stage}
    return Solution(facts, frozenset(reached), frozenset(stage),
                    {letter: frozenset(found) for letter, found in finale.items()}, rounds,
                    floors, ending_of, _knowledge(searched),
                    frozenset() if track is None else track.grouped)


def _knowledge(searched: list[tuple[Any, dict[Node, Must]]]) -> dict[Node, Must]:
    """What every way to each node surely did, over every search that reached it."""
    merged: dict[Node, Must] = {}
    for found, known in searched:
        for node in found:
            mine = known.get(node, NOTHING)
            was = merged.get(node, mine)
            merged[node] = (was[0] & mine[0], was[1] & mine[1])
    return {n: m for n, m in merged.items() if m[0] or m[1]}


def _track(graph: StoryGraph) -> Track | None:
    """What the searches follow along every way in: the coda cards and entries that some
    condition asks about (None when none does: the searches then follow nothing)."""
    codas: set[str] = set()
    entries: set[int] = set()
    for node in graph.conditioned:
        for arc in graph.arcs[node]:
            for condition, _ in arc.conditions:
                _flags(condition, codas, entries)
    for entrance in graph.entrances.values():
        _flags(entrance, codas, entries)
    if not codas and not entries:
        return None
    # A group may change the reader; a trapping entry is entered again later by a reader
    # who may hold other cards by then: at both, nothing the reader holds is kept.
    grouped = frozenset(n for n in graph.conditioned | graph.awarding
                        | {n for n, arcs in graph.arcs.items() if any(a.economy for a in arcs)}
                        if _grouped(graph.effects_of(n)[0]))
    return Track(frozenset(codas), frozenset(entries), grouped)


def _flags(condition: Any, codas: set[str], entries: set[int]) -> None:
    stack = [condition]
    while stack:
        item = stack.pop()
        if not isinstance(item, Mapping):
            continue
        for name, value in item.items():
            if name == "has_coda" and isinstance(value, str):
                codas.add(value)
            elif name == "visited" and isinstance(value, int) and not isinstance(value, bool):
                entries.add(value)
            elif name in ("all", "any") and isinstance(value, list):
                stack.extend(value)
            elif name == "not":
                stack.append(value)


def _grouped(effects: Any) -> bool:
    """Whether an all_wanderers or central_wanderer block, or a trap, is written anywhere
    in effects."""
    stack = [effects]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if "all_wanderers" in item or "central_wanderer" in item or "trap" in item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


# The least goal of the four scores together (DoM: the quicker game's 30), shared among
# four endings: the ending played has the most points, so at least a quarter of it.
LEAST_GOAL = 30
FINALE_FLOOR = -(-LEAST_GOAL // 4)


def _floor(graph: StoryGraph, roots: list[Root], facts: Facts, letter: str) -> int | None:
    """FINALE_FLOOR when no branch the ending's finale can reach takes points from it (its
    points then never fall below what won it the stage), else None."""
    index = ENDINGS.index(letter)
    for node in search(graph, roots, facts):
        for arc in graph.arcs[node]:
            if any(points[index] < 0 for points in arc.scores):
                return None
    return FINALE_FLOOR

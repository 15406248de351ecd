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

from dataclasses import dataclass

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.bounds import asked, tighten
from dmtool.storygraph.build import Node, Root, StoryGraph
from dmtool.storygraph.conditions import Facts
from dmtool.storygraph.reach import search


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

    def facts_at(self, node: Node, facts: Facts | None = None) -> Facts:
        """The facts where `node` is read: its rounds, and its ending's floor if it has one."""
        base = self.facts if facts is None else facts
        letter = self.ending_of.get(node)
        if letter is not None and letter in self.floors:
            base = base.at_ending(letter, self.floors[letter])
        return base.at_rounds(self.rounds.get(node, (1, float("inf"))))


def solve(graph: StoryGraph) -> Solution:
    """Reachability under the tightest facts we can prove (the least fixpoint)."""
    graph.asked = asked(graph)
    start = Facts(codas=graph.context.codas_elsewhere, visited=frozenset())
    facts = tighten(graph, start, (), (), ())
    while True:
        # What every root reaches is what the wanderer stage's roots reach and what each
        # ending's finale roots do, together. Searched apart, they serve the score bounds
        # too (tighten), and the last step's are the solution's stage and finales: no
        # search is made twice.
        rounds: dict[Node, tuple[float, float]] = {}
        stage = search(graph, graph.stage_roots, facts, rounds=rounds)
        finale = {}
        floors: dict[str, int] = {}
        for letter, roots in graph.finale_roots.items():
            spans: dict[Node, tuple[float, float]] = {}
            floor = _floor(graph, roots, facts, letter)
            here = facts if floor is None else facts.at_ending(letter, floor)
            if floor is not None:
                floors[letter] = floor
            finale[letter] = search(graph, roots, here, rounds=spans)
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
                    floors, ending_of)


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

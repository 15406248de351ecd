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

from dmtool.storygraph.bounds import asked, tighten
from dmtool.storygraph.build import Node, StoryGraph
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
        for letter, roots in graph.finale_roots.items():
            spans: dict[Node, tuple[float, float]] = {}
            finale[letter] = search(graph, roots, facts, rounds=spans)
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
    return Solution(facts, frozenset(reached), frozenset(stage),
                    {letter: frozenset(found) for letter, found in finale.items()}, rounds)

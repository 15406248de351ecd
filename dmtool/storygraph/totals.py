"""The most a weight (an ending's points, a sentience colour's changes) can add up to in one
game: what one walk from each start can collect (storygraph.walkvalues) times how often
that walk can be resolved (storygraph.economy), with the premises used."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.conditions import Facts
from dmtool.storygraph.economy import (
    Budget,
    NodeFacts,
    Passes,
    budget,
    node_facts,
    passes,
    surely_completes,
)
from dmtool.storygraph.reach import open_map
from dmtool.storygraph.walkvalues import RowsOf, walk_values

INF = float("inf")


@dataclass(frozen=True)
class Economy:
    """The passes of one wanderer stage under some facts, and its encounter budget."""

    passes: Passes
    budget: Budget
    facts_of: Mapping[Node, NodeFacts]

    @property
    def premises(self) -> tuple[str, ...]:
        return self.passes.premises + self.budget.premises


def economy(graph: StoryGraph, facts: Facts, stage: Collection[Node]) -> Economy:
    """Worked out once per facts and stage (kept on the graph)."""
    key = (id(facts), len(stage))
    found = graph.economy_cache.get(key)
    if found is not None and found[0] is facts:
        return found[1]  # type: ignore[no-any-return]
    # Only the nodes whose branches digest such an effect are read again (a few in most
    # storybooks); every other node gives nothing back and cannot end an encounter early
    # after a completed token it does not place.
    arcs = graph.arcs
    facts_of = {n: node_facts(graph.effects_of(n)[0]) for n in stage
                if any(a.economy or a.completes for a in arcs[n])}
    arcs_of = open_map(graph, facts)
    passes_ = passes(graph, stage, arcs_of, facts_of)
    coda_units = {c: node_facts(list(e)).units for c, e in graph.context.coda_effects.items()}

    def units(arc: Arc) -> Sequence[Sequence[int]]:
        own = facts_of[arc.node].units if arc.node in facts_of else 0
        gained = own + (sum(coda_units.get(c, 0) for c in arc.codas) if arc.codas else 0)
        return ((gained,),) if gained else ()

    worst, most, units_once = None, 0.0, 0.0
    if any(f.units for f in facts_of.values()) or any(coda_units.values()):
        once = walk_values(graph, facts, stage, units, 1)
        repeat = _repeat_values(graph, facts, stage, units, 1, passes_, facts_of, once)
        for start, value in repeat:
            if value[0] > most:
                worst, most = start, value[0]
        units_once = sum(times * once[s][0] for s, times in passes_.once if s in once)
        units_once += sum(once[s][0] for s in passes_.shards if s in once)
    result = Economy(passes_, budget(units_once, most, graph.context.units_elsewhere, worst),
                     facts_of)
    graph.economy_cache[key] = (facts, result)
    return result


def _repeat_values(graph: StoryGraph, facts: Facts, stage: Collection[Node], rows_of: RowsOf,
                   size: int, passes_: Passes, facts_of: Mapping[Node, NodeFacts],
                   every: Mapping[Node, list[float]]) -> list[tuple[Node, list[float]]]:
    """(start, what one repeatable pass from it can collect) for every repeatable start;
    `every` is what any pass from each node can collect."""
    found = [(s, every[s]) for s in passes_.repeat_open if s in every]
    completing = any(a.completes for n in facts_of for a in graph.arcs[n])
    if passes_.reopened or not completing:
        return found + [(s, every[s]) for s in passes_.repeat_shards if s in every]
    if passes_.repeat_shards:
        open_ = walk_values(graph, facts, stage, rows_of, size,
                            skip=lambda arc: surely_completes(arc, facts_of))
        found += [(s, open_[s]) for s in passes_.repeat_shards if s in open_]
    return found


def game_totals(graph: StoryGraph, facts: Facts, stage: Collection[Node], rows_of: RowsOf,
                size: int, every: Mapping[Node, list[float]] | None = None,
                ) -> tuple[list[float], Economy]:
    """The most each weight can add up to over the wanderer stage of one game; `every`,
    when the caller has it, is walk_values of the same weights."""
    eco = economy(graph, facts, stage)
    if every is None:
        every = walk_values(graph, facts, stage, rows_of, size)
    totals = [0.0] * size
    for start, times in eco.passes.once:
        if start in every:
            totals = [t + times * v for t, v in zip(totals, every[start])]
    for start in eco.passes.shards:  # the pass that completes a shard, once per shard
        if start in every:
            totals = [t + v for t, v in zip(totals, every[start])]
    best = [0.0] * size
    for _, value in _repeat_values(graph, facts, stage, rows_of, size, eco.passes,
                                   eco.facts_of, every):
        best = [max(b, v) for b, v in zip(best, value)]
    count = eco.budget.encounters
    return [t + (count * b if b > 0 else 0.0) for t, b in zip(totals, best)], eco


def finale_gains(graph: StoryGraph, facts: Facts, finale: Collection[Node], rows_of: RowsOf,
                 size: int) -> list[bool]:
    """Whether some branch the finales reach adds to each weight: the finale has no last
    round, so such a weight has no bound."""
    arcs_of = open_map(graph, facts)
    found = [False] * size
    for node in finale:
        for arc in arcs_of.get(node, ()):
            for row in rows_of(arc):
                found = [f or w > 0 for f, w in zip(found, row)]
    return found

"""The most a weight can collect in one walk from each node (see storygraph.scores for the
method): shared by the score bounds, their certificates and the per-game totals."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from operator import add

from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.conditions import Facts
from dmtool.storygraph.reach import components, enterable, open_map

INF = float("inf")


def arc_values(rows: Sequence[Sequence[int]], size: int) -> tuple[list[int], list[int]]:
    """(total, best prefix including the empty one) of each weight along a branch whose
    effects weigh `rows`, in order."""
    if len(rows) == 1:
        return list(rows[0]), [w if w > 0 else 0 for w in rows[0]]
    total = [0] * size
    best = [0] * size
    for row in rows:
        total = [t + w for t, w in zip(total, row)]
        best = [max(b, t) for b, t in zip(best, total)]
    return total, best


# The weight rows of a branch: one row per weighed effect, in order; empty when none weighs.
RowsOf = Callable[[Arc], Sequence[Sequence[int]]]


def walk_values(
    graph: StoryGraph, facts: Facts, within: Collection[Node], rows_of: RowsOf, size: int,
    skip: Callable[[Arc], bool] | None = None,
) -> dict[Node, list[float]]:
    """For every node of `within` (closed under its links), the most each weight can collect
    in one walk from there (see storygraph.scores); a walk never takes a branch `skip`
    refuses."""
    arcs_of = open_map(graph, facts)
    entrances = graph.entrances
    value: dict[Node, list[float]] = {}
    # What a walk collects when it can collect nothing, shared: max with it changes no
    # value (every value is at least 0), so a link to such a node is passed over.
    nothing: list[float] = [0.0] * size
    # `within` is closed under its links, so its components are whole components of the
    # graph (an entrance that can never be passed may cut one: we keep its part inside).
    for whole in components(graph, facts):
        members: Collection[Node]
        if len(whole) == 1:  # most components: a node on no cycle (a list serves as its set)
            if whole[0] not in within:
                continue
            component = members = whole
        else:
            component = [n for n in whole if n in within]
            if not component:
                continue
            members = set(component)
        best = nothing  # never changed in place: each step below makes a new list
        for node in component:
            for arc in arcs_of[node]:
                if skip is not None and skip(arc):
                    continue
                target = arc.goto
                # hot path: enterable() spelt out (most entries have no entrance condition)
                if target is not None and (target not in within or (
                        target in entrances and not enterable(graph, target, facts))):
                    target = None
                rows = rows_of(arc)
                if not rows:
                    if target is not None and target not in members:
                        after = value[target]
                        if after is not nothing:
                            best = list(map(max, best, after))
                    continue
                if len(rows) == 1:
                    # Most weighed branches weigh one effect, whose best prefix is its
                    # weight when positive: as every value is at least 0, the general step
                    # below then comes to max(best, weight (+ the target's value)), and
                    # going round a cycle to best unless the weight is positive.
                    row = rows[0]
                    if target is None:
                        best = list(map(max, best, row))
                    elif target in members:
                        best = [INF if w > 0 else b for b, w in zip(best, row)]
                    else:
                        best = list(map(max, best, map(add, row, value[target])))
                    continue
                total, prefix = arc_values(rows, size)
                if target is None:
                    best = list(map(max, best, prefix))
                elif target in members:
                    best = [INF if t > 0 else max(b, p) for b, t, p in zip(best, total, prefix)]
                else:
                    after = value[target]
                    best = [max(b, p, t + v) for b, p, t, v in zip(best, prefix, total, after)]
        for node in component:
            value[node] = best
    return value

"""Score bounds per ending, and certificates that an ending can never be the highest.

Method. The wanderer stage resolves a sequence of *walks*: each starts at a root (the
storybook setup, a round's event entry, a world shard's or a spawned card's entry) and
follows gotos until an exit. A walk may also stop early (a wanderer dies mid-encounter), so
every prefix of a walk counts. For a weight w on score effects we compute, for every node,
the most that one walk from there can collect:

    best(u) = max over the branches b of u of max(prefix_max_w(b), total_w(b) + best(target(b)))

(best >= 0: stopping at once collects nothing). We evaluate it over strongly connected
components, sinks first. Inside a component a cycle could repeat: if any branch inside it
has a positive total the value is unbounded (infinity); otherwise going round never helps
and we give every member the component's best, an upper bound. Minimums are maximums of
the negated weight. Conditions are treated as possibly true unless proven impossible
(conditions.Facts), so bounds cover every real game and are sometimes loose.

Certificates. Ending Y loses to an ending X printed before it (ties go to A, then B, C, D)
whenever Y's score never exceeds X's. Weighting each score effect by max(gain_Y, 0) -
gain_X, a maximum of 0 over every walk from every root proves that each walk adds at least
as much to X as to Y; summed over the walks of a game, X >= Y always, so Y is never
entered. Y's losses are ignored in that weight because a score never drops below zero (a
loss can be absorbed), while X's losses are counted in full, which only makes X look worse.
The per-ending "game" maximum adds up each root's best once (each encounter resolved once);
it is informative, not a proof, because encounter cards can be resolved again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.reach import Solution, components, enterable, open_arcs

INF = float("inf")
Weight = Callable[[tuple[int, int, int, int]], int]


@dataclass(frozen=True, slots=True)
class ScoreBound:
    """What one walk can do to an ending's score, and one game if each root is read once."""

    ending: str
    walk_min: float
    walk_max: float
    game_max: float  # INF when a cycle can keep adding points

    def as_dict(self) -> dict[str, object]:
        def num(v: float) -> object:
            return None if v in (INF, -INF) else int(v)
        return {"ending": self.ending, "walk_min": num(self.walk_min), "walk_max": num(self.walk_max),
                "game_max": num(self.game_max), "unbounded": self.game_max == INF}


@dataclass(frozen=True, slots=True)
class Certificate:
    """Ending `loser` can never be entered because ending `winner` always has as many points."""

    loser: str
    winner: str
    loser_max: float


@dataclass(frozen=True)
class ScoreAnalysis:
    bounds: dict[str, ScoreBound]
    certificates: dict[str, Certificate]


def _objectives() -> list[tuple[str, Weight]]:
    out: list[tuple[str, Weight]] = []
    for i, e in enumerate(ENDINGS):
        out.append((f"max {e}", lambda g, i=i: g[i]))
        out.append((f"min {e}", lambda g, i=i: -g[i]))
    for y in range(1, 4):
        for x in range(y):
            out.append((f"{ENDINGS[y]}>{ENDINGS[x]}", lambda g, x=x, y=y: max(g[y], 0) - g[x]))
    return out


OBJECTIVES = _objectives()


def analyse_scores(graph: StoryGraph, solution: Solution) -> ScoreAnalysis:
    facts, stage = solution.facts, solution.stage
    weights = [w for _, w in OBJECTIVES]
    names = [n for n, _ in OBJECTIVES]
    value: dict[Node, list[float]] = {}
    for component in components(graph, facts, [n for n in graph.arcs if n in stage]):
        members = set(component)
        best = [0.0] * len(weights)
        for node in component:
            for arc in open_arcs(graph, node, facts):
                target = arc.goto if arc.goto in stage and enterable(graph, arc.goto, facts) else None
                if not arc.scores:
                    if target is not None and target not in members:
                        best = list(map(max, best, value[target]))
                    continue
                for k, weight in enumerate(weights):
                    steps = [weight(s) for s in arc.scores]
                    total = sum(steps)
                    candidate = max(0, max(accumulate(steps)))
                    if target is not None:
                        if target in members:
                            candidate = INF if total > 0 else candidate
                        else:
                            candidate = max(candidate, total + value[target][k])
                    best[k] = max(best[k], candidate)
        for node in component:
            value[node] = best
    starts = _starts(graph, solution)
    bounds = {}
    for i, e in enumerate(ENDINGS):
        hi, lo = names.index(f"max {e}"), names.index(f"min {e}")
        per_root = [value[s][hi] for s in starts if s in value]
        lowest = max((value[s][lo] for s in starts if s in value), default=0)
        bounds[e] = ScoreBound(e, walk_min=_num(-lowest), walk_max=_num(max(per_root, default=0)),
                               game_max=_num(sum(per_root)))
    certificates: dict[str, Certificate] = {}
    for y in range(1, 4):
        for x in range(y):
            k = names.index(f"{ENDINGS[y]}>{ENDINGS[x]}")
            if max((value[s][k] for s in starts if s in value), default=0) <= 0:
                certificates.setdefault(
                    ENDINGS[y], Certificate(ENDINGS[y], ENDINGS[x], bounds[ENDINGS[y]].game_max))
    return ScoreAnalysis(bounds, certificates)


def _num(value: float) -> float:
    """Finite bounds as plain ints (never -0.0), infinities as they are."""
    return value if value in (INF, -INF) else int(value)


def _starts(graph: StoryGraph, solution: Solution) -> list[Node]:
    """Where a walk of the wanderer stage can begin: the roots and every spawned card's entry."""
    starts: dict[Node, None] = {r.node: None for r in graph.stage_roots if r.node in solution.stage}
    for node in solution.stage:
        for arc in open_arcs(graph, node, solution.facts):
            for target in arc.enables:
                if target in solution.stage:
                    starts[target] = None
    return list(starts)


def scoring_arcs(graph: StoryGraph, solution: Solution, ending: str) -> Sequence[Arc]:
    """Reachable stage branches that give the ending points (for witnesses and messages)."""
    i = ENDINGS.index(ending)
    return [a for n in solution.stage for a in open_arcs(graph, n, solution.facts)
            if any(s[i] > 0 for s in a.scores)]

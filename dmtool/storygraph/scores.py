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

from collections.abc import Sequence
from dataclasses import dataclass

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.reach import Solution, components, enterable, open_arcs, open_map

INF = float("inf")


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

        return {
            "ending": self.ending,
            "walk_min": num(self.walk_min),
            "walk_max": num(self.walk_max),
            "game_max": num(self.game_max),
            "unbounded": self.game_max == INF,
        }


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


# The weights we maximise, in this order: each ending's gain and loss (for its bounds), then
# for each later ending Y and earlier ending X the certificate weight max(gain_Y, 0) - gain_X.
OBJECTIVES = [f"{k} {e}" for e in ENDINGS for k in ("max", "min")] + [
    f"{ENDINGS[y]}>{ENDINGS[x]}" for y in range(1, 4) for x in range(y)
]


def _weights(score: tuple[int, int, int, int]) -> list[int]:
    a, b, c, d = score
    pb, pc, pd = max(b, 0), max(c, 0), max(d, 0)
    return [a, -a, b, -b, c, -c, d, -d, pb - a, pc - a, pc - b, pd - a, pd - b, pd - c]


def _arc_values(arc: Arc) -> tuple[list[int], list[int]]:
    """(total, best prefix including the empty one) of each weight along the branch."""
    rows = [_weights(s) for s in arc.scores]
    if len(rows) == 1:
        return rows[0], [w if w > 0 else 0 for w in rows[0]]
    total = [0] * len(OBJECTIVES)
    best = [0] * len(OBJECTIVES)
    for row in rows:
        total = [t + w for t, w in zip(total, row)]
        best = [max(b, t) for b, t in zip(best, total)]
    return total, best


def analyse_scores(graph: StoryGraph, solution: Solution) -> ScoreAnalysis:
    facts, stage = solution.facts, solution.stage
    names = OBJECTIVES
    size = len(names)
    arcs_of = open_map(graph, facts)
    value: dict[Node, list[float]] = {}
    # The stage is closed under its links, so its components are whole components of the
    # graph (an entrance that can never be passed may cut one: we keep its staged part).
    for whole_component in components(graph, facts):
        component = [n for n in whole_component if n in stage]
        if not component:
            continue
        members = set(component)
        best: list[float] = [0.0] * size
        for node in component:
            for arc in arcs_of[node]:
                target = (
                    arc.goto if arc.goto in stage and enterable(graph, arc.goto, facts) else None
                )
                if not arc.scores:
                    if target is not None and target not in members:
                        best = list(map(max, best, value[target]))
                    continue
                total, prefix = _arc_values(arc)
                if target is None:
                    best = list(map(max, best, prefix))
                elif target in members:
                    best = [INF if t > 0 else max(b, p) for b, t, p in zip(best, total, prefix)]
                else:
                    after = value[target]
                    best = [max(b, p, t + v) for b, p, t, v in zip(best, prefix, total, after)]
        for node in component:
            value[node] = best
    starts = _starts(graph, solution)
    bounds = {}
    for _i, e in enumerate(ENDINGS):
        hi, lo = names.index(f"max {e}"), names.index(f"min {e}")
        per_root = [value[s][hi] for s in starts if s in value]
        lowest = max((value[s][lo] for s in starts if s in value), default=0)
        bounds[e] = ScoreBound(
            e,
            walk_min=_num(-lowest),
            walk_max=_num(max(per_root, default=0)),
            game_max=_num(sum(per_root)),
        )
    certificates: dict[str, Certificate] = {}
    for y in range(1, 4):
        for x in range(y):
            k = names.index(f"{ENDINGS[y]}>{ENDINGS[x]}")
            if max((value[s][k] for s in starts if s in value), default=0) <= 0:
                certificates.setdefault(
                    ENDINGS[y], Certificate(ENDINGS[y], ENDINGS[x], bounds[ENDINGS[y]].game_max)
                )
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
    return [
        a
        for n in solution.stage
        for a in open_arcs(graph, n, solution.facts)
        if any(s[i] > 0 for s in a.scores)
    ]

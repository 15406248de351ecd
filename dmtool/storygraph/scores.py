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

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.conditions import Facts
from dmtool.storygraph.reach import components, enterable, open_arcs, open_map

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


def _arc_values(rows: Sequence[Sequence[int]], size: int) -> tuple[list[int], list[int]]:
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
    graph: StoryGraph, facts: Facts, within: Collection[Node], rows_of: RowsOf, size: int
) -> dict[Node, list[float]]:
    """For every node of `within` (closed under its links), the most each weight can collect
    in one walk from there (see the module's docstring)."""
    arcs_of = open_map(graph, facts)
    value: dict[Node, list[float]] = {}
    # `within` is closed under its links, so its components are whole components of the
    # graph (an entrance that can never be passed may cut one: we keep its part inside).
    for whole in components(graph, facts):
        component = [n for n in whole if n in within]
        if not component:
            continue
        members = set(component)
        best: list[float] = [0.0] * size
        for node in component:
            for arc in arcs_of[node]:
                target = (
                    arc.goto if arc.goto in within and enterable(graph, arc.goto, facts) else None
                )
                rows = rows_of(arc)
                if not rows:
                    if target is not None and target not in members:
                        best = list(map(max, best, value[target]))
                    continue
                total, prefix = _arc_values(rows, size)
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


def _score_rows(arc: Arc) -> Sequence[Sequence[int]]:
    return [_weights(s) for s in arc.scores] if arc.scores else ()


def game_maxima(
    graph: StoryGraph,
    facts: Facts,
    stage: Collection[Node],
    rows_of: RowsOf,
    size: int,
    *,
    roots: Collection[Node] = (),
) -> list[float]:
    """The most each weight can sum to in a game whose walks start once at each start of
    the wanderer stage and at each of `roots` (each encounter resolved once)."""
    value = walk_values(graph, facts, stage, rows_of, size)
    totals = [0.0] * size
    for start in dict.fromkeys([*starts(graph, facts, stage), *roots]):
        if start in value:
            totals = [t + v for t, v in zip(totals, value[start])]
    return totals


def _gains(arc: Arc) -> Sequence[Sequence[int]]:
    return arc.scores


def score_maxima(graph: StoryGraph, facts: Facts, stage: Collection[Node]) -> dict[str, float]:
    """The most points each ending can have after a game of the wanderer stage."""
    totals = game_maxima(graph, facts, stage, _gains, len(ENDINGS))
    return {e: _num(t) for e, t in zip(ENDINGS, totals)}


def analyse_scores(graph: StoryGraph, facts: Facts, stage: Collection[Node]) -> ScoreAnalysis:
    names = OBJECTIVES
    value = walk_values(graph, facts, stage, _score_rows, len(names))
    starts_ = starts(graph, facts, stage)
    bounds = {}
    for e in ENDINGS:
        hi, lo = names.index(f"max {e}"), names.index(f"min {e}")
        per_root = [value[s][hi] for s in starts_ if s in value]
        lowest = max((value[s][lo] for s in starts_ if s in value), default=0)
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
            if max((value[s][k] for s in starts_ if s in value), default=0) <= 0:
                certificates.setdefault(
                    ENDINGS[y], Certificate(ENDINGS[y], ENDINGS[x], bounds[ENDINGS[y]].game_max)
                )
    return ScoreAnalysis(bounds, certificates)


def _num(value: float) -> float:
    """Finite bounds as plain ints (never -0.0), infinities as they are."""
    return value if value in (INF, -INF) else int(value)


def starts(graph: StoryGraph, facts: Facts, stage: Collection[Node]) -> list[Node]:
    """Where a walk of the wanderer stage can begin: the roots and every spawned card's entry."""
    found: dict[Node, None] = {r.node: None for r in graph.stage_roots if r.node in stage}
    for node in stage:
        for arc in open_arcs(graph, node, facts):
            for target in arc.enables:
                if target in stage:
                    found[target] = None
    return list(found)

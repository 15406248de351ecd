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
The per-ending "game" maximum (storygraph.totals) adds up what each walk can collect times
how often the rules let it be resolved: a shard's encounter again until a completed token,
an encounter card again and again, as many encounter actions as can be paid for, and the
finale without a last round. It names the premises it rests on.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.conditions import Facts
from dmtool.storygraph.reach import open_map
from dmtool.storygraph.totals import finale_gains, game_totals
from dmtool.storygraph.walkvalues import arc_values, walk_values

INF = float("inf")


@dataclass(frozen=True, slots=True)
class ScoreBound:
    """What one walk can do to an ending's score, and one whole game (storygraph.totals)."""

    ending: str
    walk_min: float
    walk_max: float
    game_max: float  # INF when nothing bounds the points (a loop, re-reads, the finale)
    stage_max: float = INF  # the same at the end of the wanderer stage
    premises: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        def num(v: float) -> object:
            return None if v in (INF, -INF) else int(v)

        return {
            "ending": self.ending,
            "walk_min": num(self.walk_min),
            "walk_max": num(self.walk_max),
            "game_max": num(self.game_max),
            "stage_max": num(self.stage_max),
            "unbounded": self.game_max == INF,
            "premises": list(self.premises),
        }


@dataclass(frozen=True, slots=True)
class Certificate:
    """Ending `loser` can never be entered because ending `winner` always has as many points."""

    loser: str
    winner: str
    loser_max: float


# The weights we maximise for the bounds: each ending's gain and loss, A to D.
def _bound_rows(arc: Arc) -> Sequence[Sequence[int]]:
    return [(a, -a, b, -b, c, -c, d, -d) for a, b, c, d in arc.scores] if arc.scores else ()


# The contests (Y, X) of a later ending Y with an earlier ending X; the certificates weigh
# each score effect by max(gain_Y, 0) - gain_X of each contest, in this order.
_CONTESTS = [(y, x) for y in range(1, 4) for x in range(y)]


def _certificate_rows(arc: Arc) -> Sequence[Sequence[int]]:
    if not arc.scores:
        return ()
    rows = []
    for a, b, c, d in arc.scores:
        pb, pc, pd = max(b, 0), max(c, 0), max(d, 0)
        rows.append((pb - a, pc - a, pc - b, pd - a, pd - b, pd - c))
    return rows


class ScoreAnalysis:
    """The certificates of one storybook's scores, and its bounds (worked out when first
    asked for: a check reports certificates only, and a clean book has none)."""

    def __init__(self, graph: StoryGraph, facts: Facts, stage: Collection[Node],
                 finale: Collection[Node] = ()) -> None:
        self._graph, self._facts, self._stage, self._finale = graph, facts, stage, finale
        self._starts = starts(graph, facts, stage)
        lost = _lost_at_a_start(graph, facts, self._starts)
        # The walk over the whole stage only when a contest is not already lost at a start
        # (a clean storybook loses them all there: every ending scores on some encounter).
        value = (walk_values(graph, facts, stage, _certificate_rows, len(_CONTESTS))
                 if len(lost) < len(_CONTESTS) else {})
        self.certificates: dict[str, Certificate] = {}
        for k, (y, x) in enumerate(_CONTESTS):
            loser = ENDINGS[y]
            if loser in self.certificates or k in lost:
                continue  # the first ending it loses to is named
            if max((value[s][k] for s in self._starts if s in value), default=0) <= 0:
                self.certificates[loser] = Certificate(
                    loser, ENDINGS[x], self.bounds[loser].game_max)

    @cached_property
    def bounds(self) -> dict[str, ScoreBound]:
        value = walk_values(self._graph, self._facts, self._stage, _bound_rows, 2 * len(ENDINGS))
        starts_ = self._starts
        # The game totals of the same walk: its even weights are each ending's gains.
        both, eco = game_totals(self._graph, self._facts, self._stage, _bound_rows,
                                2 * len(ENDINGS), value)
        stage = both[::2]
        later = finale_gains(self._graph, self._facts, self._finale, _gains, len(ENDINGS))
        bounds = {}
        for i, e in enumerate(ENDINGS):
            hi, lo = 2 * i, 2 * i + 1
            per_root = [value[s][hi] for s in starts_ if s in value]
            lowest = max((value[s][lo] for s in starts_ if s in value), default=0)
            premises = eco.premises + ((f"a branch of ending {e}'s finale gives it points, "
                                        "and the finale has no last round",) if later[i] else ())
            bounds[e] = ScoreBound(
                e,
                walk_min=_num(-lowest),
                walk_max=_num(max(per_root, default=0)),
                game_max=INF if later[i] else _num(stage[i]),
                stage_max=_num(stage[i]),
                premises=premises,
            )
        return bounds


def _lost_at_a_start(graph: StoryGraph, facts: Facts, starts_: Sequence[Node]) -> set[int]:
    """The contests some branch of a start already loses: a walk from a start collects at
    least what any of its branches does before it links on (walk_values: every value is at
    least each branch's best prefix), so a positive prefix there leaves no certificate."""
    arcs_of = open_map(graph, facts)
    lost: set[int] = set()
    for start in starts_:
        for arc in arcs_of.get(start, ()):
            rows = _certificate_rows(arc)
            if rows:
                _, prefix = arc_values(rows, len(_CONTESTS))
                lost.update(k for k, p in enumerate(prefix) if p > 0)
    return lost


def analyse_scores(graph: StoryGraph, facts: Facts, stage: Collection[Node],
                   finale: Collection[Node] = ()) -> ScoreAnalysis:
    return ScoreAnalysis(graph, facts, stage, finale)


def _gains(arc: Arc) -> Sequence[Sequence[int]]:
    return arc.scores


def score_maxima(graph: StoryGraph, facts: Facts, stage: Collection[Node]) -> dict[str, float]:
    """The most points each ending can have at the end of the wanderer stage."""
    totals, _ = game_totals(graph, facts, stage, _gains, len(ENDINGS))
    return {e: _num(t) for e, t in zip(ENDINGS, totals)}


def _num(value: float) -> float:
    """Finite bounds as plain ints (never -0.0), infinities as they are."""
    return value if value in (INF, -INF) else int(value)


def starts(graph: StoryGraph, facts: Facts, stage: Collection[Node]) -> list[Node]:
    """Where a walk of the wanderer stage can begin: the roots and every spawned card's entry."""
    found: dict[Node, None] = {r.node: None for r in graph.stage_roots if r.node in stage}
    arcs_of = open_map(graph, facts)
    for node in stage:
        for arc in arcs_of.get(node, ()):
            for target in arc.enables:
                if target in stage:
                    found[target] = None
    return list(found)

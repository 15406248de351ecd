"""The Facts one step of the reachability fixpoint proves: coda cards awarded and entries read
by the reached branches, the most points each ending can have, and each sentience colour's
range for any wanderer. Score and sentience bounds are computed only for storybooks whose
conditions ask about them (they cost a walk over the graph each)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from dmtool.model.storybook import COLOURS, ENDINGS
from dmtool.storygraph.build import Arc, Node, StoryGraph
from dmtool.storygraph.conditions import PREMISE, Facts
from dmtool.storygraph.logic import INF
from dmtool.storygraph.reach import open_map
from dmtool.storygraph.scores import score_maxima
from dmtool.storygraph.totals import finale_gains, game_totals


def asked(graph: StoryGraph) -> frozenset[str]:
    """The names of every condition written in the storybook or on its cards."""
    found: set[str] = set()
    # Only the conditioned nodes have an arc with a condition (StoryGraph.conditioned).
    conditions: list[Any] = [
        c for node in graph.conditioned for a in graph.arcs[node] for c, _ in a.conditions
    ]
    conditions += list(graph.entrances.values())
    conditions += [c for c, _ in graph.card_entrances.values()]
    conditions += [c for r in graph.all_roots() for c, _ in r.conditions]
    while conditions:
        condition = conditions.pop()
        if isinstance(condition, Mapping):
            for name, value in condition.items():
                found.add(name)
                if name in ("all", "any") and isinstance(value, list):
                    conditions.extend(value)
                elif name == "not":
                    conditions.append(value)
    return frozenset(found)


def tighten(graph: StoryGraph, facts: Facts, reached: Collection[Node],
            stage: Collection[Node], finale: Collection[Node]) -> Facts:
    """What the branches open under `facts` and reached from the roots can award.

    `stage` and `finale` are what the wanderer stage's roots and every ending's finale
    roots reach under `facts` (solve has searched them; `reached` is the two together).
    """
    arcs_of = open_map(graph, facts)
    # Only the awarding nodes have a side that gains a coda (StoryGraph.awarding), and only
    # in the wanderer stage: the finale's setup takes every coda card nobody holds out of
    # the game (DoM "Organize the Components"), so a finale branch's award gives nothing.
    codas = frozenset([c for n in graph.awarding if n in stage for a in arcs_of[n]
                       for c in a.codas]) | graph.context.codas_elsewhere
    names = graph.asked if graph.asked is not None else asked(graph)
    scores = _scores(graph, facts, arcs_of, stage, finale) if "score_at_least" in names else {}
    sentience: dict[str, tuple[float, float]] = {}
    notes: dict[str, str] = {}
    if "sentience_at_least" in names:
        sentience, notes = _sentience(graph, facts, stage, finale, codas)
    return Facts(
        codas=codas,
        visited=frozenset([n for n in reached if isinstance(n, int)]),
        scores=scores,
        sentience=sentience,
        notes=notes,
    )


def _scores(
    graph: StoryGraph, facts: Facts, arcs_of: Mapping[Node, Sequence[Arc]],
    stage: Collection[Node], finale: Collection[Node],
) -> dict[str, float]:
    """Each ending's most points in a game; unbounded when a finale branch can add more."""
    most = score_maxima(graph, facts, stage)
    for node in finale:
        for arc in arcs_of[node]:
            for ending, gain in zip(ENDINGS, arc.gain):
                if gain > 0:
                    most[ending] = INF
    return most


def _change_rows(arc: Arc) -> Sequence[Sequence[int]]:
    """One row per sentience change on the branch: each colour's raise, then its drop."""
    rows = []
    for change in arc.changes:
        row = [_int(change.get(c)) for c in COLOURS]
        rows.append(row + [-v for v in row])
    return rows


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _sentience(
    graph: StoryGraph, facts: Facts, stage: Collection[Node], finale: Collection[Node],
    codas: Iterable[str],
) -> tuple[dict[str, tuple[float, float]], dict[str, str]]:
    context = graph.context
    starts = context.sentience_starts or ((context.sentience,) if context.sentience else ())
    if not starts:
        return {}, {}  # no wanderer known: no range
    size = 2 * len(COLOURS)
    walk, _ = game_totals(graph, facts, stage, _change_rows, size)
    later = finale_gains(graph, facts, finale, _change_rows, size)
    walk = [INF if more else w for w, more in zip(walk, later)]
    from_codas = {c: [0, 0] for c in COLOURS}
    for coda in codas:
        for effect in context.coda_effects.get(coda, ()):
            change = effect.get("modify_sentience") if isinstance(effect, Mapping) else None
            for colour, amount in (change.items() if isinstance(change, Mapping) else ()):
                if colour in from_codas and _int(amount):
                    from_codas[colour][0 if amount > 0 else 1] += abs(amount)
    ranges: dict[str, tuple[float, float]] = {}
    notes: dict[str, str] = {}
    for i, colour in enumerate(COLOURS):
        values = [_int(s.get(colour)) for s in starts]
        others = context.sentience_changes.get(colour, (0, 0))
        up = (from_codas[colour][0], others[0], walk[i])
        down = (from_codas[colour][1], others[1], walk[len(COLOURS) + i])
        ranges[colour] = (min(values) - sum(down), max(values) + sum(up))
        notes[f"sentience {colour} highest"] = _note(max(values), up, "+")
        notes[f"sentience {colour} lowest"] = _note(min(values), down, "-")
    return ranges, notes


def _note(start: int, changes: tuple[float, float, float], sign: str) -> str:
    parts = [f"{start} on a wanderer's dashboard"]
    for amount, source in zip(changes, ("coda cards", "other cards", f"branches {PREMISE}")):
        if amount == INF:
            parts.append(f"{sign}any amount from {source} (a loop repeats a change)")
        elif amount:
            parts.append(f"{sign}{int(amount)} from {source}")
    return f" ({', '.join(parts)})"


def sentience_ranges(
    graph: StoryGraph, facts: Facts, stage: Collection[Node],
    finales: Iterable[Collection[Node]],
) -> dict[str, tuple[float, float]]:
    """Each sentience colour's range for any wanderer over a game (what `tighten` gives when
    a condition asks), for the engine to be held against even when none asks."""
    finale = frozenset().union(*finales)
    ranges, _ = _sentience(graph, facts, stage, finale, facts.codas)
    return ranges

"""Conditions decided before play, in findings: why an entry cannot be reached or a loop has
no way out (the condition and its reason), and DM315 at every condition that play cannot
change (always true, or never), with what that means for the effects it guards."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.model.storybook import Parts, Step
from dmtool.storygraph.build import Arc, Node, StoryGraph, node_name
from dmtool.storygraph.conditions import Facts, clause, judge, judge_side
from dmtool.storygraph.context import Place, located
from dmtool.storygraph.local import where
from dmtool.storygraph.solve import Solution

Side = tuple[tuple[Mapping[str, Any], bool], ...]
Preds = dict[Node, list[tuple[Node, Arc]]]


class Everything:
    """A collection that contains everything (no coda or entry condition is pruned)."""

    def __contains__(self, item: object) -> bool:
        return True


def quoted(condition: Any) -> str:
    return f"'{clause(condition)}'"


def side_text(side: Side, reason: str) -> str:
    """'<the side's conditions in words>, which never happens: <reason>'."""
    parts = [clause(c, negated=negated) for c, negated in side]
    return f"{' and '.join(parts)}, which never happens: {reason}"


Span = tuple[float, float]
ANY_ROUND: Span = (1, float("inf"))
STAGE_ROUNDS: Span = (1, 10)


def why_not(
    graph: StoryGraph, target: int, reached: frozenset[Node], facts: Facts, preds: Preds,
    solution: Solution | None = None,
) -> str:
    """Why a search from some roots does not arrive at `target`, in words (each link judged
    where its entry is read, when the solution is given)."""
    spans = solution.rounds if solution is not None else {}
    floors = solution.floors if solution is not None else {}
    endings = solution.ending_of if solution is not None else {}
    knocked: dict[Node, Span] = {}
    for node, _ in preds.get(target, ()):
        if node in reached:
            _hull(knocked, target, spans.get(node, ANY_ROUND))
    entrance = graph.entrances.get(target)
    if entrance is not None:
        verdict = judge(entrance, facts.at_rounds(knocked.get(target, ANY_ROUND)))
        if verdict.value is False:
            return (
                f"it can be entered only when {clause(entrance)}, which never happens: "
                f"{verdict.reason}"
            )
    card = graph.card_entrances.get(target)
    if card is not None:
        verdict = judge(card[0], facts)
        if verdict.value is False:
            return (
                f"{card[1]} can be entered only when {clause(card[0])}, which never "
                f"happens: {verdict.reason}"
            )
    for root in graph.all_roots():
        if root.node == target:
            for condition, role in root.conditions:
                verdict = judge(condition, facts)
                if verdict.value is False:
                    return (
                        f"{root.label} {role} {clause(condition)}, which never happens: "
                        f"{verdict.reason}"
                    )
    for node, arc in preds.get(target, ()):
        if node in reached and arc.conditions:
            knows = solution.knows(node) if solution is not None else KNOWS_NOTHING
            here = read_at(facts, (spans.get(node, ANY_ROUND), endings.get(node), knows, node),
                           floors)
            verdict = judge_side(arc.conditions, here)
            if verdict.value is False:
                return (
                    f"the link from {node_name(node)} is taken only when "
                    f"{side_text(arc.conditions, verdict.reason)}"
                )
    sources = sorted({n for n, _ in preds.get(target, ())}, key=str)
    if sources:
        names = ", ".join(node_name(n) for n in sources[:3])
        if len(sources) == 1:
            return f"only {names} leads to it, and it is not reachable either"
        return f"only {names} lead to it, and they are not reachable either"
    return "no root and no entry leads to it"


def closed_exit(graph: StoryGraph, members: list[int], facts: Facts) -> str:
    """For a trap: the first way out that an impossible condition closes, in words."""
    inside = set(members)
    for node in members:
        for arc in graph.arcs.get(node, ()):
            leaves = arc.goto is None or arc.goto not in inside or bool(arc.enables)
            if leaves and arc.conditions:
                verdict = judge_side(arc.conditions, facts)
                if verdict.value is False:
                    return (
                        f"; the way out from {node_name(node)} is taken only when "
                        f"{side_text(arc.conditions, verdict.reason)}"
                    )
    return ""


# What a decided condition means for what it guards, by where it is written and its value.
_CONSEQUENCE = {
    ("then", False): "its 'then' side is never taken; fix the condition or remove the 'if'",
    ("then", True): "its 'else' side is never taken; fix the condition or keep only the "
    "'then' effects",
    ("option", False): "the option is never offered; fix the condition or remove the option",
    ("entrance", False): "the entry can never be entered this way; fix the condition",
    ("spawn", False): "the card never spawns by itself; fix the condition",
}
_CHANGES_NOTHING = "it changes nothing; remove it"


def decided_findings(graph: StoryGraph, solution: Solution) -> Iterator[Diagnostic]:
    """DM315 at every condition, in a place play reaches, that play cannot change.

    A condition decided only because a coda is never awarded or an entry never read is not
    reported again here: the finding about that coda or entry (DM309, DM303) is the cause.
    """
    facts = solution.facts
    loose = Facts(
        codas=Everything(),
        visited=Everything(),
        scores=facts.scores,
        sentience=facts.sentience,
        notes=facts.notes,
    )
    storybook = graph.storybook
    for condition, place_of, read_where in written_conditions(graph, solution):
        verdict = judge(condition, read_at(loose, read_where, solution.floors))
        if verdict.value is None:
            continue
        place, at = place_of()
        state = "always true" if verdict.value else "never true"
        then = _CONSEQUENCE.get((place, verdict.value), _CHANGES_NOTHING)
        yield diagnose(
            "DM315",
            located(at) if not isinstance(at, tuple) else where(storybook, at),
            f"the condition {quoted(condition)} is {state}: {verdict.reason}; {then}",
        )


# Where a condition is read: its rounds, the ending whose finale alone reads it, and what
# every way there has surely done (reach.Must; empty sets when nothing is known).
Where = tuple[Span, str | None, tuple[frozenset[str], frozenset[int]], Node | None]
KNOWS_NOTHING: tuple[frozenset[str], frozenset[int]] = (frozenset(), frozenset())


def read_at(facts: Facts, where: Where, floors: Mapping[str, int]) -> Facts:
    """`facts` as they stand where a condition is read."""
    span, ending, (held, seen), _ = where
    if ending is not None and ending in floors:
        facts = facts.at_ending(ending, floors[ending])
    return facts.at_rounds(span).knowing(held, seen)


def written_conditions(
    graph: StoryGraph, solution: Solution,
) -> Iterator[tuple[Mapping[str, Any], Callable[[], tuple[str, Any]], Where]]:
    """(condition, what gives where it rules: then | option | entrance | spawn, and its
    location, where it is read) of every condition in a reached node, entrance or card,
    each once. The place of a side's condition is read off its branch, walked again only
    when a finding asks."""
    reached, rounds, endings = solution.reached, solution.rounds, solution.ending_of
    seen: set[int] = set()
    # An entrance is judged when a reached branch leads to its entry (or a root names it),
    # whether or not the entry can then be entered, where what leads there is read.
    if graph.entrances:
        knocked: dict[Node, Span] = {}
        owner: dict[Node, str | None] = {}
        for root in graph.all_roots():
            _hull(knocked, root.node, root.rounds)
            _own(owner, root.node, root.ending)
        for n in reached:
            for a in graph.arcs.get(n, ()):
                if a.goto is not None:
                    _hull(knocked, a.goto, rounds.get(n, ANY_ROUND))
                    _own(owner, a.goto, endings.get(n))
        for number, entrance in graph.entrances.items():
            if number in knocked:
                entry = graph.storybook.entries[number]
                yield (entrance, partial(_given, "entrance", entry.parts + ("entrance", "when")),
                       (knocked[number], owner.get(number), KNOWS_NOTHING, None))
    for node in graph.arcs:
        if node not in reached:
            continue
        for arc in graph.arcs[node]:
            if not arc.conditions:
                continue  # no step of the branch holds a condition (most arcs)
            # Arc.conditions holds the condition of each step of the branch that has one,
            # in order: the k-th is the k-th such step's.
            for k, (condition, _) in enumerate(arc.conditions):
                if id(condition) not in seen:
                    seen.add(id(condition))
                    yield (condition, partial(_step_place_of, arc, k),
                           (rounds.get(node, ANY_ROUND), endings.get(node),
                            solution.knows(node), node))
    for sources, span in ((graph.context.cards, STAGE_ROUNDS), (graph.context.finale, ANY_ROUND)):
        for source in sources:
            for condition, place in ((source.spawn, "spawn"), (source.entrance, "entrance")):
                if condition is not None and (place == "entrance" or source.spawned):
                    yield (condition,
                           partial(_given, place, _card_place(source.location, place)),
                           (span, source.ending if span == ANY_ROUND else None,
                            KNOWS_NOTHING, None))


def _own(owner: dict[Node, str | None], node: Node, ending: str | None) -> None:
    """Keep the one ending whose finale alone leads to `node` (None once two parts do)."""
    owner[node] = ending if owner.get(node, ending) == ending else None


def _hull(spans: dict[Node, Span], node: Node, span: Span) -> None:
    was = spans.get(node)
    spans[node] = span if was is None else (min(was[0], span[0]), max(was[1], span[1]))


def _given(place: str, at: Any) -> tuple[str, Any]:
    return place, at


def _step_place_of(arc: Arc, k: int) -> tuple[str, Parts]:
    """Where the arc's k-th condition rules, and where it is written."""
    return _step_place([s for s in arc.branch.steps if s.condition is not None][k])


def _step_place(step: Step) -> tuple[str, Parts]:
    if step.kind == "option":
        return "option", step.parts + ("when",)
    return "then", step.effect_parts + ("if", "when")


def _card_place(location: Any, place: str) -> Any:
    """Where a card's spawning or entrance condition is written (its card file)."""
    if isinstance(location, Place):
        return Place(location.document, (place, "when"))
    return location

"""Analysing one storybook: build the graph, solve reachability and scores, and turn every
problem into a diagnostic at the line of the entry, link or card concerned."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading.collector import collector_paused
from dmtool.model.storybook import ENDINGS, Storybook
from dmtool.storygraph.build import Arc, Node, StoryGraph, build_graph, node_name
from dmtool.storygraph.conditions import Facts, judge_side
from dmtool.storygraph.context import Source, StoryContext, located
from dmtool.storygraph.explain import Everything, closed_exit, decided_findings, why_not
from dmtool.storygraph.local import local_findings, where
from dmtool.storygraph.reach import components, open_map, traps
from dmtool.storygraph.scores import INF, ScoreAnalysis, analyse_scores
from dmtool.storygraph.solve import Solution, solve


@dataclass
class Analysis:
    graph: StoryGraph
    solution: Solution
    scores: ScoreAnalysis
    diagnostics: list[Diagnostic] = field(default_factory=list)
    traps: list[list[int]] = field(default_factory=list)

    @cached_property
    def problems(self) -> dict[str, set[int]]:
        """Entry numbers by problem, for drawings and JSON: dead-end, unreachable, trap,
        broken (worked out when asked: a check does not)."""
        return _problems(self)


def analyse(storybook: Storybook, context: StoryContext | None = None) -> Analysis:
    with collector_paused():
        graph = build_graph(storybook, context)
        solution = solve(graph)
        finale = frozenset().union(*solution.finale.values())
        scores = analyse_scores(graph, solution.facts, solution.stage, finale)
        analysis = Analysis(graph, solution, scores, traps=traps(graph, solution.facts))
        analysis.diagnostics = (
            list(local_findings(graph))
            + list(_global_findings(analysis))
            + list(decided_findings(graph, solution))
        )
    return analysis


def _problems(analysis: Analysis) -> dict[str, set[int]]:
    graph = analysis.graph
    problems: dict[str, set[int]] = {
        "dead-end": set(),
        "unreachable": set(),
        "trap": set(),
        "broken": set(),
    }
    for node, arcs in graph.arcs.items():
        if isinstance(node, int):
            if any(a.kind == "open" for a in arcs):
                problems["dead-end"].add(node)
            if any(a.broken is not None for a in arcs):
                problems["broken"].add(node)
    problems["unreachable"] = {n for n in graph.entries if n not in analysis.solution.reached}
    for trap in analysis.traps:
        problems["trap"].update(trap)
    return problems


def _predecessors(graph: StoryGraph) -> dict[Node, list[tuple[Node, Arc]]]:
    preds: dict[Node, list[tuple[Node, Arc]]] = {}
    for node, arcs in graph.arcs.items():
        for arc in arcs:
            for target in ([arc.goto] if arc.goto is not None else []) + list(arc.enables):
                preds.setdefault(target, []).append((node, arc))
    return preds


def _global_findings(analysis: Analysis) -> Iterator[Diagnostic]:
    graph, solution = analysis.graph, analysis.solution
    storybook, facts = graph.storybook, solution.facts
    # The links into each node, built only to explain an entry or conclusion never reached.
    preds = cache(lambda: _predecessors(graph))
    conclusions = {c.entry for e in storybook.endings.values() for c in e.conclusions}
    orphans = list(_orphan_cards(analysis))
    # An orphan card's entry is unreachable because of the card (DM308), said once there.
    explained = conclusions | {card.entry for card in orphans}
    yield from _unreachable(graph, solution, preds, explained)
    scored = _scored(solution.stage, open_map(graph, facts))
    # Without any root of the wanderer stage, the stage is not written yet: saying that no
    # ending can be entered would be true and useless.
    staged = any(r.kind != "setup" for r in graph.stage_roots)
    for letter, ending in storybook.endings.items():
        if staged and letter not in scored:
            yield diagnose(
                "DM304",
                where(storybook, ending.parts + ("ending",)),
                f"no branch the wanderer stage can reach gives ending {letter} points, so "
                f"it can never be entered; award it points with {{score: {{{letter}: 1}}}}",
            )
        elif staged and letter in analysis.scores.certificates:
            yield _certificate(analysis, letter)
        start = storybook.entries.get(ending.start) if ending.start is not None else None
        if start is None or start.kind != "finale":
            continue  # the start is reported (DM301, DM311); its conclusions follow from it
        for conclusion in ending.conclusions:
            number = conclusion.entry
            if number in storybook.entries and number not in solution.finale.get(letter, ()):
                why = why_not(
                    graph, number, solution.finale.get(letter, frozenset()), facts, preds(),
                    solution,
                )
                yield diagnose(
                    "DM305",
                    where(storybook, conclusion.parts + ("entry",)),
                    f"ending {letter}'s finale can never reach conclusion entry {number}: {why}",
                )
    for trap in analysis.traps:
        first = storybook.entries[trap[0]]
        names = ", ".join(str(n) for n in trap)
        closed = closed_exit(graph, trap, facts)
        yield diagnose(
            "DM307",
            where(storybook, first.parts + ("entry",)),
            f"entries {names} lead only to each other and none of them leads on to an exit"
            f"{closed}, so a reader who enters is stuck; add a way out such as "
            f"{{end: encounter}}"
            if len(trap) > 1
            else f"entry {trap[0]} leads only back to itself{closed}, so a reader who enters "
            f"is stuck; add a way out such as {{end: encounter}}",
            related=tuple(
                where(storybook, storybook.entries[n].parts + ("entry",)) for n in trap[1:]
            ),
        )
    for card in orphans:
        yield diagnose(
            "DM308",
            located(card.where or card.location),
            f"encounter card '{card.card_id}' has no spawning condition and no reachable "
            f"branch spawns it, so entry {card.entry} is never read through it; add a "
            f"spawn: condition or {{spawn_encounter: {{card: {card.card_id}}}}} somewhere",
        )
    yield from _orphan_codas(analysis)


def _scored(stage: frozenset[Node], arcs_of: Mapping[Node, tuple[Arc, ...]]) -> set[str]:
    """The endings that a branch the wanderer stage reaches gives points (the look stops
    once every ending has them, as it does early in most storybooks)."""
    found: set[str] = set()
    for node in stage:
        for arc in arcs_of.get(node, ()):
            if arc.scores:
                found.update(e for e, g in zip(ENDINGS, arc.gain) if g > 0)
        if len(found) == len(ENDINGS):
            break
    return found


def _unreachable(
    graph: StoryGraph,
    solution: Solution,
    preds: Callable[[], dict[Node, list[tuple[Node, Arc]]]],
    conclusions: set[Any],
) -> Iterator[Diagnostic]:
    """One finding per unreachable region, at its first entry, counting what hangs off it."""
    storybook = graph.storybook
    lost = [n for n in storybook.entries if n not in solution.reached and n not in conclusions]
    if not lost:
        return
    lost_set = set(lost)
    everything = Facts(codas=Everything(), visited=Everything())
    for component in components(graph, everything, lost):
        members = set(component)
        if any(p in lost_set and p not in members for m in component
               for p, _ in preds().get(m, ())):
            continue  # reached only through another unreachable region, counted there
        head = min(component)
        behind = _downstream(graph, members, lost_set) - 1
        why = why_not(graph, head, solution.reached, solution.facts, preds(), solution)
        more = (
            f"; {behind} more entr{'y is' if behind == 1 else 'ies are'} only reachable through it"
            if behind
            else ""
        )
        yield diagnose(
            "DM303",
            where(storybook, storybook.entries[head].parts + ("entry",)),
            f"entry {head} can never be reached: {why}{more}. Link to it or remove it",
        )


def _downstream(graph: StoryGraph, start: set[Node], within: set[Node]) -> int:
    seen = set(start)
    queue = deque(start)
    while queue:
        node = queue.popleft()
        for arc in graph.arcs.get(node, ()):
            for target in ([arc.goto] if arc.goto is not None else []) + list(arc.enables):
                if target in within and target not in seen:
                    seen.add(target)
                    queue.append(target)
    return len(seen)


def _certificate(analysis: Analysis, loser: str) -> Diagnostic:
    storybook = analysis.graph.storybook
    cert = analysis.scores.certificates[loser]
    most = cert.loser_max
    if most == INF:
        amount = "can gain points without limit (a loop repeats)"
    else:
        points = f"{int(most)} point{'s' if most != 1 else ''}"
        amount = f"can reach at most {points} in a game"
    return diagnose(
        "DM306",
        where(storybook, storybook.endings[loser].parts + ("ending",)),
        f"ending {loser} can never have the highest score: it {amount}, but ending {cert.winner} "
        f"always has at least as many on the same paths, and ties go to {cert.winner}",
        hint=f"give ending {loser} points on a branch where ending {cert.winner} gains fewer",
    )


def _orphan_cards(analysis: Analysis) -> Iterator[Source]:
    graph, solution = analysis.graph, analysis.solution
    # Only a card that does not spawn by itself can be an orphan: the reached branches are
    # looked through only when there is one.
    maybe = [card for card in graph.context.cards + graph.context.finale
             if card.card_id is not None and not card.spawned]
    if not maybe:
        return
    spawned: set[str] = set()
    arcs_of = open_map(graph, solution.facts)
    for node in solution.reached:
        for arc in arcs_of.get(node, ()):
            if arc.spawns:
                spawned.update(arc.spawns)
    for card in maybe:
        if card.card_id not in spawned:
            yield card


def _orphan_codas(analysis: Analysis) -> Iterator[Diagnostic]:
    graph, solution = analysis.graph, analysis.solution
    for coda, location in graph.context.codas.items():
        if coda not in solution.facts.codas:
            yield diagnose(
                "DM309",
                located(location),
                f"coda card '{coda}' is never awarded by a reachable branch of storybook "
                f"'{graph.storybook.id}'{_why_not_awarded(analysis, coda)}; add "
                f"{{gain_coda: {coda}}} where it belongs",
            )


def _why_not_awarded(analysis: Analysis, coda: str) -> str:
    """Why a branch that awards the coda is never taken, when the storybook has one: its
    entry is never read, or its condition never holds (a coda only someone holding another
    can gain, itself awarded only behind the first, among them)."""
    graph, solution = analysis.graph, analysis.solution
    for node in graph.awarding:
        for arc in graph.arcs[node]:
            if coda not in arc.codas:
                continue
            name = node_name(node)
            if node not in solution.reached:
                return f" (it is awarded only in {name}, which is never read)"
            if node not in solution.stage:
                return (f" ({name} awards it only in a finale, and the finale's setup has "
                        "taken every coda card nobody held out of the game)")
            verdict = judge_side(arc.conditions, solution.facts) if arc.conditions else None
            if verdict is not None and verdict.value is False:
                return (f" (the branch of {name} that awards it is never taken: "
                        f"{verdict.reason.rstrip('.')})")
    return ""

"""Certificates of the analysis's verdicts of impossibility, for `dmtool graph --format json`.

Every "never" (DM303 an entry never read, DM305 a conclusion its finale never reaches,
DM307 entries that lead only to each other, DM309 a coda never awarded, DM315 a condition
play cannot change) rests on premises a checker can test without this package:

- the *closure*: the nodes reached from the roots, the codas awarded, and the range of each
  quantity a condition may ask about (scores, sentience, the round), with the premises of
  the per-game bounds (storygraph.totals). It is closed: every root that can enter play is
  in it, and every branch of a node in it whose conditions can hold under its facts leads
  into it and awards only codas in it. A verdict about reachability names it;
- for a condition (DM315), the ranges and flags of the quantities it reads: evaluated at
  every value in those ranges, it always comes out the same.

tests/test_storygraph_certificates.py re-checks both with its own reading of the YAML.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.conditions import Facts, judge
from dmtool.storygraph.explain import Everything, read_at, written_conditions
from dmtool.storygraph.logic import Atom, Formula, read
from dmtool.storygraph.totals import economy

INF = float("inf")


def _num(value: float) -> int | None:
    return None if value in (INF, -INF) else int(value)


def certificates(analysis: Analysis) -> dict[str, Any]:
    graph, solution = analysis.graph, analysis.solution
    facts = solution.facts
    closure = {
        "reached": sorted(n for n in solution.reached if isinstance(n, int)),
        "blocks": sorted(n for n in solution.reached if isinstance(n, str)),
        "stage": sorted(n for n in solution.stage if isinstance(n, int)),
        "finale": {letter: sorted(n for n in found if isinstance(n, int))
                   for letter, found in solution.finale.items()},
        "codas": sorted(facts.codas),
        # The least points of an ending in its own finale (it leads, and the four reach the
        # goal), and the nodes only that ending's finale reads.
        "floors": dict(solution.floors),
        "ending_of": {str(n): e for n, e in solution.ending_of.items()},
        # What every way to a node surely did: coda cards the reader holds, entries read
        # (only those some condition asks about).
        "must": {str(n): {"codas": sorted(held), "entries": sorted(seen)}
                 for n, (held, seen) in solution.must.items()},
        # The rounds each reached node is read in (a bound of None: the finale's open end).
        "rounds": {str(n): [_num(low), _num(high)] for n, (low, high) in solution.rounds.items()},
        "ranges": _ranges(facts, graph.asked or frozenset()),
        "premises": list(economy(graph, facts, solution.stage).premises),
    }
    verdicts = list(_reachability(analysis)) + list(_decided(analysis))
    return {"closure": closure, "verdicts": verdicts}


def _ranges(facts: Facts, asked: frozenset[str]) -> dict[str, list[int | None]]:
    """Each quantity's range under the facts; None stands for no bound."""
    found = {"round": list(map(_num, facts.range("round")))}
    for ending, most in facts.scores.items():
        found[f"score {ending}"] = [0, _num(most)]
    for colour, (low, high) in facts.sentience.items():
        found[f"sentience {colour}"] = [_num(low), _num(high)]
    return found


def _reachability(analysis: Analysis) -> Iterator[dict[str, Any]]:
    graph, solution = analysis.graph, analysis.solution
    storybook = graph.storybook
    for number in storybook.entries:
        if number not in solution.reached:
            yield {"code": "DM303", "entry": number, "premises": ["closure"],
                   "claim": f"entry {number} is never read"}
    for letter, ending in storybook.endings.items():
        for conclusion in ending.conclusions:
            if (conclusion.entry in storybook.entries
                    and conclusion.entry not in solution.finale.get(letter, ())):
                yield {"code": "DM305", "ending": letter, "entry": conclusion.entry,
                       "premises": ["closure"],
                       "claim": f"ending {letter}'s finale never reads entry {conclusion.entry}"}
    for trap in analysis.traps:
        yield {"code": "DM307", "entries": trap, "premises": ["closure"],
               "claim": "every branch these entries can take leads back among them"}
    for coda in graph.context.codas:
        if coda not in solution.facts.codas:
            yield {"code": "DM309", "coda": coda, "premises": ["closure"],
                   "claim": f"coda card '{coda}' is never awarded"}


def _decided(analysis: Analysis) -> Iterator[dict[str, Any]]:
    """A certificate per condition DM315 reports: the ranges of what it reads."""
    graph, solution = analysis.graph, analysis.solution
    facts = solution.facts
    # As explain.decided_findings judges them: codas and entries left to the closure.
    loose = Facts(codas=Everything(), visited=Everything(), scores=facts.scores,
                  sentience=facts.sentience, notes=facts.notes)
    for condition, _, where in written_conditions(graph, solution):
        here = read_at(loose, where, solution.floors)
        verdict = judge(condition, here)
        if verdict.value is None:
            continue
        premises = []
        for atom in dict.fromkeys(_atoms(read(condition))):
            known, why = here.flag(atom.key) if atom.quantity is None else (None, "")
            if known is not None:
                # A flag decided where it is read: by what every way to that node did.
                premises.append({"flag": atom.key, "value": known, "node": where[3],
                                 "why": why})
            if atom.quantity is not None:
                low, high = here.range(atom.quantity)
                premises.append({"quantity": atom.quantity, "range": [_num(low), _num(high)],
                                 "why": "; ".join(dict.fromkeys(
                                     here.range_reason(atom.quantity, low=side)
                                     for side in (True, False)))})
        yield {"code": "DM315", "condition": condition, "always": verdict.value,
               "premises": premises, "claim": verdict.reason}


def _atoms(formula: Formula) -> Iterator[Atom]:
    if formula.atom is not None:
        yield formula.atom
    for part in formula.parts:
        yield from _atoms(part)

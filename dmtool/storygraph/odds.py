"""The pass probability of every test in a storybook at given sentience values, hardest first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dmtool.model.storybook import iter_effects
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Node, node_name
from dmtool.storygraph.dice import COLOURS, pass_probability, requirement
from dmtool.storygraph.local import where

DEFAULT_SENTIENCE = dict.fromkeys(COLOURS, 1)


@dataclass(frozen=True, slots=True)
class OddsLine:
    node: Node
    line: int
    roll: Mapping[str, Any]
    probability: Fraction
    release: bool
    reachable: bool

    @property
    def flag(self) -> str:
        if self.probability == 0:
            return "cannot pass"
        if self.probability == 1:
            return "cannot fail"
        return ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "line": self.line,
            "roll": dict(self.roll),
            "probability": float(self.probability),
            "exact": str(self.probability),
            "release": self.release,
            "reachable": self.reachable,
            "flag": self.flag or None,
        }


def describe_roll(roll: Mapping[str, Any]) -> str:
    """'green eye, red 2 skull' for {green: [eye], red: [skull, skull]}."""
    parts = []
    for colour, counts in requirement(roll).items():
        parts.append(
            colour + " " + " + ".join(t if n == 1 else f"{n} {t}" for t, n in counts.items())
        )
    return ", ".join(parts)


def collect_odds(analysis: Analysis, sentience: Mapping[str, int]) -> list[OddsLine]:
    """Every test of every entry and block, hardest first (then in storybook order)."""
    graph = analysis.graph
    found: list[tuple[int, OddsLine]] = []
    for order, node in enumerate(graph.arcs):
        effects, parts = graph.effects_of(node)
        for name, body, here in iter_effects(effects, parts):
            if (
                name != "test"
                or not isinstance(body, dict)
                or not isinstance(body.get("roll"), dict)
            ):
                continue
            odds = OddsLine(
                node,
                where(graph.storybook, here).line,
                body["roll"],
                pass_probability(body["roll"], sentience),
                bool(body.get("release")),
                node in analysis.solution.reached,
            )
            found.append((order, odds))
    found.sort(key=lambda pair: (pair[1].probability, pair[0], pair[1].line))
    return [odds for _, odds in found]


def render_odds(
    odds: list[OddsLine], sentience: Mapping[str, int], *, source: str, path: str
) -> str:
    values = ", ".join(f"{c} {sentience.get(c, 0)}" for c in COLOURS)
    lines = [
        f"{len(odds)} test{'s' if len(odds) != 1 else ''} in {path}, hardest first, with sentience "
        f"{values} ({source}); dice alone, without stored domains, cards or other wanderers' help:"
    ]
    for item in odds:
        notes = [
            n
            for n in (
                item.flag.upper(),
                "release test: extra dice can be bought" if item.release else "",
                "unreachable" if not item.reachable else "",
            )
            if n
        ]
        note = f"  [{'; '.join(notes)}]" if notes else ""
        lines.append(
            f"  {float(item.probability) * 100:6.2f}%  {path}:{item.line}  {node_name(item.node)}: "
            f"{describe_roll(item.roll)}{note}"
        )
    return "\n".join(lines)


def render_play(
    report: Any, *, storybook: str, seed: int, goal: int, per_round: int, entries: int
) -> str:
    """The ending distribution, conclusions and coverage of random playthroughs."""
    runs = max(report.runs, 1)
    lines = [
        f"{report.runs} random playthrough{'s' if report.runs != 1 else ''} of storybook "
        f"'{storybook}' (seed {seed}, score goal {goal}, {per_round} encounters a round):"
    ]
    for outcome in ("A", "B", "C", "D", "stage failed"):
        count = report.outcomes.get(outcome, 0)
        name = f"ending {outcome}" if len(outcome) == 1 else outcome
        line = f"  {name:<14} {count / runs * 100:6.2f}%  ({count})"
        if len(outcome) == 1 and count:
            ends = sorted(
                ((c, n) for (e, c), n in report.conclusions.items() if e == outcome),
                key=lambda cn: (cn[0] is None, cn[0] or 0),
            )
            line += "  " + ", ".join(
                f"{'unfinished' if c is None else f'conclusion {c}'} {n / count * 100:.1f}%"
                for c, n in ends
            )
        lines.append(line)
    lines.append(
        f"  decisions: {report.decisions} ({report.decisions / runs:.1f} a playthrough)"
        + (f"; {report.stuck} walks stopped in a loop" if report.stuck else "")
    )
    never = report.never_visited
    if never:
        shown = ", ".join(str(n) for n in never[:40]) + (" ..." if len(never) > 40 else "")
        lines.append(f"never visited: {len(never)} of {entries} entries: {shown}")
    else:
        lines.append(f"never visited: none (all {entries} entries were read)")
    return "\n".join(lines)


def odds_sentience(analysis: Analysis, given: Mapping[str, int]) -> tuple[dict[str, int], str]:
    """The sentience `dmtool odds` rolls at (the language server's lenses too), and whence."""
    start = analysis.graph.context.sentience
    if start is None:
        values = dict.fromkeys(COLOURS, 1)
        source = f"wanderer '{analysis.graph.storybook.wanderer}' not found, so 1 each"
    else:
        values = {c: int(start.get(c, 0)) for c in COLOURS}
        source = "the wanderer's starting values"
    if given:
        values.update(given)
        source += ", changed by --sentience"
    return values, source

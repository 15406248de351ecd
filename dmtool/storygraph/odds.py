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

DEFAULT_SENTIENCE = {c: 1 for c in COLOURS}


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
        return {"node": self.node, "line": self.line, "roll": dict(self.roll),
                "probability": float(self.probability), "exact": str(self.probability),
                "release": self.release, "reachable": self.reachable, "flag": self.flag or None}


def describe_roll(roll: Mapping[str, Any]) -> str:
    """'green eye, red 2 skull' for {green: [eye], red: [skull, skull]}."""
    parts = []
    for colour, counts in requirement(roll).items():
        parts.append(colour + " " + " + ".join(t if n == 1 else f"{n} {t}" for t, n in counts.items()))
    return ", ".join(parts)


def collect_odds(analysis: Analysis, sentience: Mapping[str, int]) -> list[OddsLine]:
    """Every test of every entry and block, hardest first (then in storybook order)."""
    graph = analysis.graph
    found: list[tuple[int, OddsLine]] = []
    for order, node in enumerate(graph.arcs):
        effects, parts = graph.effects_of(node)
        for name, body, here in iter_effects(effects, parts):
            if name != "test" or not isinstance(body, dict) or not isinstance(body.get("roll"), dict):
                continue
            odds = OddsLine(node, where(graph.storybook, here).line, body["roll"],
                            pass_probability(body["roll"], sentience), bool(body.get("release")),
                            node in analysis.solution.reached)
            found.append((order, odds))
    found.sort(key=lambda pair: (pair[1].probability, pair[0], pair[1].line))
    return [odds for _, odds in found]


def render_odds(odds: list[OddsLine], sentience: Mapping[str, int], *, source: str, path: str) -> str:
    values = ", ".join(f"{c} {sentience.get(c, 0)}" for c in COLOURS)
    lines = [f"{len(odds)} test{'s' if len(odds) != 1 else ''} in {path}, hardest first, with sentience "
             f"{values} ({source}); dice alone, without stored domains, cards or other wanderers' help:"]
    for item in odds:
        notes = [n for n in (item.flag.upper(), "release test: extra dice can be bought" if item.release else "",
                             "unreachable" if not item.reachable else "") if n]
        note = f"  [{'; '.join(notes)}]" if notes else ""
        lines.append(f"  {float(item.probability) * 100:6.2f}%  {path}:{item.line}  {node_name(item.node)}: "
                     f"{describe_roll(item.roll)}{note}")
    return "\n".join(lines)

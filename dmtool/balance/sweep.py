"""`--sweep`: one parameter moved over a few values, every value played on the same seeds.

A designer tunes one number at a time: how many symbols a test needs, how many points an
entry gives an ending, the score goal, the number of players. Each value of the sweep plays
the same seeds (common random numbers), so the curve is smooth and the change from one
value to the next is a paired difference, tested as `--against` tests two trees.

    test:202=1,2,3           the test at entry 202 needs its first symbol 1, 2 or 3 times
    score:200:A=0,1,2,3      entry 200's score effects give ending A 0 to 3 points
    variant=short,standard,long
    players=1,2,3,4
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from dmtool.balance.against import paired_changes
from dmtool.balance.games import Bundle, Config
from dmtool.balance.pool import RunResult
from dmtool.balance.summary import storybook_tests
from dmtool.balance.tally import Tally, TestTally
from dmtool.engine.dawn_of_madness.constants import ENDINGS, SCORE_GOALS
from dmtool.errors import UsageError

KINDS = ("test", "score", "variant", "players")
FORMS = "test:ENTRY=1,2,3, score:ENTRY:ENDING=0,1,2, variant=short,long or players=1,2,3"


@dataclass(frozen=True)
class Sweep:
    """What is swept: its kind, the entry (and ending) it changes, and its values."""

    kind: str
    values: tuple[str, ...]
    entry: int | None = None
    ending: str | None = None

    @property
    def parameter(self) -> str:
        if self.kind == "test":
            return f"times the test at entry {self.entry} needs its first symbol"
        if self.kind == "score":
            return f"points entry {self.entry} gives ending {self.ending}"
        return "score-goal variant" if self.kind == "variant" else "players"

    def describe(self, value: str) -> str:
        return f"{self.parameter}: {value}"


def parse_sweep(text: str) -> Sweep:
    """A sweep from its option text; a usage error that shows the forms otherwise."""
    head, _, listed = text.partition("=")
    values = tuple(v.strip() for v in listed.split(",") if v.strip())
    parts = head.strip().split(":")
    if not values or parts[0] not in KINDS:
        raise UsageError(f"--sweep: '{text}' is not one of {FORMS}.")
    if parts[0] in ("variant", "players"):
        allowed = tuple(SCORE_GOALS) if parts[0] == "variant" else ("1", "2", "3", "4")
        if len(parts) != 1 or any(v not in allowed for v in values):
            raise UsageError(f"--sweep {parts[0]}: give values among {', '.join(allowed)}.")
        return Sweep(parts[0], values)
    wanted = 2 if parts[0] == "test" else 3
    if len(parts) != wanted or not parts[1].isdigit() or not all(v.isdigit() for v in values):
        raise UsageError(f"--sweep: '{text}' is not one of {FORMS} (whole numbers).")
    if parts[0] == "test" and "0" in {str(int(v)) for v in values}:
        raise UsageError("--sweep test: a test needs at least 1 symbol.")
    ending = parts[2] if parts[0] == "score" else None
    if ending is not None and ending not in ENDINGS:
        raise UsageError(f"--sweep score: the ending must be one of {', '.join(ENDINGS)}.")
    return Sweep(parts[0], values, int(parts[1]), ending)


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in an effect tree, outermost first."""
    if isinstance(node, list):
        for item in node:
            yield from _nodes(item)
    elif isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)


def _changed_entry(entry: dict[str, Any], sweep: Sweep, value: int) -> dict[str, Any]:
    """A copy of the entry with the swept number set; a usage error if it has none."""
    changed = copy.deepcopy(entry)
    found = False
    for node in _nodes(changed.get("effects", [])):
        if sweep.kind == "test" and isinstance(node.get("test"), dict) and not found:
            roll = node["test"].get("roll")
            if isinstance(roll, dict) and roll:  # its first symbol needed `value` times
                colour, kinds = next(iter(roll.items()))
                node["test"]["roll"] = dict(roll, **{colour: [kinds[0]] * value + kinds[1:]})
                found = True
        elif sweep.kind == "score" and isinstance(node.get("score"), dict) \
                and sweep.ending in node["score"]:
            node["score"] = dict(node["score"], **{str(sweep.ending): value})
            found = True
    if not found:
        what = "test" if sweep.kind == "test" else f"score effect for ending {sweep.ending}"
        raise UsageError(f"--sweep: entry {sweep.entry} has no {what}.")
    return changed


def point_bundle(bundle: Bundle, sweep: Sweep, value: str) -> Bundle:
    """The wanderer's games with the swept entry changed (the others shared, unchanged)."""
    if sweep.kind not in ("test", "score"):
        return bundle
    entries = bundle.catalog.entries
    if sweep.entry not in entries:
        raise UsageError(f"--sweep: the storybook has no entry {sweep.entry}.")
    changed = dict(entries)
    changed[sweep.entry] = _changed_entry(entries[sweep.entry], sweep, int(value))
    catalog = dataclasses.replace(bundle.catalog, entries=changed, derived={})
    return Bundle(bundle.wanderer, catalog, storybook_tests(changed))


def point_configs(configs: tuple[Config, ...], sweep: Sweep, value: str) -> tuple[Config, ...]:
    """The configurations played at one value (the variant or player count set to it)."""
    if sweep.kind == "variant":
        configs = tuple(dataclasses.replace(c, variant=value) for c in configs)
    elif sweep.kind == "players":
        configs = tuple(dataclasses.replace(c, players=int(value)) for c in configs)
    return tuple(dict.fromkeys(configs))


def _curve(points: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Each outcome's rate at every value (the finale, failures and endings)."""
    names: dict[str, None] = {}
    for _, section in points:
        names.update((o["outcome"], None) for o in section["outcomes"] if o["level"] < 2)
    series = []
    for name in names:
        found = [next((o for o in s["outcomes"] if o["outcome"] == name), None)
                 for _, s in points]
        series.append({"outcome": name,
                       "rate": [o["rate"] if o else 0.0 for o in found],
                       "ci": [o["ci"] if o else [0.0, 1.0] for o in found]})
    return {"values": [v for v, _ in points], "outcomes": series}


def _test_curve(sweep: Sweep, tallies: list[Tally]) -> dict[str, Any] | None:
    """The swept test's own pass rate at every value, clustered by game (stats.Clustered)."""
    if sweep.kind != "test":
        return None
    rates, bands = [], []
    for tally in tallies:
        merged = TestTally()
        for (where, _need), test in tally.tests.items():
            if where == f"entry {sweep.entry}":
                merged.merge(test)
        clustered = merged.clustered()
        rates.append(round(clustered.rate, 6))
        bands.append([round(v, 6) for v in clustered.interval()])
    return {"rate": rates, "ci": bands}


def summary(sweep: Sweep, results: list[tuple[str, RunResult]],
            sections: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """The report's `sweep`: per configuration, each outcome's curve over the values and
    the paired change from each value to the next."""
    configurations = []
    for number in range(len(sections[0])):
        points = [(value, sections[i][number]) for i, (value, _) in enumerate(results)]
        steps = []
        for (before_value, before), (after_value, after) in pairwise(results):
            steps.append({"from": before_value, "to": after_value,
                          "changes": paired_changes(before.tallies[number],
                                                    after.tallies[number])})
        label = sections[0][number]["label"].split(";")[0]
        configurations.append({"label": label, **_curve(points), "steps": steps,
                               "test": _test_curve(sweep, [r.tallies[number]
                                                           for _, r in results])})
    return {"parameter": sweep.parameter, "kind": sweep.kind, "entry": sweep.entry,
            "ending": sweep.ending, "values": list(sweep.values),
            "paired": "the same seeds at every value (common random numbers); each step "
                      "tested with McNemar's exact test, Holm-corrected per step",
            "configurations": configurations}

"""Story choices weighed by looking ahead through the storybook (the planner's answers).

A story choice is asked in the middle of an action, where the game cannot be copied and
played forward; but what an option leads to is written in the storybook. So each option's
effects are read ahead, following `goto` into the entries they lead to (DEPTH entries deep):
score points count toward the finale (the game reaches it when the endings' total meets the
goal and the abomination is dead), harm to the wanderer counts against, a test's two
branches count half each, a nested choice counts its best option. The greedy and random
players leave story choices to chance; this is what makes the planner the stronger table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEPTH = 4  # entries followed through `goto`
POINT = 10.0  # a score point toward the finale
HARM = {"lose_health": 12.0, "take_damage": 4.0, "lose_mental_capacity": 3.0,
        "lose_existence": 2.0, "gain_condition": 6.0, "spawn_terror": 10.0,
        "spawn_malformation": 12.0, "trap": 8.0, "fail_stage": 1000.0}
GAIN = {"gain_coda": 3.0, "gain_domain": 3.0, "restore_health": 6.0,
        "restore_mental_capacity": 2.0, "gain_existence": 2.0, "release_trap": 4.0,
        "heal": 6.0}


def _amount(value: Any) -> float:
    """An effect's size: a number, a mapping's 'amount', or 1."""
    if isinstance(value, bool):
        return 1.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, Mapping) and isinstance(value.get("amount"), (int, float)):
        return float(value["amount"])
    return 1.0


class StoryLookahead:
    """Values story options by the storybook's text of effects (cached per entry)."""

    def __init__(self, entries: Mapping[int, Mapping[str, Any]]) -> None:
        self.entries = entries
        self.options = options_by_label(entries)  # label -> the effects of options so named
        self.cache: dict[tuple[int, int], float] = {}

    def best(self, labels: tuple[Any, ...]) -> Any:
        """The label whose option looks best (ties to the first)."""
        values = [self.value_of(str(label)) for label in labels]
        return labels[max(range(len(labels)), key=lambda i: (values[i], -i))]

    def value_of(self, label: str) -> float:
        found = self.options.get(label)
        if not found:
            return 0.0
        return sum(self.effects(effects, DEPTH) for effects in found) / len(found)

    def effects(self, effects: Any, depth: int) -> float:
        if not isinstance(effects, list):
            return 0.0
        return sum(self.effect(e, depth) for e in effects if isinstance(e, Mapping))

    def effect(self, effect: Mapping[str, Any], depth: int) -> float:
        value = 0.0
        for name, spec in effect.items():
            if name == "score" and isinstance(spec, Mapping):
                value += POINT * sum(float(v) for v in spec.values()
                                     if isinstance(v, (int, float)))
            elif name in HARM:
                value -= HARM[name] * _amount(spec)
            elif name in GAIN:
                value += GAIN[name] * _amount(spec)
            elif name == "goto" and isinstance(spec, int):
                value += self.entry(spec, depth - 1)
            elif name == "test" and isinstance(spec, Mapping):
                value += (self.effects(spec.get("pass"), depth)
                          + self.effects(spec.get("fail"), depth)) / 2
            elif name == "choice" and isinstance(spec, list):
                value += max((self.effects(o.get("effects"), depth) for o in spec
                              if isinstance(o, Mapping)), default=0.0)
            elif name in ("may", "central_wanderer", "all_wanderers"):
                value += max(0.0, self.effects(spec, depth)) if name == "may" \
                    else self.effects(spec, depth)
            elif name == "if" and isinstance(spec, Mapping):
                value += (self.effects(spec.get("then"), depth)
                          + self.effects(spec.get("else"), depth)) / 2
        return value

    def entry(self, number: int, depth: int) -> float:
        if depth <= 0 or number not in self.entries:
            return 0.0
        key = (number, depth)
        if key not in self.cache:
            self.cache[key] = 0.0  # a loop of gotos counts nothing more
            self.cache[key] = self.effects(self.entries[number].get("effects", []), depth)
        return self.cache[key]


def options_by_label(entries: Mapping[int, Mapping[str, Any]]) -> dict[str, list[Any]]:
    """Each choice option's label in a storybook, and the effects of every option so
    labelled (a story choice is asked by its labels alone)."""
    found: dict[str, list[Any]] = {}
    for entry in entries.values():
        _index_options(entry.get("effects", []), found)
    return found


def _index_options(node: Any, found: dict[str, list[Any]]) -> None:
    if isinstance(node, list):
        for item in node:
            _index_options(item, found)
    elif isinstance(node, Mapping):
        for key, value in node.items():
            if key == "choice" and isinstance(value, list):
                for option in value:
                    if isinstance(option, Mapping) and "label" in option:
                        found.setdefault(str(option["label"]), []).append(
                            option.get("effects", []))
            _index_options(value, found)

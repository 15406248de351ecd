"""Rule ids of the checklist and which of them the fixtures cover."""

from __future__ import annotations

from collections.abc import Iterable

RULE_IDS: tuple[str, ...] = tuple(f"R{n:02d}" for n in range(1, 56))
PART_ONE: tuple[str, ...] = RULE_IDS[:34]  # Dawn of Madness R01-R34 (this engine's part 1)
DAWN_OF_MADNESS: tuple[str, ...] = RULE_IDS[:48]  # R01-R48: every Dawn of Madness rule
DEEP_MADNESS: tuple[str, ...] = RULE_IDS[48:]  # R49-R55: the Deep Madness expansions


def covered(rule_lists: Iterable[Iterable[str]]) -> set[str]:
    return {rule for rules in rule_lists for rule in rules}


def uncovered(rule_lists: Iterable[Iterable[str]], *, among: Iterable[str] = RULE_IDS) -> list[str]:
    seen = covered(rule_lists)
    return [rule for rule in among if rule not in seen]

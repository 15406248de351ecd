"""The Catalog: card and story definitions a game reads but never changes (shared, not copied)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.board import Board
from dmtool.engine.constants import COLOURS, SHARDS

MONSTER_KINDS = ("terror", "malformation", "abomination", "final-boss")


def default_shard_colours(number: int) -> list[str]:
    """Sentience icons used when a fixture does not give a shard's: three colours in a cycle."""
    return [COLOURS[(number - 1 + i) % 5] for i in range(3)]


@dataclass
class Catalog:
    """Definitions in content shape (the dicts of the content schemas), indexed by id."""

    monsters: dict[str, dict[str, Any]] = field(default_factory=dict)
    codas: dict[str, dict[str, Any]] = field(default_factory=dict)
    domain_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    existence_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    support_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    encounter_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    entries: dict[int, dict[str, Any]] = field(default_factory=dict)
    round_trackers: list[int] = field(default_factory=list)
    shards: dict[int, dict[str, Any]] = field(default_factory=dict)
    board: Board = field(default_factory=Board)

    def __post_init__(self) -> None:
        for n in SHARDS:
            info = self.shards.setdefault(n, {})
            info.setdefault("sentience", default_shard_colours(n))

    def monster(self, card: str) -> dict[str, Any]:
        return self.monsters[card]

    def shard_colours(self, number: int) -> list[str]:
        return list(self.shards[number]["sentience"])

    def shard_entry(self, number: int) -> int | None:
        encounter = self.shards[number].get("encounter")
        return encounter.get("entry") if isinstance(encounter, dict) else None

    def confrontation_card(self, abomination: str, number: int) -> dict[str, Any]:
        """Confrontation cards are numbered 1..10 in the order the abomination lists them."""
        return self.monsters[abomination]["confrontation_cards"][number - 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "monsters": self.monsters,
            "codas": self.codas,
            "domain_cards": self.domain_cards,
            "existence_cards": self.existence_cards,
            "support_cards": self.support_cards,
            "encounter_cards": self.encounter_cards,
            "entries": {str(k): v for k, v in self.entries.items()},
            "round_trackers": self.round_trackers,
            "shards": {str(k): v for k, v in self.shards.items()},
            "board": [list(p) for p in self.board.paths],
        }

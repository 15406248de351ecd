"""The Catalog: card and story definitions a game reads but never changes (shared, not copied)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.dawn_of_madness.board import Board
from dmtool.engine.dawn_of_madness.constants import COLOURS, SHARDS

MONSTER_KINDS = ("terror", "malformation", "abomination", "final-boss")


def default_shard_colours(number: int) -> list[str]:
    """Sentience icons used when a fixture does not give a shard's: three colours in a cycle."""
    return [COLOURS[(number - 1 + i) % 5] for i in range(3)]


def playable_monster(card: dict[str, Any], kind: str) -> dict[str, Any]:
    """A monster card in the shape the engine reads: optional lists and rewards filled in."""
    card.setdefault("kind", kind)
    card.setdefault("actions", [])
    card.setdefault("rift_abilities", [])
    for confrontation in card.get("confrontation_cards", []):
        confrontation.setdefault("special_action", {})
        confrontation.setdefault("existence_reward", 0)
    return card


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
    # Part 2: the storybook's special setup and endings, the finale's cards, devour cards,
    # families (lineage punishments) and finale legacy cards.
    setup: dict[str, Any] = field(default_factory=dict)
    endings: dict[str, dict[str, Any]] = field(default_factory=dict)
    finale_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    finale_legacy_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    devour_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    families: dict[str, dict[str, Any]] = field(default_factory=dict)
    wanderers: dict[str, dict[str, Any]] = field(default_factory=dict)  # content dashboards
    # What the engine works out from the definitions on first use (a monster's compiled
    # action sequence, ...), by key. `dataclasses.replace` hands the same dict to each
    # board catalogue made from this one, so a whole balance run works it out once.
    derived: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

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

    def finale_entry(self, number: int, ending: str | None) -> int | None:
        """The entry of the shard's finale encounter for the current ending, if it has one."""
        found = self.shards[number].get("finale", {})
        return found.get(ending) if ending else None

    def encounter_entries(self, stage: str, ending: str | None) -> dict[int, int | None]:
        """Each shard's encounter entry in a stage: its own in the wanderer stage, the one
        of the ending in the finale (worked out once; do not change the answer)."""
        key = ("encounter_entries", stage, ending)
        found = self.derived.get(key)
        if found is None:
            found = self.derived[key] = {
                n: self.finale_entry(n, ending) if stage == "finale" else self.shard_entry(n)
                for n in self.shards}
        return found  # type: ignore[no-any-return]

    def legacy_cards(self, abomination: str) -> dict[str, dict[str, Any]]:
        """An abomination's legacy cards by id ('<abomination>/legacy-N', N from 1)."""
        cards = self.monsters.get(abomination, {}).get("legacy_cards", [])
        return {f"{abomination}/legacy-{i + 1}": c for i, c in enumerate(cards)}

    def legacy_card(self, card: str) -> dict[str, Any] | None:
        abomination, _, _ = card.partition("/")
        # Asked for every listing of a wanderer with legacy cards: indexed once (read-only).
        key = ("legacy_cards", abomination)
        found = self.derived.get(key)
        if found is None:
            found = self.derived[key] = self.legacy_cards(abomination)
        return found.get(card)  # type: ignore[no-any-return]

    def family_of(self, abomination: str) -> str | None:
        family = self.monsters.get(abomination, {}).get("family")
        if family:
            return str(family)
        for fid, doc in self.families.items():
            if abomination in doc.get("abominations", []):
                return fid
        return None

    def owner(self, card: str) -> str | None:
        """The wanderer whose forgotten envelope holds a card, if the catalogue knows."""
        for pool in (self.existence_cards, self.domain_cards, self.finale_legacy_cards):
            if card in pool and pool[card].get("wanderer"):
                return str(pool[card]["wanderer"])
        return None

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
            "setup": self.setup,
            "endings": self.endings,
            "finale_cards": self.finale_cards,
            "finale_legacy_cards": self.finale_legacy_cards,
            "devour_cards": self.devour_cards,
            "families": self.families,
            "wanderers": self.wanderers,
        }

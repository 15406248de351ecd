"""What a chapter reads but never changes: the chapter document, its board, the sizes of
its components and monster reserves (from the expansion's manifest), the expansion's
common rules, and the card faces a fixture describes where the rulebooks do not print them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.deep_madness.board import Board


@dataclass(frozen=True)
class MonsterKind:
    """A monster the chapter (or the fixture) names: its card and figures."""

    id: str
    name: str
    card: str = "unspecified"  # chapter-specific | expansion | base-game | unspecified
    epic: bool = False
    horror: int | None = None
    max_health: int | None = None
    figures: int | None = None  # how many figures the box holds (None: not known)
    colours: tuple[str, ...] = ()  # figure colours, for Hydras and Shadows of Filth


@dataclass(frozen=True)
class ComponentKind:
    """A component the chapter uses, with the whole supply the box holds (None: unlimited
    or not counted by any manifest)."""

    id: str
    name: str
    source: str = "expansion"
    size: int | None = None
    pool: bool = False
    colours: tuple[str, ...] = ()


@dataclass
class ChapterCatalog:
    """The chapter's definitions, indexed for the engine."""

    chapter: dict[str, Any]
    board: Board = field(default_factory=Board)
    components: dict[str, ComponentKind] = field(default_factory=dict)
    monsters: dict[str, MonsterKind] = field(default_factory=dict)
    expansion_rules: dict[str, Any] = field(default_factory=dict)
    campaign: dict[str, Any] = field(default_factory=dict)
    filth_cards: dict[str, int] = field(default_factory=dict)  # card -> filth tokens it gives
    domain_cards: dict[str, str] = field(default_factory=dict)  # card -> its token's kind
    enlightenment: dict[str, dict[str, Any]] = field(default_factory=dict)  # card -> rules

    @property
    def id(self) -> str:
        return str(self.chapter["id"])

    @property
    def expansion(self) -> str:
        return str(self.chapter.get("expansion", ""))

    def hazards(self) -> list[dict[str, Any]]:
        return list(self.chapter.get("devouring_track", {}).get("hazards", []))

    def investigate(self) -> list[dict[str, Any]]:
        return list(self.chapter.get("investigate", []))

    def track_values(self) -> list[int]:
        return list(self.chapter.get("devouring_track", {}).get("values", []))

    def winning(self) -> list[tuple[str, dict[str, Any]]]:
        """(reference, condition) for each winning condition."""
        return [(f"{self.id}/winning/{n + 1}", c)
                for n, c in enumerate(self.chapter.get("winning", []))]

    def losing(self) -> list[tuple[str, dict[str, Any]]]:
        """(reference, condition) for each losing condition: the chapter's own, then the
        expansion's common ones when the chapter defers to them."""
        losing = self.chapter.get("losing", {})
        found = [(f"{self.id}/losing/{n + 1}", c)
                 for n, c in enumerate(losing.get("conditions", []))]
        if losing.get("expansion_rules") and self.expansion_rules:
            rid = self.expansion_rules["id"]
            found += [(f"{rid}/losing/{n + 1}", c)
                      for n, c in enumerate(self.expansion_rules.get("losing", []))]
        return found

    def fact(self, title: str, key: str) -> Any:
        """A fact of the expansion's common rules (e.g. the Hydra's Domain's max health)."""
        for rule in self.expansion_rules.get("rules", []):
            if rule.get("title") == title:
                return rule.get("facts", {}).get(key)
        return None

    def epic(self, monster: str) -> bool:
        kind = self.monsters.get(monster)
        return bool(kind and kind.epic)

    def horror_zero(self, monster: str) -> bool:
        kind = self.monsters.get(monster)
        return bool(kind and kind.horror == 0)

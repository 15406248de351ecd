"""Monster cards read once per catalogue: each action's cost, condition and targeting
effects, and which rift abilities a set of rifts switches on.

A monster activates dozens of times a game and, each time, walks its action sequence; the
card's dicts never change, so what the walk needs is worked out on first use and kept in
the catalogue's `derived` store (shared by every board catalogue made from it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import Domain

# Effects that act on a target: an action that has some needs one of them to find one.
TARGETING: Final = ("monster_attack", "monster_drain", "monster_move", "monster_heal",
             "resolve_confrontation_card")
Targeting = tuple[tuple[str, Any], ...]  # (effect name, its value), in the card's order


def targeting(effects: list[dict[str, Any]]) -> Targeting:
    """The targeting effects of an effect list."""
    pairs = (next(iter(effect.items())) for effect in effects)
    return tuple((name, value) for name, value in pairs if name in TARGETING)


@dataclass(frozen=True, slots=True)
class MonsterAction:
    """One action of a monster's sequence (`number` counts from 1, as the log does)."""

    number: int
    cost: int
    condition: dict[str, Any] | None
    effects: list[dict[str, Any]]
    targeting: Targeting


@dataclass(slots=True)
class MonsterPlan:
    """A monster card's action sequence and rift abilities, ready to walk."""

    actions: tuple[MonsterAction, ...]
    abilities: tuple[dict[str, Any], ...]
    switched_on: dict[tuple[Domain, ...], list[dict[str, Any]]] = field(default_factory=dict)

    def active_abilities(self, rifts: list[Domain]) -> list[dict[str, Any]]:
        """The rift abilities these rifts switch on (rifts change rarely: kept per set)."""
        key = tuple(rifts)
        found = self.switched_on.get(key)
        if found is None:
            found = self.switched_on[key] = [a for a in self.abilities
                                             if rifts_match(rifts, a["requires"])]
        return found


def monster_plan(catalog: Catalog, monster: str) -> MonsterPlan:
    """The plan of a monster card, compiled on first use."""
    key = ("monster", monster)
    plan = catalog.derived.get(key)
    if plan is None:
        defn = catalog.monster(monster)
        actions = tuple(
            MonsterAction(index + 1, action.get("cost", 0), action.get("condition"),
                          action.get("effects", []), targeting(action.get("effects", [])))
            for index, action in enumerate(defn.get("actions", [])))
        plan = catalog.derived[key] = MonsterPlan(actions,
                                                  tuple(defn.get("rift_abilities", [])))
    return plan  # type: ignore[no-any-return]


def confrontation_targeting(catalog: Catalog, abomination: str, number: int) -> Targeting:
    """The targeting effects of a confrontation card's special action."""
    key = ("confrontation", abomination, number)
    found = catalog.derived.get(key)
    if found is None:
        card = catalog.confrontation_card(abomination, number)
        found = catalog.derived[key] = targeting(card["special_action"].get("effects", []))
    return found  # type: ignore[no-any-return]


def rifts_match(rifts: list[Domain], requires: list[dict[str, str]]) -> bool:
    """Each required symbol needs its own rift; a missing colour or type matches any."""

    def fits(rift: Domain, want: dict[str, str]) -> bool:
        return want.get("colour", rift[0]) == rift[0] and want.get("type", rift[1]) == rift[1]

    def assign(i: int, free: list[Domain]) -> bool:
        if i == len(requires):
            return True
        return any(fits(r, requires[i]) and assign(i + 1, free[:j] + free[j + 1:])
                   for j, r in enumerate(free))

    return assign(0, list(rifts))

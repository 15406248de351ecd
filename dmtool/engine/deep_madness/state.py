"""A chapter's state: plain, copyable, serialisable records of everything that changes while
a Deep Madness chapter is played."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.deep_madness.records import Figure, Investigator, Piece


@dataclass(slots=True)
class ChapterState:
    """Everything that changes. The chapter's texts and the board live in the catalogue.

    `supply` holds the pieces of each counted component not yet in play (its pool); a
    component absent from it is unlimited. `reserve` lists, per monster, the colours of
    its figures off the board (None for a figure without colour).
    """

    chapter: str
    investigators: dict[str, Investigator] = field(default_factory=dict)  # activation order
    figures: dict[str, Figure] = field(default_factory=dict)
    spaces: dict[str, list[Piece]] = field(default_factory=dict)  # pieces lying on spaces
    flooded: list[str] = field(default_factory=list)
    devoured: list[int] = field(default_factory=list)
    supply: dict[str, list[Piece]] = field(default_factory=dict)
    reserve: dict[str, list[str | None]] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    killed: dict[str, int] = field(default_factory=dict)
    dead: list[str] = field(default_factory=list)  # investigators killed, in order
    shortfalls: list[dict[str, str]] = field(default_factory=list)
    round: int = 1
    round_start: bool = False  # the round has just begun (nothing done in it yet)
    devour_position: int = 0
    devour_spaces: int | None = None
    track: list[str] = field(default_factory=list)  # the activation track's monster cards
    decks: dict[str, list[Any]] = field(default_factory=dict)  # top first
    modifiers: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)  # effects waiting for a moment
    domain_rule: bool = False
    enlightenment: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    outcome: str = "ongoing"  # ongoing | won | lost
    reason: dict[str, Any] | None = None
    on_cards: dict[str, int] = field(default_factory=dict)  # tokens lying on monster cards

    def clone(self) -> ChapterState:
        return ChapterState(
            self.chapter, {k: i.clone() for k, i in self.investigators.items()},
            {k: f.clone() for k, f in self.figures.items()},
            {k: [p.clone() for p in v] for k, v in self.spaces.items()}, list(self.flooded),
            list(self.devoured), {k: [p.clone() for p in v] for k, v in self.supply.items()},
            {k: list(v) for k, v in self.reserve.items()}, dict(self.removed),
            dict(self.killed), list(self.dead), [dict(s) for s in self.shortfalls],
            self.round, self.round_start, self.devour_position, self.devour_spaces,
            list(self.track), {k: list(v) for k, v in self.decks.items()},
            [dict(m) for m in self.modifiers], [dict(p) for p in self.pending],
            self.domain_rule,
            {k: {"slots": list(v["slots"]), "filled": list(v["filled"])}
             for k, v in self.enlightenment.items()},
            self.outcome, dict(self.reason) if self.reason else None, dict(self.on_cards))

    def living(self) -> list[Investigator]:
        return [i for i in self.investigators.values() if i.alive]

    def pieces_at(self, space: str | None) -> list[Piece]:
        return self.spaces.get(space, []) if space is not None else []

    def figures_at(self, space: str | None) -> list[Figure]:
        return [f for f in self.figures.values() if f.space == space]

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (also the view fixtures' expectations read)."""
        return {
            "chapter": self.chapter, "round": self.round, "round_start": self.round_start,
            "outcome": self.outcome, "reason": dict(self.reason) if self.reason else None,
            "investigators": {k: i.to_dict() for k, i in self.investigators.items()},
            "figures": {k: f.to_dict() for k, f in self.figures.items()},
            "spaces": {k: [p.to_dict() for p in v] for k, v in sorted(self.spaces.items()) if v},
            "flooded": sorted(self.flooded), "devoured": sorted(self.devoured),
            "supply": {k: len(v) for k, v in sorted(self.supply.items())},
            "supply_pieces": {k: [p.to_dict() for p in v] for k, v in sorted(self.supply.items())},
            "reserve": {k: len(v) for k, v in sorted(self.reserve.items())},
            "reserve_colours": {k: list(v) for k, v in sorted(self.reserve.items())},
            "removed": dict(sorted(self.removed.items())),
            "killed": dict(sorted(self.killed.items())), "dead": list(self.dead),
            "shortfalls": [dict(s) for s in self.shortfalls],
            "devour": {"position": self.devour_position, "spaces": self.devour_spaces},
            "track": list(self.track),
            "decks": {k: list(v) for k, v in sorted(self.decks.items())},
            "modifiers": [dict(m) for m in self.modifiers],
            "pending": [dict(p) for p in self.pending],
            "domain_rule": self.domain_rule,
            "enlightenment": {k: {"slots": list(v["slots"]), "filled": list(v["filled"])}
                              for k, v in sorted(self.enlightenment.items())},
            "infection_tokens_total": sum(i.infection_tokens for i in self.investigators.values()),
            "on_cards": dict(sorted(self.on_cards.items())),
        }

"""The game state: plain, copyable, serialisable records of everything that changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.dawn_of_madness.condition_cards import next_card
from dmtool.engine.dawn_of_madness.constants import ENDINGS, SHARDS
from dmtool.engine.dawn_of_madness.records import Monster, Shard, Wanderer
from dmtool.engine.dawn_of_madness.turns import active_characters

__all__ = ["GameState", "Monster", "Shard", "Wanderer"]


@dataclass(slots=True)
class GameState:
    """Everything that changes during a game. Card texts live in the Catalog, not here.

    The campaign part (unlocked cards, legacy cards, finale legacy cards, lineage tokens) is
    read from the campaign state at setup and written back when the game ends.
    """

    central: str
    wanderers: dict[str, Wanderer] = field(default_factory=dict)
    monsters: dict[str, Monster] = field(default_factory=dict)
    shards: dict[int, Shard] = field(default_factory=lambda: {n: Shard() for n in SHARDS})
    round: int = 1
    phase: str = "action"  # setup | event | action | refresh | ended
    stage: str = "wanderer"  # wanderer | finale
    outcome: str = "ongoing"  # ongoing | won | failed (wanderer stage) | concluded (finale)
    reason: str | None = None
    scores: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENDINGS, 0))
    score_goal: int = 40
    abomination: str | None = None
    abomination_killed: bool = False
    confrontation: dict[str, Any] = field(
        default_factory=lambda: {"deck": [], "active": None, "discard": []})
    decks: dict[str, list[Any]] = field(default_factory=dict)  # top first
    condition_decks: dict[str, list[str]] = field(default_factory=dict)  # card ids, top first
    support: dict[str, bool] = field(default_factory=dict)  # card id -> face up
    killed: list[str] = field(default_factory=list)
    visited: list[int] = field(default_factory=list)
    unlocked: list[str] = field(default_factory=list)
    spawned_cards: list[str] = field(default_factory=list)
    devour_rule: bool = False
    rng: int = 0
    wanderer_outcome: str | None = None  # how the wanderer stage ended (won | failed)
    wrapped_up: bool = False  # the end of the wanderer stage (abomination back) is resolved
    ending: str | None = None  # the finale's ending
    conclusion: dict[str, Any] | None = None  # {entry, legacy} once the finale concluded
    legacy: dict[str, list[str]] = field(default_factory=dict)  # wanderer -> legacy card ids
    legacy_used: dict[str, list[str]] = field(default_factory=dict)  # consumables spent
    finale_legacy: dict[str, str] = field(default_factory=dict)  # wanderer -> card id
    lineage: dict[str, list[str]] = field(default_factory=dict)  # family -> abominations

    def clone(self) -> GameState:
        return GameState(
            self.central,
            {k: w.clone() for k, w in self.wanderers.items()},
            {k: m.clone() for k, m in self.monsters.items()},
            {k: s.clone() for k, s in self.shards.items()},
            self.round, self.phase, self.stage, self.outcome, self.reason, dict(self.scores),
            self.score_goal, self.abomination, self.abomination_killed,
            {"deck": list(self.confrontation["deck"]), "active": self.confrontation["active"],
             "discard": list(self.confrontation["discard"])},
            {k: list(v) for k, v in self.decks.items()},
            {k: list(v) for k, v in self.condition_decks.items()},
            dict(self.support), list(self.killed), list(self.visited), list(self.unlocked),
            list(self.spawned_cards), self.devour_rule, self.rng, self.wanderer_outcome,
            self.wrapped_up, self.ending, dict(self.conclusion) if self.conclusion else None,
            {k: list(v) for k, v in self.legacy.items()},
            {k: list(v) for k, v in self.legacy_used.items()}, dict(self.finale_legacy),
            {k: list(v) for k, v in self.lineage.items()},
        )

    def living(self) -> list[Wanderer]:
        """Wanderers in play: the dead are out of the game until they respawn."""
        return [w for w in self.wanderers.values() if w.alive]

    def is_over(self) -> bool:
        """A failed wanderer stage ends the game; so does a concluded (or ended) finale.
        (A method for the game loop, which asks after every step: a property's getter is
        called from C, at several times the cost.)"""
        if self.stage == "finale":
            return self.outcome != "ongoing"
        return self.outcome == "failed"

    @property
    def game_over(self) -> bool:
        """`is_over()`, as the state's readers and views ask it."""
        return self.is_over()

    def campaign_view(self) -> dict[str, Any]:
        """What this game would hand to the campaign state: unlocked cards, legacy cards,
        finale legacy cards and lineage tokens."""
        owners = sorted(set(self.legacy) | set(self.finale_legacy))
        return {
            "unlocked": list(self.unlocked),
            "wanderers": {w: {"legacy_cards": list(self.legacy.get(w, [])),
                              "finale_legacy": self.finale_legacy.get(w)} for w in owners},
            "lineage": {k: list(v) for k, v in self.lineage.items()},
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON data (also the view fixtures' expectations read)."""
        total = sum(self.scores.values())
        return {
            "central": self.central,
            "round": self.round,
            "phase": self.phase,
            "stage": self.stage,
            "outcome": self.outcome,
            "reason": self.reason,
            "game_over": self.game_over,
            "wanderer_outcome": self.wanderer_outcome,
            "wrapped_up": self.wrapped_up,
            "ending": self.ending,
            "conclusion": dict(self.conclusion) if self.conclusion else None,
            "scores": dict(self.scores),
            "score_total": total,
            "score_trackers": {e: {"centre": n // 10, "track": n % 10}
                               for e, n in self.scores.items()},
            "score_goal": self.score_goal,
            "active": active_characters(self),
            "wanderers": {k: w.to_dict() for k, w in self.wanderers.items()},
            "monsters": {k: m.to_dict() for k, m in self.monsters.items()},
            "shards": {str(n): {"tokens": dict(s.tokens), "encounter_cards": list(s.cards)}
                       for n, s in self.shards.items()},
            "abomination": {
                "id": self.abomination,
                "killed": self.abomination_killed,
                "on_board": self.abomination is not None and self.abomination in self.monsters,
                "active_card": self.confrontation["active"],
                "deck": list(self.confrontation["deck"]),
                "discard": list(self.confrontation["discard"]),
            },
            "decks": {k: list(v) for k, v in self.decks.items()},
            "condition_decks": {k: len(v) for k, v in self.condition_decks.items()},
            "condition_piles": {k: list(v) for k, v in self.condition_decks.items()},
            "next_traumatized": next_card(self, "traumatized"),
            "support_cards": dict(self.support),
            "killed": list(self.killed),
            "visited": list(self.visited),
            "unlocked": list(self.unlocked),
            "spawned_cards": list(self.spawned_cards),
            "devour_rule": self.devour_rule,
            "devour_tokens": sum(s.tokens.get("devour", 0) for s in self.shards.values()),
            "legacy_used": {k: list(v) for k, v in self.legacy_used.items()},
            "campaign": self.campaign_view(),
            "rng": self.rng,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        abom = d.get("abomination", {})
        campaign = d.get("campaign", {})
        keeps = campaign.get("wanderers", {})
        piles = d.get("condition_piles")
        if piles is None:  # counts only: identical cards of each type
            piles = {k: [k] * n for k, n in d.get("condition_decks", {}).items()}
        state = cls(
            d["central"],
            {k: Wanderer.from_dict(k, v) for k, v in d.get("wanderers", {}).items()},
            {k: Monster.from_dict(k, v) for k, v in d.get("monsters", {}).items()},
            {int(k): Shard(dict(v.get("tokens", {})), list(v.get("encounter_cards", [])))
             for k, v in d.get("shards", {}).items()},
            d.get("round", 1), d.get("phase", "action"), d.get("stage", "wanderer"),
            d.get("outcome", "ongoing"), d.get("reason"), dict(d.get("scores", {})),
            d.get("score_goal", 40), abom.get("id"), abom.get("killed", False),
            {"deck": list(abom.get("deck", [])), "active": abom.get("active_card"),
             "discard": list(abom.get("discard", []))},
            {k: list(v) for k, v in d.get("decks", {}).items()},
            {k: list(v) for k, v in piles.items()},
            dict(d.get("support_cards", {})),
            list(d.get("killed", [])), list(d.get("visited", [])), list(d.get("unlocked", [])),
            list(d.get("spawned_cards", [])), bool(d.get("devour_rule", False)),
            int(d.get("rng", 0)), d.get("wanderer_outcome"), bool(d.get("wrapped_up", False)),
            d.get("ending"), dict(d["conclusion"]) if d.get("conclusion") else None,
            {k: list(v.get("legacy_cards", [])) for k, v in keeps.items()},
            {k: list(v) for k, v in d.get("legacy_used", {}).items()},
            {k: v["finale_legacy"] for k, v in keeps.items() if v.get("finale_legacy")},
            {k: list(v) for k, v in campaign.get("lineage", {}).items()},
        )
        for n in SHARDS:
            state.shards.setdefault(n, Shard())
        for ending in ENDINGS:
            state.scores.setdefault(ending, 0)
        return state

"""The game state: plain, copyable, serialisable records of everything that changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.constants import (
    DOMAIN_CARD_LIMIT,
    ENDINGS,
    SHARDS,
    WITHERED,
    Domain,
    domain_text,
    domains_to_mapping,
    parse_domain,
)


def _domains_list(domains: dict[Domain, int]) -> list[str]:
    """Stored domains as sorted 'colour type' texts (a list, so expectations compare exactly)."""
    mapping = domains_to_mapping(d for d, n in domains.items() for _ in range(n))
    return [f"{colour} {kind}" for colour, kinds in mapping.items() for kind in kinds]


@dataclass(slots=True)
class Wanderer:
    """One wanderer's dashboard, sheet and hand."""

    id: str
    sentience: dict[str, int]
    max_health: int
    max_mc: int
    mc: int
    wounds: int = 0
    existence: int = 0
    shard: int | None = None
    alive: bool = True
    domains: dict[Domain, int] = field(default_factory=dict)
    domain_cards: list[str] = field(default_factory=list)
    charges: dict[str, int] = field(default_factory=dict)
    domain_card_limit: int = DOMAIN_CARD_LIMIT
    codas: list[str] = field(default_factory=list)
    exhausted: list[str] = field(default_factory=list)
    conditions: dict[str, int] = field(default_factory=dict)
    existence_deck: list[str] = field(default_factory=list)
    existence_cards: list[str] = field(default_factory=list)
    malformations: list[str] = field(default_factory=list)
    trapped: dict[str, int] | None = None  # {"shard": n, "entry": e}
    used: set[str] = field(default_factory=set)  # per-round limits: domain, search, trade
    support_last: bool = False  # the last action was a support card

    def clone(self) -> Wanderer:
        return Wanderer(
            self.id, dict(self.sentience), self.max_health, self.max_mc, self.mc, self.wounds,
            self.existence, self.shard, self.alive, dict(self.domains), list(self.domain_cards),
            dict(self.charges), self.domain_card_limit, list(self.codas), list(self.exhausted),
            dict(self.conditions), list(self.existence_deck), list(self.existence_cards),
            list(self.malformations), dict(self.trapped) if self.trapped else None,
            set(self.used), self.support_last,
        )

    def dice(self, colour: str) -> int:
        """Dice rolled for a colour: the recorded value, negative values counting as zero."""
        return max(0, self.sentience.get(colour, 0))

    def stored(self, domain: Domain) -> int:
        return self.domains.get(domain, 0)

    def store(self, domain: Domain, n: int = 1) -> None:
        self.domains[domain] = self.domains.get(domain, 0) + n

    def spend(self, domain: Domain, n: int = 1) -> None:
        left = self.domains.get(domain, 0) - n
        if left < 0:
            raise ValueError(f"{self.id} has no {domain_text(domain)} to spend")
        if left:
            self.domains[domain] = left
        else:
            del self.domains[domain]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sentience": dict(self.sentience),
            "max_health": self.max_health,
            "wounds": self.wounds,
            "health": max(0, self.max_health - self.wounds),
            "max_mental_capacity": self.max_mc,
            "mental_capacity": self.mc,
            "existence": self.existence,
            "shard": self.shard,
            "alive": self.alive,
            "domains": _domains_list(self.domains),
            "domain_cards": list(self.domain_cards),
            "charges": dict(self.charges),
            "domain_card_limit": self.domain_card_limit,
            "codas": list(self.codas),
            "exhausted_codas": list(self.exhausted),
            "conditions": dict(self.conditions),
            "withered": self.conditions.get(WITHERED, 0),
            "existence_deck": list(self.existence_deck),
            "existence_cards": list(self.existence_cards),
            "malformations": list(self.malformations),
            "trapped": dict(self.trapped) if self.trapped else None,
            "used": sorted(self.used),
            "support_last": self.support_last,
        }

    @classmethod
    def from_dict(cls, wid: str, d: dict[str, Any]) -> Wanderer:
        domains: dict[Domain, int] = {}
        raw = d.get("domains", {})
        listed = (parse_domain(t) for t in raw) if isinstance(raw, list) else (
            (c, k) for c, kinds in raw.items() for k in kinds)
        for domain in listed:
            domains[domain] = domains.get(domain, 0) + 1
        return cls(
            wid, dict(d["sentience"]), d["max_health"], d["max_mental_capacity"],
            d["mental_capacity"], d.get("wounds", 0), d.get("existence", 0), d.get("shard"),
            d.get("alive", True), domains, list(d.get("domain_cards", [])),
            dict(d.get("charges", {})), d.get("domain_card_limit", DOMAIN_CARD_LIMIT),
            list(d.get("codas", [])), list(d.get("exhausted_codas", [])),
            dict(d.get("conditions", {})), list(d.get("existence_deck", [])),
            list(d.get("existence_cards", [])), list(d.get("malformations", [])),
            dict(d["trapped"]) if d.get("trapped") else None, set(d.get("used", [])),
            bool(d.get("support_last", False)),
        )


@dataclass(slots=True)
class Monster:
    """A monster on the board: terror, malformation, abomination or final boss."""

    id: str  # the card id; each card has one figure
    kind: str
    shard: int
    max_health: int
    max_mc: int
    mc: int
    wounds: int = 0
    rifts: list[Domain] = field(default_factory=list)

    def clone(self) -> Monster:
        return Monster(self.id, self.kind, self.shard, self.max_health, self.max_mc, self.mc,
                       self.wounds, list(self.rifts))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "shard": self.shard,
            "max_health": self.max_health,
            "wounds": self.wounds,
            "health": max(0, self.max_health - self.wounds),
            "max_mental_capacity": self.max_mc,
            "mental_capacity": self.mc,
            "rifts": [domain_text(r) for r in self.rifts],
        }

    @classmethod
    def from_dict(cls, mid: str, d: dict[str, Any]) -> Monster:
        return cls(mid, d["kind"], d["shard"], d["max_health"], d["max_mental_capacity"],
                   d["mental_capacity"], d.get("wounds", 0),
                   [parse_domain(r) for r in d.get("rifts", [])])


@dataclass(slots=True)
class Shard:
    """What lies on one world shard: tokens by kind and encounter cards."""

    tokens: dict[str, int] = field(default_factory=dict)
    cards: list[str] = field(default_factory=list)

    def clone(self) -> Shard:
        return Shard(dict(self.tokens), list(self.cards))

    def has(self, token: str) -> bool:
        return self.tokens.get(token, 0) > 0


@dataclass(slots=True)
class GameState:
    """Everything that changes during a game. Card texts live in the Catalog, not here."""

    central: str
    wanderers: dict[str, Wanderer] = field(default_factory=dict)
    monsters: dict[str, Monster] = field(default_factory=dict)
    shards: dict[int, Shard] = field(default_factory=lambda: {n: Shard() for n in SHARDS})
    round: int = 1
    phase: str = "action"  # setup | event | action | refresh | ended
    stage: str = "wanderer"  # wanderer | finale (part 2)
    outcome: str = "ongoing"  # ongoing | won | failed
    reason: str | None = None
    scores: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENDINGS, 0))
    score_goal: int = 40
    abomination: str | None = None
    abomination_killed: bool = False
    confrontation: dict[str, Any] = field(
        default_factory=lambda: {"deck": [], "active": None, "discard": []})
    decks: dict[str, list[Any]] = field(default_factory=dict)  # top first
    condition_decks: dict[str, int] = field(default_factory=dict)
    support: dict[str, bool] = field(default_factory=dict)  # card id -> face up
    killed: list[str] = field(default_factory=list)
    visited: list[int] = field(default_factory=list)
    unlocked: list[str] = field(default_factory=list)
    spawned_cards: list[str] = field(default_factory=list)
    devour_rule: bool = False
    rng: int = 0

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
            {k: list(v) for k, v in self.decks.items()}, dict(self.condition_decks),
            dict(self.support), list(self.killed), list(self.visited), list(self.unlocked),
            list(self.spawned_cards), self.devour_rule, self.rng,
        )

    def living(self) -> list[Wanderer]:
        """Wanderers in play: the dead are out of the game until they respawn."""
        return [w for w in self.wanderers.values() if w.alive]

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON data (also the view fixtures' expectations read)."""
        from dmtool.engine.turns import active_characters

        return {
            "central": self.central,
            "round": self.round,
            "phase": self.phase,
            "stage": self.stage,
            "outcome": self.outcome,
            "reason": self.reason,
            "scores": dict(self.scores),
            "score_total": sum(self.scores.values()),
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
            "condition_decks": dict(self.condition_decks),
            "support_cards": dict(self.support),
            "killed": list(self.killed),
            "visited": list(self.visited),
            "unlocked": list(self.unlocked),
            "spawned_cards": list(self.spawned_cards),
            "devour_rule": self.devour_rule,
            "rng": self.rng,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        abom = d.get("abomination", {})
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
            dict(d.get("condition_decks", {})), dict(d.get("support_cards", {})),
            list(d.get("killed", [])), list(d.get("visited", [])), list(d.get("unlocked", [])),
            list(d.get("spawned_cards", [])), bool(d.get("devour_rule", False)),
            int(d.get("rng", 0)),
        )
        for n in SHARDS:
            state.shards.setdefault(n, Shard())
        for ending in ENDINGS:
            state.scores.setdefault(ending, 0)
        return state


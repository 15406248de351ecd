"""Records of the game's pieces: a wanderer's dashboard and hand, a monster, a world shard."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.dawn_of_madness.constants import (
    DOMAIN_CARD_LIMIT,
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
    condition_cards: list[str] = field(default_factory=list)  # ids of the condition cards held

    def clone(self) -> Wanderer:
        return Wanderer(
            self.id, dict(self.sentience), self.max_health, self.max_mc, self.mc, self.wounds,
            self.existence, self.shard, self.alive, dict(self.domains), list(self.domain_cards),
            dict(self.charges), self.domain_card_limit, list(self.codas), list(self.exhausted),
            dict(self.conditions), list(self.existence_deck), list(self.existence_cards),
            list(self.malformations), dict(self.trapped) if self.trapped else None,
            set(self.used), self.support_last, list(self.condition_cards),
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
            "condition_cards": list(self.condition_cards),
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
            bool(d.get("support_last", False)), list(d.get("condition_cards", [])),
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

    # Written out (the same fields and defaults): a native __init__ (see context.Ctx).
    def __init__(self, tokens: dict[str, int] | None = None,
                 cards: list[str] | None = None) -> None:
        self.tokens = {} if tokens is None else tokens
        self.cards = [] if cards is None else cards

    def clone(self) -> Shard:
        return Shard(dict(self.tokens), list(self.cards))

    def has(self, token: str) -> bool:
        return self.tokens.get(token, 0) > 0

"""Records of a chapter's pieces: a token or marker (on a space, held, or in the supply), an
investigator, and a monster figure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FILTH_CARDS, FILTH_TOKENS = "filth-cards", "filth-tokens"
INFECTION_CARDS, INFECTION_TOKENS = "infection-cards", "infection-tokens"


@dataclass(slots=True)
class Piece:
    """One token or marker: its component id, and its colour and face when it has them."""

    component: str
    colour: str | None = None
    state: str | None = None  # face_up | face_down | dagons_domain | flooded | None

    def clone(self) -> Piece:
        return Piece(self.component, self.colour, self.state)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"component": self.component}
        if self.colour is not None:
            out["colour"] = self.colour
        if self.state is not None:
            out["state"] = self.state
        return out

    @classmethod
    def from_data(cls, data: Any) -> Piece:
        if isinstance(data, str):
            return cls(data)
        return cls(data["component"], data.get("colour"), data.get("state"))


@dataclass(slots=True)
class InfectionCard:
    """An investigator's infection card: face down with filth cards on it, or revealed.
    `tokens` is what its revealed side gives (the card faces are not transcribed, so a
    fixture says)."""

    id: str = "infection"
    face_up: bool = False
    filth_cards: list[str] = field(default_factory=list)
    tokens: int = 0

    def clone(self) -> InfectionCard:
        return InfectionCard(self.id, self.face_up, list(self.filth_cards), self.tokens)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "face_up": self.face_up, "filth_cards": list(self.filth_cards),
                "tokens": self.tokens}


@dataclass(slots=True)
class Investigator:
    """An investigator: where its figure stands, what it holds, its wounds, its infection
    card, and its domain cards and tokens."""

    id: str
    space: str | None
    colour: str | None = None
    start: str | None = None
    held: list[Piece] = field(default_factory=list)
    filth_tokens: int = 0
    infection_tokens: int = 0
    infection_card: InfectionCard | None = None
    wounds: int = 0
    max_health: int | None = None
    alive: bool = True
    domain_cards: list[str] = field(default_factory=list)
    domain_tokens: dict[str, int] = field(default_factory=dict)
    rest_draw_round: int | None = None  # the round of the last domain card drawn by resting
    placed_token: bool = False  # a domain token placed during this activation
    character: str | None = None  # the printed investigator (e.g. meredith-waite)
    search_cards: list[str] = field(default_factory=list)
    actions_taken: int = 0  # actions taken this round (a rule may spare the first one)
    madness: int = 0  # madness taken (the base game's sanity track is not modelled)
    oxygen_exhausted: int = 0  # oxygen exhausted (the base game's oxygen track is not modelled)

    @property
    def infected(self) -> bool:
        return self.infection_tokens > 0

    def holds(self, component: str) -> list[Piece]:
        return [p for p in self.held if p.component == component]

    def clone(self) -> Investigator:
        return Investigator(
            self.id, self.space, self.colour, self.start, [p.clone() for p in self.held],
            self.filth_tokens, self.infection_tokens,
            self.infection_card.clone() if self.infection_card else None, self.wounds,
            self.max_health, self.alive, list(self.domain_cards), dict(self.domain_tokens),
            self.rest_draw_round, self.placed_token, self.character, list(self.search_cards),
            self.actions_taken, self.madness, self.oxygen_exhausted)

    def to_dict(self) -> dict[str, Any]:
        return {
            "space": self.space, "colour": self.colour, "start": self.start,
            "held": [p.to_dict() for p in self.held],
            "filth_tokens": self.filth_tokens, "infection_tokens": self.infection_tokens,
            "infected": self.infected,
            "infection_card": self.infection_card.to_dict() if self.infection_card else None,
            "wounds": self.wounds, "max_health": self.max_health, "alive": self.alive,
            "domain_cards": list(self.domain_cards), "domain_tokens": dict(self.domain_tokens),
            "rest_draw_round": self.rest_draw_round, "placed_token": self.placed_token,
            "character": self.character, "search_cards": list(self.search_cards),
            "actions_taken": self.actions_taken, "madness": self.madness,
            "oxygen_exhausted": self.oxygen_exhausted,
        }

    @classmethod
    def from_data(cls, iid: str, d: dict[str, Any]) -> Investigator:
        card = d.get("infection_card")
        return cls(
            iid, d.get("space"), d.get("colour"), d.get("start"),
            [Piece.from_data(p) for p in d.get("held", [])], int(d.get("filth_tokens", 0)),
            int(d.get("infection_tokens", 0)),
            InfectionCard(str(card.get("id", "infection")), bool(card.get("face_up", False)),
                          list(card.get("filth_cards", [])), int(card.get("tokens", 0)))
            if isinstance(card, dict) else None,
            int(d.get("wounds", 0)), d.get("max_health"), bool(d.get("alive", True)),
            list(d.get("domain_cards", [])), dict(d.get("domain_tokens", {})),
            d.get("rest_draw_round"), bool(d.get("placed_token", False)), d.get("character"),
            list(d.get("search_cards", [])), int(d.get("actions_taken", 0)),
            int(d.get("madness", 0)), int(d.get("oxygen_exhausted", 0)))


@dataclass(slots=True)
class Figure:
    """A monster figure on the board (or a figure-like piece such as a Hydra's Domain)."""

    id: str
    monster: str
    space: str
    colour: str | None = None
    wounds: int = 0

    def clone(self) -> Figure:
        return Figure(self.id, self.monster, self.space, self.colour, self.wounds)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"monster": self.monster, "space": self.space,
                               "wounds": self.wounds}
        if self.colour is not None:
            out["colour"] = self.colour
        return out

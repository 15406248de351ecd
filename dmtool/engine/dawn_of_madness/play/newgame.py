"""A new game's state before setup: the central wanderer from content, stand-in wanderers
for the other seats, decks, and what the campaign hands on."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from dmtool.engine.core import rng
from dmtool.engine.dawn_of_madness.board import Board
from dmtool.engine.dawn_of_madness.campaign import CampaignState, into_game
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.condition_cards import default_piles
from dmtool.engine.dawn_of_madness.constants import SHARDS
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.records import Wanderer
from dmtool.engine.dawn_of_madness.state import GameState

STAND_IN = "stand-in"  # ids of stand-in wanderers: stand-in-2, stand-in-3, stand-in-4
DEFAULT_ABOMINATION = "the-accretion"


@dataclass(frozen=True)
class NewGame:
    """What a game is set up from (everything a replay needs besides the actions)."""

    wanderer: str
    seed: int
    players: int = 1
    variant: str = "standard"
    devour: bool = False
    abomination: str | None = None

    @property
    def seats(self) -> int:
        return 2 if self.players == 1 else self.players


def layout_for(seed: int) -> list[int]:
    """World shard cards shuffled onto the sixteen spaces (from the seed, so it replays)."""
    _, cards = rng.shuffled(rng.next_u64(seed ^ 0x5EED)[1], list(SHARDS))
    return cards


def board_catalog(base: Catalog, layout: list[int]) -> Catalog:
    """The shared catalogue with this game's board (the shards' places differ per game).

    A shallow copy with the board swapped, as `dataclasses.replace` would make, without
    its per-field walk and __post_init__ (already done for `base`): a balance run makes
    one per game. Every other field, `derived` included, is the base's very object."""
    catalog = copy.copy(base)
    catalog.board = Board.grid(layout)
    return catalog


def central_wanderer(catalog: Catalog, wid: str) -> Wanderer:
    doc = catalog.wanderers[wid]
    dash = doc["dashboard"]
    start = dash.get("starting_existence_card")
    basic = doc.get("existence_cards", {}).get("basic", [])
    return Wanderer(
        wid, dict(dash["sentience"]), dash["max_health"], dash["max_mental_capacity"],
        dash["max_mental_capacity"], domain_cards=list(dash.get("starting_domain_cards", [])),
        existence_deck=[c for c in basic if c != start],
        existence_cards=[start] if start else [],
        malformations=list(doc.get("malformations", [])))


def stand_in(catalog: Catalog, wid: str, seat: int) -> Wanderer:
    """A generic wanderer for another seat: the central wanderer's dashboard numbers and
    nothing else (no cards, no malformations: only one wanderer is fully authored)."""
    dash = catalog.wanderers[wid]["dashboard"]
    return Wanderer(f"{STAND_IN}-{seat}", dict(dash["sentience"]), dash["max_health"],
                    dash["max_mental_capacity"], dash["max_mental_capacity"])


def new_state(catalog: Catalog, game: NewGame, campaign: CampaignState | None) -> GameState:
    if game.wanderer not in catalog.wanderers:
        raise EngineFault(f"no wanderer '{game.wanderer}' in the content")
    abomination = game.abomination or (
        DEFAULT_ABOMINATION if DEFAULT_ABOMINATION in catalog.monsters else next(
            (m for m, d in catalog.monsters.items() if d.get("kind") == "abomination"), None))
    if abomination is None or catalog.monsters.get(abomination, {}).get("kind") != \
            "abomination":
        raise EngineFault(f"no abomination '{abomination}' in the content")
    wanderers = {game.wanderer: central_wanderer(catalog, game.wanderer)}
    for seat in range(2, game.seats + 1):
        w = stand_in(catalog, game.wanderer, seat)
        wanderers[w.id] = w
    state = GameState(game.wanderer, wanderers, round=1, phase="setup",
                      devour_rule=game.devour, rng=game.seed)
    state.abomination = abomination
    state.decks = {"domain": _domain_deck(catalog), "terror": _terrors(catalog)}
    state.condition_decks = default_piles(sorts=True)
    if campaign is not None:
        into_game(campaign, state)
    return state


def _domain_deck(catalog: Catalog) -> list[str]:
    """Every domain card not sealed in an envelope (start_game adds unlocked ones and takes
    the starting cards out)."""
    return [cid for cid, card in catalog.domain_cards.items() if not card.get("locked")]


def _terrors(catalog: Catalog) -> list[str]:
    return [mid for mid, card in catalog.monsters.items() if card.get("kind") == "terror"]

"""Rules part 2 pieces on their own: the ending's choice, devour decks, condition decks,
legacy card ids, and the state's round trip with the campaign fields filled in."""

from __future__ import annotations

import json

import pytest

from dmtool.engine.dawn_of_madness import DefaultPolicy, GameState, ScriptedDice, SeededDice
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.condition_cards import default_pile, next_card
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.devour import build_deck, otherworld_cards, reveal
from dmtool.engine.dawn_of_madness.finale import choose_ending
from tests.engine_helpers import small_game


@pytest.mark.parametrize("scores, ending", [
    ({"A": 1, "B": 5, "C": 5, "D": 5}, "B"),
    ({"A": 0, "B": 0, "C": 0, "D": 0}, "A"),
    ({"A": 9, "B": 3, "C": 2, "D": 10}, "D"),
    ({"A": 7, "C": 7}, "A"),
])
def test_the_highest_ending_wins_and_ties_go_in_order(scores: dict[str, int],
                                                       ending: str) -> None:
    assert choose_ending(scores) == ending


def test_traumatized_sorts_and_alike_cards() -> None:
    pile = default_pile("traumatized", sorts=True)
    assert len(pile) == 15 and sorted(set(pile)) == [f"traumatized-{n}" for n in range(1, 6)]
    assert all(pile.count(c) == 3 for c in set(pile))
    assert default_pile("withered") == ["withered"] * 12


def test_a_shuffle_of_alike_cards_needs_no_script() -> None:
    state, _ = small_game()
    assert ScriptedDice().shuffle(state, "burdened", ["burdened"] * 6) == ["burdened"] * 6


def _ctx(state: GameState, catalog: Catalog) -> Ctx:
    return Ctx(state, catalog, SeededDice(), DefaultPolicy())


def test_devour_deck_takes_twelve_otherworld_cards_and_reshuffles() -> None:
    state, catalog = small_game(devour_rule=True)
    catalog.monsters["the-maw"]["devour_cards"] = [{"icons": ["red"]}] * 12
    catalog.devour_cards = {"ash": {"icons": ["blue"], "copies": 20},
                            "hush": {"icons": ["green"]}}
    assert len(otherworld_cards(catalog)) == 21 and "ash#20" in otherworld_cards(catalog)
    ctx = _ctx(state, catalog)
    state.rng = 5
    build_deck(ctx)
    deck = state.decks["devour"]
    assert len(deck) == 24 and len(set(deck)) == 24
    assert sum(c.startswith("the-maw/devour-") for c in deck) == 12
    for _ in range(24):
        assert reveal(ctx) is not None
    assert state.decks["devour"] == [] and len(state.decks["devour_discard"]) == 24
    assert reveal(ctx) is not None  # the discards became a new deck
    assert len(state.decks["devour"]) == 23 and len(state.decks["devour_discard"]) == 1


def test_legacy_card_ids_and_families() -> None:
    _, catalog = small_game()
    catalog.monsters["the-maw"]["legacy_cards"] = [{"type": "passive"}, {"type": "consumable"}]
    assert list(catalog.legacy_cards("the-maw")) == ["the-maw/legacy-1", "the-maw/legacy-2"]
    assert catalog.legacy_card("the-maw/legacy-2") == {"type": "consumable"}
    assert catalog.legacy_card("the-maw/legacy-3") is None
    catalog.families = {"maws": {"abominations": ["the-maw"]}}
    assert catalog.family_of("the-maw") == "maws"


def test_round_trip_keeps_the_part_two_fields() -> None:
    state, _ = small_game()
    state.stage, state.ending, state.wanderer_outcome, state.wrapped_up = (
        "finale", "C", "won", True)
    state.conclusion = {"entry": 410, "legacy": "her-hand"}
    state.legacy = {"mara": ["the-maw/legacy-2"], "absent": ["the-pale/legacy-1"]}
    state.legacy_used = {"mara": ["the-maw/legacy-2"]}
    state.finale_legacy = {"ilse": "her-hand"}
    state.lineage = {"maws": ["the-maw"]}
    state.condition_decks = {"traumatized": ["traumatized-4", "traumatized-1"],
                             "burdened": ["burdened"] * 3}
    state.wanderers["mara"].condition_cards = ["traumatized-2"]
    data = json.loads(json.dumps(state.to_dict()))
    again = GameState.from_dict(data)
    assert again.to_dict() == data
    assert next_card(again, "traumatized") == "traumatized-4"
    assert data["campaign"]["wanderers"]["ilse"] == {"legacy_cards": [],
                                                     "finale_legacy": "her-hand"}
    assert data["condition_decks"] == {"traumatized": 2, "burdened": 3}

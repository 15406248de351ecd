"""Every effect and condition of the content vocabulary has a handler, and each one runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dmtool.engine.dawn_of_madness import DefaultPolicy, SeededDice, apply
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.story import holds
from tests.engine_helpers import small_game

DEFS = json.loads((Path(__file__).parents[1] / "schemas" / "defs.schema.json").read_text())
EFFECT_NAMES = DEFS["$defs"]["effect"]["propertyNames"]["enum"]
CONDITION_NAMES = DEFS["$defs"]["condition"]["propertyNames"]["enum"]

# One valid value per effect, run for mara (or, for monster effects, by the shade).
EXAMPLES: dict[str, Any] = {
    "all_wanderers": [{"gain_existence": 1}],
    "central_wanderer": [{"score": {"B": 1}}],
    "choice": [{"label": "one", "effects": [{"score": {"A": 1}}]},
               {"label": "two", "effects": []}],
    "conclude": "bright-ending",
    "damage_monster": {"monster": "abomination", "amount": 2},
    "discard_condition": {"type": "weakened"},
    "discard_domain_card": {"count": 1},
    "end": "encounter",
    "fail_stage": "the lantern went out",
    "gain_coda": "old-song",
    "gain_condition": {"type": "weakened", "count": 2},
    "gain_domain": {"green": ["eye", "eye"]},
    "gain_domain_card": {"count": 1},
    "gain_existence": 2,
    "goto": 1,
    "if": {"when": {"has_coda": "red-door"}, "then": [{"score": {"C": 2}}]},
    "lose_coda": "red-door",
    "lose_domain": {"red": ["hand"]},
    "lose_existence": 1,
    "lose_health": 1,
    "lose_mental_capacity": 2,
    "may": [{"score": {"D": 1}}],
    "modify_max": {"health": 1, "mental_capacity": 1, "domain_cards": 1},
    "modify_sentience": {"red": -3},
    "monster_attack": {"colour": "red", "amount": 1, "range": 1, "targets": "all_in_range"},
    "monster_drain": {"amount": 1, "range": 1},
    "monster_heal": 1,
    "monster_move": {"spaces": 1, "toward": "central_wanderer"},
    "move_wanderer": 3,
    "place_token": {"token": "void"},
    "release_trap": True,
    "remove_token": {"token": "void", "shard": 6},
    "resolve_confrontation_card": True,
    "resolve_devour_card": True,
    "restore_health": 1,
    "restore_mental_capacity": 1,
    "score": {"A": 3},
    "spawn_encounter": {"card": "the-door", "shard": "current"},
    "spawn_final_boss": {"boss": "last-light", "shard": 2},
    "spawn_malformation": {"number": 2},
    "spawn_terror": {"terror": "random", "shard": 12},
    "take_damage": {"colour": "green", "amount": 1},
    "test": {"roll": {"red": ["hand"]}, "pass": [{"score": {"A": 1}}], "fail": []},
    "trap": True,
    "unlock": ["secret-room"],
}
MONSTER_EFFECTS = {"monster_attack": "gnawing-shade", "monster_drain": "gnawing-shade",
                   "monster_heal": "gnawing-shade", "monster_move": "gnawing-shade",
                   "resolve_confrontation_card": "the-maw"}


def test_every_effect_of_the_vocabulary_has_a_handler() -> None:
    assert sorted(RULES.effects) == sorted(EFFECT_NAMES)


def test_every_condition_of_the_vocabulary_has_an_evaluator() -> None:
    assert sorted(RULES.conditions) == sorted(CONDITION_NAMES)


def test_every_effect_has_an_example_here() -> None:
    assert sorted(EXAMPLES) == sorted(EFFECT_NAMES)


@pytest.mark.parametrize("name", EFFECT_NAMES)
def test_effect_runs(name: str) -> None:
    state, catalog = small_game()
    mara = state.wanderers["mara"]
    # Give every effect something to act on.
    mara.wounds, mara.mc, mara.conditions = 1, 5, {"weakened": 1}
    mara.trapped = {"shard": 6, "entry": 2}
    state.monsters["gnawing-shade"].wounds = 1
    state.shards[6].tokens["void"] = 1
    before = state.to_dict()
    effect = {name: EXAMPLES[name]}
    if name in MONSTER_EFFECTS:
        ctx = Ctx(state.clone(), catalog, SeededDice(), DefaultPolicy())
        from dmtool.engine.dawn_of_madness.story import run_effects

        with ctx.acting(monster=MONSTER_EFFECTS[name]):
            run_effects(ctx, [effect])
        events = ctx.events
    else:
        outcome = apply(state, catalog, {"effect": effect, "wanderer": "mara"},
                        dice=SeededDice(), policy=DefaultPolicy())
        assert outcome.ok, outcome
        events = outcome.events
    assert events, f"{name} logged nothing"
    assert state.to_dict() == before, "the input state must never change"


@pytest.mark.parametrize("name", CONDITION_NAMES)
def test_condition_evaluates(name: str) -> None:
    examples: dict[str, Any] = {
        "all": [{"trapped": False}], "any": [{"trapped": True}, {"is_central": True}],
        "not": {"trapped": True}, "existence_at_least": 2, "has_coda": "red-door",
        "has_condition": "weakened", "has_domain": {"red": ["hand"]},
        "has_domain_card": "lantern", "is_central": True, "monster_killed": "the-maw",
        "monster_on_board": "abomination", "round_at_least": 1, "round_at_most": 10,
        "score_at_least": {"A": 0}, "sentience_at_least": {"red": 2},
        "token_on_shard": {"token": "void"}, "trapped": False, "visited": 1,
        "wanderers_at_least": 2, "wounds_at_least": 1,
    }
    expected_false = {"has_condition", "monster_killed", "token_on_shard", "visited",
                      "wounds_at_least"}
    state, catalog = small_game()
    ctx = Ctx(state, catalog, SeededDice(), DefaultPolicy(), who="mara")
    assert holds(ctx, {name: examples[name]}) is (name not in expected_false)


def test_a_coda_card_held_is_not_gained_again() -> None:
    """DoM "Prepare the Encounter Cards and Coda Cards": the central wanderer's coda cards
    are one face-up deck, one card each; a wanderer who obtained one holds that card. So an
    encounter resolved again (no completed token) gives nothing more, and the card's front
    changes sentience once (`dmtool graph --verify` found red sentience falling by one per
    pass when the engine dealt the same coda again)."""
    state, catalog = small_game()
    for wanderer in ("mara", "ilse"):
        outcome = apply(state, catalog, {"effect": {"gain_coda": "red-door"},
                                         "wanderer": wanderer},
                        dice=SeededDice(), policy=DefaultPolicy())
        assert outcome.ok, outcome
        assert [e for e in outcome.events if e["event"] == "coda_gained"] == []
        assert {"event": "not_resolved", "effect": "gain_coda",
                "reason": "mara holds it"} in [
            {k: v for k, v in e.items() if k != "step"} for e in outcome.events]
        assert outcome.state.wanderers["mara"].codas == ["red-door"]
        assert outcome.state.wanderers["ilse"].codas == []

"""Shared helpers for engine tests: a small game built from a fixture-style setup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dmtool.engine.dawn_of_madness import Catalog, GameState
from dmtool.model.content_index import ContentIndex
from dmtool.scenarios.build import build

WANDERER = {"sentience": {"red": 2, "blue": 1, "green": 2, "yellow": 1, "purple": 1},
            "max_health": 6, "max_mental_capacity": 7}


def small_game(**extra: Any) -> tuple[GameState, Catalog]:
    """Two wanderers, a terror, an abomination, a storybook and a few cards."""
    setup: dict[str, Any] = {
        "wanderers": {
            "mara": {**WANDERER, "shard": 6, "existence": 2, "domains": {"red": ["hand"]},
                     "domain_cards": ["lantern"], "codas": ["red-door"],
                     "malformations": ["mara-hollow", "mara-rot", "mara-maw"]},
            "ilse": {**WANDERER, "mental_capacity": 3, "shard": 6},
        },
        "monsters": {"gnawing-shade": {"shard": 7, "mental_capacity": 2,
                                       "rifts": ["red hand", "blue brain", "green eye"]}},
        "abomination": {"id": "the-maw", "shard": 10, "mental_capacity": 1, "active": 1,
                        "deck": [2]},
        "decks": {"terror": ["pale-watcher"], "domain": ["mirror", "key"]},
        "storybook": {"entries": [{"entry": 1, "effects": [{"score": {"A": 1}}]},
                                  {"entry": 2, "effects": [{"end": "encounter"}]}]},
        "cards": {
            "terrors": {
                "gnawing-shade": {"max_health": 4, "max_mental_capacity": 6, "actions": [
                    {"cost": 2, "effects": [{"monster_move": {"spaces": 1}},
                                            {"monster_attack": {"colour": "red", "amount": 1}}]}]},
                "pale-watcher": {"max_health": 3, "max_mental_capacity": 5},
            },
            "malformations": {m: {"wanderer": "mara", "number": i + 1, "max_health": 5,
                                  "max_mental_capacity": 5}
                              for i, m in enumerate(["mara-hollow", "mara-rot", "mara-maw"])},
            "final_bosses": {"last-light": {"max_health": 9, "max_mental_capacity": 6}},
            "abominations": {"the-maw": {
                "max_health": 10, "max_mental_capacity": 6,
                "actions": [{"cost": 1, "effects": [{"resolve_confrontation_card": True}]}],
                "confrontation_cards": [
                    {"required": {"red": ["hand"]}, "damage": 2,
                     "special_action": {"effects": [{"monster_drain": {"amount": 1,
                                                                       "range": 3}}]}},
                    {"required": {"blue": ["brain"]}, "damage": 2}]}},
            "codas": {"red-door": {"effects": [{"modify_sentience": {"red": 1}}],
                                   "back": ["blue"]},
                      "old-song": {"effects": [], "back": ["green"]}},
            "domain_cards": {c: {"domains": ["red hand", "blue eye", "green skull"]}
                             for c in ("lantern", "mirror", "key")},
            "encounter_cards": {"the-door": {"entry": 2}},
        },
    }
    setup.update(extra)
    return build(setup, content=ContentIndex(Path("/nonexistent")))

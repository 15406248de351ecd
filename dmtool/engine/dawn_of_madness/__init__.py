"""Dawn of Madness rules on the shared core: state, dice, transitions and the whole-game
player. Importing the package registers every rule (through `engine`)."""

from __future__ import annotations

from dmtool.engine.core.policy import (
    DefaultPolicy,
    InteractivePolicy,
    Question,
    RandomPolicy,
    ScriptedPolicy,
)
from dmtool.engine.dawn_of_madness.actions import Action, parse_action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.dice import ScriptedDice, ScriptError, SeededDice
from dmtool.engine.dawn_of_madness.engine import (
    Applied,
    Rejected,
    apply,
    is_legal,
    legal_actions,
)
from dmtool.engine.dawn_of_madness.errors import REJECTIONS, EngineFault, Reject
from dmtool.engine.dawn_of_madness.game import Game
from dmtool.engine.dawn_of_madness.registry import GAME, RULES
from dmtool.engine.dawn_of_madness.state import GameState, Monster, Wanderer

__all__ = [
    "GAME", "REJECTIONS", "RULES", "Action", "Applied", "Catalog", "DefaultPolicy", "EngineFault", "Game",
    "GameState",
    "InteractivePolicy", "Monster", "Question", "RandomPolicy", "Reject", "Rejected",
    "ScriptError", "ScriptedDice", "ScriptedPolicy", "SeededDice", "Wanderer", "apply",
    "is_legal", "legal_actions", "parse_action",
]

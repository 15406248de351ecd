"""The reference rules engine: state, dice, policies, and transitions over them."""

from __future__ import annotations

from dmtool.engine.actions import Action, parse_action
from dmtool.engine.catalog import Catalog
from dmtool.engine.dice import ScriptedDice, ScriptError, SeededDice
from dmtool.engine.engine import Applied, Rejected, apply, is_legal, legal_actions
from dmtool.engine.errors import REJECTIONS, EngineFault, Reject
from dmtool.engine.game import Game
from dmtool.engine.policy import (
    DefaultPolicy,
    InteractivePolicy,
    Question,
    RandomPolicy,
    ScriptedPolicy,
)
from dmtool.engine.state import GameState, Monster, Wanderer

__all__ = [
    "REJECTIONS", "Action", "Applied", "Catalog", "DefaultPolicy", "EngineFault", "Game",
    "GameState",
    "InteractivePolicy", "Monster", "Question", "RandomPolicy", "Reject", "Rejected",
    "ScriptError", "ScriptedDice", "ScriptedPolicy", "SeededDice", "Wanderer", "apply",
    "is_legal", "legal_actions", "parse_action",
]

"""A running game: the current state plus an append-only event log (for loops and tools)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.core.policy import Policy
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Event
from dmtool.engine.dawn_of_madness.dice import DiceSource
from dmtool.engine.dawn_of_madness.engine import Applied, Rejected, apply
from dmtool.engine.dawn_of_madness.state import GameState


@dataclass
class Game:
    """Applies actions one after another; each accepted action's events join the log, tagged
    with the action's index. Rejections are logged too and leave the state as it was."""

    state: GameState
    catalog: Catalog
    dice: DiceSource
    policy: Policy
    log: list[Event] = field(default_factory=list)
    actions: int = 0

    def step(self, action: Action | dict[str, Any]) -> Applied | Rejected:
        self.actions += 1
        outcome = apply(self.state, self.catalog, action, dice=self.dice, policy=self.policy)
        if isinstance(outcome, Applied):
            self.state = outcome.state
            self.log.extend({"step": self.actions, **e} for e in outcome.events)
        else:
            self.log.append({"step": self.actions, "event": "rejected", "code": outcome.code})
        return outcome

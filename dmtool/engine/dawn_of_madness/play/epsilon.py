"""A skill dial between random play and a policy: 'greedy~0.3' plays greedy, except that at
each decision (a wanderer's action, a question the rules ask) it plays at random with chance
0.3. 'planner~0' is the planner, 'planner~1' the random player; the values between draw a
range a balance report can place every policy on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.core import rng
from dmtool.engine.core.policy import Question
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.players import Chooser, Player
from dmtool.engine.dawn_of_madness.state import GameState

SEPARATOR = "~"
SCALE = 1_000_000  # the coin's resolution: epsilon is kept to six decimals
SALT = 0x5DEECE66D  # the random player's generator starts apart from the base player's
COIN_SALT = 0xD1B54A32D192ED03  # and so does the coin's


def split_policy(name: str) -> tuple[str, float | None]:
    """'greedy~0.3' -> ('greedy', 0.3); 'greedy' -> ('greedy', None). A ValueError for an
    epsilon that is not a number from 0 to 1."""
    base, found, text = name.partition(SEPARATOR)
    if not found:
        return name, None
    try:
        epsilon = float(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a number") from None
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon {text} is not between 0 and 1")
    return base, epsilon


@dataclass
class Epsilon:
    """The base player, or with chance `epsilon` at each decision a random player."""

    base: Player
    epsilon: float
    seed: int
    random: Chooser = field(init=False)

    def __post_init__(self) -> None:
        self.random = Chooser("random", self.seed ^ SALT)
        self.seed ^= COIN_SALT

    def _at_random(self) -> bool:
        self.seed, value = rng.below(self.seed, SCALE)
        return value < round(self.epsilon * SCALE)

    def choose(self, state: GameState, catalog: Catalog, candidates: list[Action],
               legal: Callable[[Action], bool]) -> Action:
        if self._at_random():
            return self.random.choose(state, catalog, candidates, legal)
        return self.base.choose(state, catalog, candidates, legal)

    def action(self, actions: list[Action]) -> Action:
        return (self.random if self._at_random() else self.base).action(actions)

    def ask(self, question: Question) -> tuple[str, Any]:
        return (self.random if self._at_random() else self.base).ask(question)

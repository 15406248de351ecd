"""A planning player ('planner'): a one-step lookahead with a small Monte Carlo sample.

For each of the greedy heuristic's best few legal actions it plays the action forward a
few times on a copy of the state, with dice from its own seeded generator (never the
game's: a copy keeps the real dice's state, so the planner reseeds it and cannot peek),
and scores the states it reaches; the best average wins, ties to the heuristic's order.
Questions are answered as the greedy player answers them. It stands for a competent table
beside random and greedy play: slower (about BREADTH x SAMPLES engine steps a decision)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from dmtool.engine.core import rng
from dmtool.engine.core.policy import Question
from dmtool.engine.core.script import ScriptError
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.candidates import Menu
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.dice import SeededDice
from dmtool.engine.dawn_of_madness.engine import Applied, apply
from dmtool.engine.dawn_of_madness.play.greedy import rank, ranked
from dmtool.engine.dawn_of_madness.play.players import Chooser
from dmtool.engine.dawn_of_madness.play.story_choice import StoryLookahead
from dmtool.engine.dawn_of_madness.state import GameState

BREADTH = 4  # the heuristic's best legal actions weighed
SAMPLES = 2  # plays of each, with the planner's own dice
LOST, WON = -1e6, 1e6


def evaluate(state: GameState) -> float:
    """How good a state looks for the wanderers (higher is better)."""
    if state.stage == "wanderer":
        if state.outcome == "failed":
            return LOST
        if state.outcome == "won":
            return WON
    value = 0.0
    if state.stage == "wanderer":
        value += 20 * min(sum(state.scores.values()), state.score_goal)
        abomination = state.monsters.get(state.abomination or "")
        if state.abomination_killed:
            value += 300
        elif abomination is not None:
            value += 40 * abomination.wounds
    for m in state.monsters.values():
        if m.id != state.abomination:
            value -= 15 + 5 * max(0, m.max_health - m.wounds) if m.kind != "final-boss" \
                else 10 * max(0, m.max_health - m.wounds)
    for w in state.wanderers.values():
        value += 60 if w.alive else 0
        value += 8 * max(0, w.max_health - w.wounds) + 2 * w.mc + 3 * w.existence
        value += sum(w.domains.values()) + 4 * len(w.domain_cards) + 3 * len(w.codas)
        value -= 50 * w.conditions.get("withered", 0) + 10 * len(w.condition_cards)
    return value


@dataclass
class Planner:
    """The planning player; `seed` drives both its lookahead dice and its tie-breaks."""

    seed: int
    policy: str = "planner"
    helper: Chooser = field(init=False)
    story: StoryLookahead | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.helper = Chooser("greedy", self.seed)
        # Set here too: mypyc's dataclass leaves an init=False field's default unset.
        self.story = None

    def action(self, actions: list[Action]) -> Action:
        return self.helper.action(actions)

    def ask(self, question: Question) -> tuple[str, object]:
        if question.keys[0] == "choice" and question.options and self.story is not None:
            return "choice", self.story.best(question.options)
        return self.helper.ask(question)

    def _read(self, catalog: Catalog) -> None:
        """The storybook's options, indexed once a game (story choices come mid-action)."""
        if self.story is None or self.story.entries is not catalog.entries:
            self.story = StoryLookahead(catalog.entries)

    def choose(self, state: GameState, catalog: Catalog, candidates: list[Action],
               legal: Callable[[Action], bool]) -> Action:
        self._read(catalog)
        return self._plan(state, catalog, rank(state, catalog, candidates), legal)

    def choose_from(self, state: GameState, catalog: Catalog, menu: Menu,
                    legal: Callable[[Action], bool]) -> Action:
        """As `choose`, building only the actions the ranking reaches."""
        self._read(catalog)
        return self._plan(state, catalog, ranked(state, catalog, menu), legal)

    def _plan(self, state: GameState, catalog: Catalog, ranked: Iterable[Action],
              legal: Callable[[Action], bool]) -> Action:
        options: list[Action] = []
        for action in ranked:
            if legal(action):
                options.append(action)
                if len(options) == BREADTH:
                    break
        if not options:
            raise ScriptError("DM406", "No legal action is left to choose.")
        if len(options) == 1:
            return options[0]
        values = [self._value(state, catalog, a) for a in options]
        best = max(range(len(options)), key=lambda i: (values[i], -i))
        return options[best]

    def _value(self, state: GameState, catalog: Catalog, action: Action) -> float:
        total = 0.0
        for _ in range(SAMPLES):
            self.seed, dice_seed = rng.next_u64(self.seed)
            trial = state.clone()
            trial.rng = dice_seed
            done = apply(trial, catalog, action, dice=SeededDice(),
                         policy=Chooser("greedy", dice_seed), in_place=True)
            total += evaluate(done.state) if isinstance(done, Applied) else LOST
        return total / SAMPLES

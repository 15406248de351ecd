"""Automatic players for whole games: who picks actions and answers the rules' questions.

'random': seeded; an action kind is picked uniformly among the kinds that are legal, then
one action of that kind; questions get a uniform pick among their options (and the
default), and yes-or-no help (spending stored domains, discarding domain cards) is a coin
toss. 'first': the first option everywhere; passing only when nothing else is legal.
'greedy': the candidates come ranked by a simple heuristic (see greedy.py) and the best
legal one is taken; help is always taken; story choices stay random.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from dmtool.engine.core import rng
from dmtool.engine.core.policy import REQUIRED, Question
from dmtool.engine.core.script import ScriptError
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.candidates import Menu, Slot
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.greedy import answer, rank, ranked
from dmtool.engine.dawn_of_madness.state import GameState

CHOOSER_POLICIES: Final = ("random", "first", "greedy")  # the policies a Chooser plays
YES_NO: Final = ("spend_domains", "discard_cards")  # answered True (the engine picks) or the default
T = TypeVar("T")


class Player(Protocol):
    """What the game loop asks of an automatic player (built in or plugged in)."""

    def choose(self, state: GameState, catalog: Catalog, candidates: list[Action],
               legal: Callable[[Action], bool]) -> Action:
        """One of `candidates` for which `legal` is true (test only as many as needed)."""

    def action(self, actions: list[Action]) -> Action:
        """One of `actions`, all legal (which monster acts when several tie)."""

    def ask(self, question: Question) -> tuple[str, Any]:
        """(key, answer) to a question the rules ask while an action resolves."""


# A plug-in policy subclasses it (an interpreted subclass of the compiled engine's class).
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class Chooser:
    """Picks wanderer actions and answers questions; its own generator, never the dice's."""

    policy: str
    seed: int

    def __post_init__(self) -> None:
        if self.policy not in CHOOSER_POLICIES:
            raise ValueError(f"policy must be one of {', '.join(CHOOSER_POLICIES)}")

    def _below(self, n: int) -> int:
        self.seed, value = rng.below(self.seed, n)
        return value

    def choose(self, state: GameState, catalog: Catalog, candidates: list[Action],
               legal: Callable[[Action], bool]) -> Action:
        """A wanderer action among a list (the Player protocol)."""
        if self.policy == "greedy":
            candidates = rank(state, catalog, candidates)
        return self.pick(candidates, legal)

    def choose_from(self, state: GameState, catalog: Catalog, menu: Menu,
                    legal: Callable[[Action], bool]) -> Action:
        """The same pick as `choose` over the menu's listing, building only the actions it
        looks at: 'random' lists one kind at a time, 'greedy' ranks plain tuples."""
        found: Action | None
        if self.policy == "random":

            def tried(candidate: tuple[Slot, Any] | None) -> Action | None:
                if candidate is None:  # certainly illegal (`Menu.draws`): not even built
                    return None
                action = menu.action(*candidate)
                return action if legal(action) else None

            found = self._sample(menu.kinds(), menu.draws, tried)
        elif self.policy == "greedy":
            found = None
            for action in ranked(state, catalog, menu):  # a loop, not a generator: hot path
                if legal(action):
                    found = action
                    break
        else:
            return self.pick(menu.actions(), legal)
        if found is None:
            raise ScriptError("DM406", "No legal action is left to choose.")
        return found

    def action(self, actions: list[Action]) -> Action:
        """A pick among actions that are all legal."""
        if self.policy == "greedy" and actions:  # `pick`: the first legal, all are
            return actions[0]
        if self.policy == "random" and len({a.kind for a in actions}) == 1:
            # `pick`'s draws when every action is of one kind (the monsters tied on the
            # track): that kind, a draw among one, then the action, the first one tried
            # being legal. Asked on every tie, so without grouping or trying.
            self._below(1)
            return actions[self._below(len(actions))]
        return self.pick(actions, lambda _: True)

    def pick(self, candidates: list[Action], legal: Callable[[Action], bool]) -> Action:
        """A pick among candidates, testing legality only as far as needed. For 'random'
        this is rejection sampling: a uniform kind among the kinds with a legal action,
        then a uniform legal action of that kind."""
        if self.policy == "first":
            ordered = [a for a in candidates if a.kind != "pass"] + [
                a for a in candidates if a.kind == "pass"]
            found = next((a for a in ordered if legal(a)), None)
        elif self.policy == "greedy":  # already ranked best first by the caller
            found = next((a for a in candidates if legal(a)), None)
        else:
            groups: dict[str, list[Action]] = {}
            for a in candidates:
                groups.setdefault(a.kind, []).append(a)
            found = self._sample(list(groups), groups.__getitem__,
                                 lambda a: a if legal(a) else None)
        if found is None:
            raise ScriptError("DM406", "No legal action is left to choose.")
        return found

    def _sample(self, kinds: list[str], of_kind: Callable[[str], list[T]],
                tried: Callable[[T], Action | None]) -> Action | None:
        """A uniform kind, then a uniform candidate of it, until one is legal. Each kind is
        listed once (`of_kind` may build it fresh) and emptied before the next is drawn;
        `tried` gives the drawn candidate's action if it is legal (built only when drawn)."""
        while kinds:
            kind = kinds[self._below(len(kinds))]
            same = of_kind(kind)
            while same:
                found = tried(same.pop(self._below(len(same))))
                if found is not None:
                    return found
            kinds.remove(kind)
        return None

    def ask(self, question: Question) -> tuple[str, Any]:
        if self.policy == "first":
            if question.default is not REQUIRED:
                return question.key, question.default
            if not question.options:
                raise ScriptError("DM406", f"'{question.prompt}' has no listed options.")
            return question.key, question.options[0]
        if self.policy == "greedy":
            picked = answer(question)
            if picked is not None:
                return picked
        key, default = question.keys[0], question.default  # `Question.key`, read once
        options: tuple[Any, ...]
        if key in YES_NO and question.valid(key, True):
            options = (True, default)
        else:  # the question's own tuple, copied only when the default joins it
            options = question.options
            if default is not REQUIRED and default not in options:
                options = (*options, default)
        if not options:
            raise ScriptError("DM406", f"'{question.prompt}' has no listed options.")
        return key, options[self._below(len(options))]


@dataclass
class Recorder:
    """A policy that answers through a player and keeps every answer, in order."""

    chooser: Player
    answers: list[list[Any]] = field(default_factory=list)

    def ask(self, question: Question) -> tuple[str, Any]:
        key, answer = self.chooser.ask(question)
        self.answers.append([key, answer])
        return key, answer


@dataclass
class Replayer:
    """Answers from a record, strictly in order (a replay that diverges fails loudly)."""

    answers: list[list[Any]]
    cursor: int = 0

    def ask(self, question: Question) -> tuple[str, Any]:
        if self.cursor >= len(self.answers):
            raise ScriptError("DM406", f"The record has no answer for '{question.prompt}'.")
        key, answer = self.answers[self.cursor]
        self.cursor += 1
        if key not in question.keys:
            raise ScriptError("DM408", f"The record answers '{key}' where the engine asked "
                              f"'{question.key}'.")
        return key, answer

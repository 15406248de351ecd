"""Policies: who answers the questions the rulebook leaves to the players."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, Protocol

from dmtool.engine.core import rng
from dmtool.engine.core.script import ScriptError

REQUIRED: Final[Any] = object()  # marks a question that has no default answer


class Question(NamedTuple):
    """One decision. `keys` are the script keys that answer it (the first is its name).

    `options` lists the legal answers when they can be listed; `accepts` validates answers
    that cannot (for example a list of dice to reroll). `default` is what a script that says
    nothing about this question means; REQUIRED questions must be answered. (A named tuple:
    as immutable as a frozen dataclass, and built several times faster, which counts when
    thousands of games ask dozens of questions each.)
    """

    keys: tuple[str, ...]
    prompt: str
    options: tuple[Any, ...] = ()
    default: Any = REQUIRED
    accepts: Callable[[str, Any], bool] | None = None

    @property
    def key(self) -> str:
        return self.keys[0]

    def valid(self, key: str, answer: Any) -> bool:
        if self.accepts is not None and self.accepts(key, answer):
            return True
        return key == self.keys[0] and answer in self.options  # `key`, without its getter


class Policy(Protocol):
    """Answers questions. Returns (script key used, answer); key is the question's name for
    answers that did not come from a script."""

    def ask(self, question: Question) -> tuple[str, Any]:
        ...


@dataclass
class ScriptedChoice:
    key: str
    value: Any
    where: tuple[Any, ...]
    step: int | None = None
    used: bool = False


@dataclass
class ScriptedPolicy:
    """Answers from the fixture's `choices` in order; unmatched optional questions get their
    default, unmatched required ones fail the fixture (DM406)."""

    entries: list[ScriptedChoice] = field(default_factory=list)

    def add(self, data: dict[str, Any], where: tuple[Any, ...], step: int | None = None) -> None:
        if not isinstance(data, dict) or len(data) != 1:
            raise ScriptError("DM401", "A scripted choice is a mapping with one key naming the "
                              "question, such as '{defend: true}'.", where)
        [(key, value)] = data.items()
        self.entries.append(ScriptedChoice(key, value, where, step))

    def checkpoint(self) -> list[bool]:
        return [e.used for e in self.entries]

    def restore(self, token: list[bool]) -> None:
        for entry, flag in zip(self.entries, token):
            entry.used = flag

    def unused(self, *, step: int | None = None, every: bool = False) -> list[ScriptedChoice]:
        return [e for e in self.entries if not e.used and (every or e.step == step)]

    def ask(self, question: Question) -> tuple[str, Any]:
        upcoming = next((e for e in self.entries if not e.used), None)
        if upcoming is not None and upcoming.key in question.keys:
            if not question.valid(upcoming.key, upcoming.value):
                raise ScriptError("DM408", f"The scripted answer {upcoming.value!r} does not fit "
                                  f"the question '{question.prompt}'{_options(question)}.",
                                  upcoming.where)
            upcoming.used = True
            return upcoming.key, upcoming.value
        if question.default is not REQUIRED:
            return question.key, question.default
        nxt = f"the next scripted choice is '{upcoming.key}'" if upcoming else "no choices are left"
        raise ScriptError("DM406", f"The engine asked '{question.prompt}' ({question.key}) but "
                          f"{nxt}; add '- {question.key}: ...' to the step's choices"
                          f"{_options(question)}.", upcoming.where if upcoming else None)


def _options(question: Question) -> str:
    if not question.options:
        return ""
    shown = ", ".join(repr(o) for o in question.options[:8])
    more = ", ..." if len(question.options) > 8 else ""
    return f" (options: {shown}{more})"


@dataclass
class RandomPolicy:
    """Picks uniformly among the listed options with its own splitmix64 state (never the
    game's dice generator, so answering does not change the rolls)."""

    seed: int = 0

    def ask(self, question: Question) -> tuple[str, Any]:
        options = _with_default(question)
        if not options:
            return question.key, question.default
        self.seed, index = rng.below(self.seed, len(options))
        return question.key, options[index]


def _with_default(question: Question) -> Sequence[Any]:
    options = list(question.options)
    if question.default is not REQUIRED and question.default not in options:
        options.append(question.default)
    return options


@dataclass
class DefaultPolicy:
    """Takes every default and the first option of required questions (quick smoke runs)."""

    def ask(self, question: Question) -> tuple[str, Any]:
        if question.default is not REQUIRED:
            return question.key, question.default
        if question.options:
            return question.key, question.options[0]
        raise ScriptError("DM406", f"The question '{question.prompt}' has no default and no "
                          "listed options.")


@dataclass
class InteractivePolicy:
    """Asks a person through `prompt(question) -> (key, answer)`, supplied by the CLI (this
    layer never reads the terminal itself); invalid answers are asked again."""

    prompt: Callable[[Question], tuple[str, Any]]
    attempts: int = 5

    def ask(self, question: Question) -> tuple[str, Any]:
        for _ in range(self.attempts):
            key, answer = self.prompt(question)
            if question.valid(key, answer) or (answer is None and question.default is None):
                return key, answer
        raise ScriptError("DM408", f"No valid answer to '{question.prompt}' was given.")

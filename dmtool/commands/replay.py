"""Replaying a witness in the engine, for `dmtool graph --verify`.

The witness's script (storygraph.fixtures.witness_script: the setup its conditions need,
its first entry, its tests' outcomes and its picks) is played as the scenario fixture
`--witness-dir` writes would play it, with two differences that let every path run:
- a test's dice show faces that pass or fail it as the path needs, made for the dice the
  engine actually rolls (the setup may have raised a sentience a condition asks for);
- the otherworld die, shuffles and every roll that is not a story test come from the
  engine's seeded generator, as in a game (a fixture's strict script would need them
  written out, and the witness does not say where a spawned card lands).
Questions off the path (help with a roll, a defense) get their default answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dmtool.engine.core.policy import REQUIRED, Question
from dmtool.engine.dawn_of_madness import parse_action
from dmtool.engine.dawn_of_madness.dice import SeededDice
from dmtool.engine.dawn_of_madness.engine import Applied, apply
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.model.content_index import index_for
from dmtool.scenarios.build import build
from dmtool.storygraph.dice import example_roll
from dmtool.storygraph.fixtures import Script, Test

TESTS = ("test", "release test")  # the `why` of a storybook test's roll


class _PathDice:
    """Seeded dice whose story tests come out as the witness's path needs, in order (the
    engine's dice classes are compiled and take no interpreted subclass: this one holds
    the seeded dice and hands them the rest)."""

    def __init__(self, tests: list[Test]) -> None:
        self.tests = list(tests)
        self.seeded = SeededDice()

    def d6(self, state: GameState, who: str, counts: dict[str, int],
           why: str) -> dict[str, list[str]]:
        if why in TESTS and self.tests:
            test = self.tests.pop(0)
            faces = example_roll(test.roll, counts, passing=test.passing)
            if faces is not None:
                return {c: list(faces.get(c, ["eye"] * n))[:n] for c, n in counts.items() if n}
        return self.seeded.d6(state, who, counts, why)

    def d16(self, state: GameState, who: str, why: str) -> int:
        return self.seeded.d16(state, who, why)

    def shuffle(self, state: GameState, deck: str, cards: list[Any]) -> list[Any]:
        return self.seeded.shuffle(state, deck, cards)


class _PathAnswers:
    """Answers the witness's picks in order; anything else gets its default."""

    def __init__(self, script: Script) -> None:
        self.choices = [p.answer for p in script.picks if p.kind == "choice"]
        self.mays = [p.answer for p in script.picks if p.kind == "may"]

    def ask(self, question: Question) -> tuple[str, Any]:
        key = question.keys[0]
        if key == "choice" and self.choices and self.choices[0] in question.options:
            return key, self.choices.pop(0)
        if key == "may" and self.mays:
            return key, self.mays.pop(0)
        if question.default is not REQUIRED:
            return key, question.default
        return key, question.options[0] if question.options else None


def replay(script: Script, content: Path) -> str | None:
    """None when the engine, set up as the script says, reads every entry of the path and
    gives the points it names; else what went otherwise."""
    why = script.replayable
    if why is not None:
        return f"not replayed: {why}"
    made = script.needs.setup()
    wanderer = {**script.setup_wanderer, **made.pop("wanderer", {})}
    wanderer["sentience"] = script.setup_wanderer["sentience"]
    setup = {"storybook": script.storybook, **script.stage, **made,
             "wanderers": {script.who: wanderer}, "rng": 1}
    try:
        state, catalog = build(setup, content=index_for(content))
        before = dict(state.scores)
        done = apply(state, catalog,
                     parse_action({"wanderer": script.who, "effect": {"goto": script.start}}),
                     dice=_PathDice(script.tests), policy=_PathAnswers(script))
    except (EngineFault, KeyError, ValueError) as fault:
        return f"the engine could not play it: {fault}"
    if not isinstance(done, Applied):
        return f"the engine refused it: {done.message}"
    read = [e["entry"] for e in done.events if e["event"] == "entry"]
    missing = [n for n in script.visited if n not in read]
    if missing:
        return f"entries read {read}, not {', '.join(map(str, missing))}"
    short = [f"{e} {done.state.scores.get(e, 0) - before.get(e, 0)} < {n}"
             for e, n in script.scores.items()
             if done.state.scores.get(e, 0) - before.get(e, 0) < n]
    return f"points short: {', '.join(short)}" if short else None

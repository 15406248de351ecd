"""Effect lists compiled for fast random walks: tuples of small opcodes instead of mappings,
with every effect that cannot change the story's course (damage, tokens, monsters...)
dropped. The walk itself lives in playthrough.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dmtool.model.storybook import GROUPS, TERMINALS, single
from dmtool.storygraph.dice import COLOURS, pass_probability, requirement

# Opcodes. Each op is (code, a, b).
GOTO, EXIT, TEST, CHOICE, IF, MAY, SCORE, GAIN_CODA, LOSE_CODA, SENTIENCE, SPAWN, TRAP, RELEASE = (
    range(13)
)
ENDINGS = ("A", "B", "C", "D")
Op = tuple[int, Any, Any]
Program = tuple[Op, ...]


class Tests:
    """Each distinct test's requirement, and its pass probability per dice counts (cached)."""

    def __init__(self) -> None:
        self.rolls: list[dict[str, Any]] = []
        self.colours: list[tuple[int, ...]] = []  # indexes into COLOURS that the test rolls
        self._index: dict[str, int] = {}
        self._cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def add(self, roll: Mapping[str, Any]) -> int:
        key = repr(sorted((c, sorted(t)) for c, t in requirement(roll).items()))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.rolls)
            self.rolls.append(dict(roll))
            self.colours.append(tuple(COLOURS.index(c) for c in requirement(roll)))
        return found

    def probability(self, index: int, sentience: list[int]) -> float:
        dice = tuple(max(0, sentience[c]) for c in self.colours[index])
        key = (index, dice)
        found = self._cache.get(key)
        if found is None:
            values = {COLOURS[c]: n for c, n in zip(self.colours[index], dice)}
            found = self._cache[key] = float(pass_probability(self.rolls[index], values))
        return found


def compile_effects(effects: Sequence[Any], tests: Tests) -> Program:
    ops: list[Op] = []
    for effect in effects:
        parsed = single(effect)
        if parsed is None:
            continue
        name, body = parsed
        op = _compile(name, body, tests)
        if op is not None:
            ops.append(op)
        if name == "goto" or name in TERMINALS:
            break  # nothing after an exit is ever resolved
    return tuple(ops)


def _compile(name: str, body: Any, tests: Tests) -> Op | None:
    if name == "goto":
        return (GOTO, body, None)
    if name in TERMINALS:
        return (EXIT, name, body)
    if name == "test" and isinstance(body, dict):
        sides = (
            compile_effects(body.get("pass") or (), tests),
            compile_effects(body.get("fail") or (), tests),
        )
        return (TEST, tests.add(body.get("roll") or {}), sides)
    if name == "choice" and isinstance(body, list):
        options = tuple(
            (o.get("when"), compile_effects(o.get("effects") or (), tests))
            for o in body
            if isinstance(o, dict)
        )
        return (CHOICE, options, None)
    if name == "if" and isinstance(body, dict):
        sides = (
            compile_effects(body.get("then") or (), tests),
            compile_effects(body.get("else") or (), tests),
        )
        return (IF, body.get("when"), sides)
    if name == "may":
        return (MAY, compile_effects(body or (), tests), None)
    if name in GROUPS:
        inner = compile_effects(body or (), tests)
        return (IF, None, (inner, ())) if inner else None
    if name == "score" and isinstance(body, dict):
        return (SCORE, tuple((ENDINGS.index(e), n) for e, n in body.items() if e in ENDINGS), None)
    if name == "gain_coda":
        return (GAIN_CODA, body, None)
    if name == "lose_coda":
        return (LOSE_CODA, body, None)
    if name == "modify_sentience" and isinstance(body, dict):
        return (SENTIENCE, sentience_changes(body), None)
    if name == "spawn_encounter" and isinstance(body, dict):
        return (SPAWN, body.get("card"), None)
    if name == "trap":
        return (TRAP, None, None)
    if name == "release_trap":
        return (RELEASE, None, None)
    return None


def sentience_changes(body: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    return tuple((COLOURS.index(c), n) for c, n in body.items() if c in COLOURS)


class Knowledge:
    """What a walk knows, for conditions: codas, visited entries, scores, round, sentience."""

    __slots__ = ("codas", "visited", "scores", "round", "sentience", "trapped")

    def __init__(self, sentience: list[int]) -> None:
        self.codas: set[str] = set()
        self.visited: set[int] = set()
        self.scores = [0, 0, 0, 0]
        self.round = 0
        self.sentience = sentience
        self.trapped = False

    def holds(self, condition: Any) -> bool | None:
        """True, False, or None when the condition asks about the board (monsters, tokens...)."""
        if condition is None:
            return True
        for name, value in condition.items():
            if name == "has_coda":
                return value in self.codas
            if name == "visited":
                return value in self.visited
            if name == "not":
                inner = self.holds(value)
                return None if inner is None else not inner
            if name in ("all", "any"):
                results = [self.holds(c) for c in value]
                decisive = name == "any"
                if decisive in results:
                    return decisive
                return None if None in results else not decisive
            if name == "score_at_least":
                return all(self.scores[ENDINGS.index(e)] >= n for e, n in value.items())
            if name == "round_at_least":
                return self.round >= value
            if name == "round_at_most":
                return self.round <= value
            if name == "sentience_at_least":
                return all(self.sentience[COLOURS.index(c)] >= n for c, n in value.items())
            if name == "trapped":
                return self.trapped == value
            if name == "is_central":
                return value is True
            if name == "wanderers_at_least":
                return value <= 1
        return None

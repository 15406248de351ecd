"""Conditions judged before play by one evaluator (storygraph.logic) over the Facts a
storybook allows: which can never hold or always hold, with the reason in words."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from dmtool.model.describe import describe_condition, plain
from dmtool.storygraph.logic import INF, Formula, conjunction, negation, read, verdict, why

ROUNDS = 10
WANDERERS = 4
# How the per-game bounds are counted (storygraph.totals and storygraph.economy).
PREMISE = "in any game, counting each encounter as often as the rules let it be resolved"


@dataclass(frozen=True, slots=True)
class Verdict:
    """A condition decided before play (True: always holds, False: never), or None."""

    value: bool | None
    reason: str = ""


@dataclass(frozen=True)
class Facts:
    """What can possibly have happened in a game: coda cards some reachable branch awards,
    entries some root reaches, the most points each ending can have and the range of each
    sentience colour of any wanderer (a missing bound means none is known).

    Everything else a condition can ask about (monsters, tokens, wounds, ...) depends on
    play, so it stays unknown. `notes` say how each sentience range was found.
    """

    codas: Collection[str]
    visited: Collection[int]
    scores: Mapping[str, float] = field(default_factory=dict)
    sentience: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict, compare=False)
    # The rounds in which the condition can be read: any round of the wanderer stage or of
    # a finale (which has no last round) unless the place it is read says more.
    rounds: tuple[float, float] = (1, INF)
    # The least points an ending has where the condition is read: in its own finale, which
    # is played only when it has the most points and the four reach the goal.
    floors: Mapping[str, int] = field(default_factory=dict)
    # What every way to where the condition is read has done first: the coda cards the
    # reader surely holds, the entries surely read (storygraph.reach.search).
    held: frozenset[str] = frozenset()
    seen: frozenset[int] = frozenset()
    # Verdicts by the identity of what was judged, with it kept alive beside them.
    memo: dict[Any, tuple[Any, Any]] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    def at_rounds(self, rounds: tuple[float, float]) -> Facts:
        """The same facts read only in these rounds (made once per interval)."""
        if rounds == self.rounds:
            return self
        key = ("rounds", rounds)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = (None, replace(self, rounds=rounds, memo={}))
        return found[1]  # type: ignore[no-any-return]

    def knowing(self, held: frozenset[str], seen: frozenset[int]) -> Facts:
        """The same facts where every way in has gained `held` and read `seen`."""
        if held == self.held and seen == self.seen:
            return self
        key = ("knowing", held, seen)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = (None, replace(self, held=held, seen=seen, memo={}))
        return found[1]  # type: ignore[no-any-return]

    def at_ending(self, ending: str, floor: int) -> Facts:
        """The same facts read in `ending`'s finale, where it has at least `floor` points."""
        key = ("ending", ending, floor)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = (None, replace(self, floors={ending: floor}, memo={}))
        return found[1]  # type: ignore[no-any-return]

    def range(self, quantity: str) -> tuple[float, float]:
        kind, _, key = quantity.partition(" ")
        if kind == "round":
            return self.rounds
        if kind == "wanderers":
            return (1, WANDERERS)
        if kind == "score":
            return (self.floors.get(key, 0), self.scores.get(key, INF))
        if kind == "sentience":
            return self.sentience.get(key, (-INF, INF))
        return (0, INF)  # existence tokens, wounds

    def range_reason(self, quantity: str, *, low: bool) -> str:
        kind, _, key = quantity.partition(" ")
        lowest, highest = self.range(quantity)
        if kind == "round":
            if low:
                return ("every round is round 1 or later" if lowest <= 1 else
                        f"it is read in round {_number(lowest)} at the earliest")
            if highest == ROUNDS:
                return f"it is read in the wanderer stage, which has {ROUNDS} rounds"
            return f"it is read in round {_number(highest)} at the latest"
        if kind == "wanderers":
            if low:
                return "the wanderer resolving it is alive"
            return f"a game has at most {WANDERERS} wanderers"
        if kind == "score":
            if low and key in self.floors:
                return (f"ending {key}'s finale is played only when ending {key} has the most "
                        f"points and the four scores reach the goal (30 at least), so it has "
                        f"at least {self.floors[key]}")
            if low:
                return "a score is never below 0"
            most = _number(highest)
            return f"ending {key} has at most {most} point{'' if most == '1' else 's'} {PREMISE}"
        if kind == "sentience":
            side = "lowest" if low else "highest"
            value = _number(lowest if low else highest)
            note = self.notes.get(f"{quantity} {side}", "")
            return f"any wanderer's {key} sentience is at {'least' if low else 'most'} {value}{note}"
        return "a count is never below 0"

    def flag(self, key: str) -> tuple[bool | None, str]:
        name, _, value = key.partition(" ")
        if name == "has_coda" and value not in self.codas:
            return False, f"no reachable branch or card awards coda card '{value}'"
        if name == "visited" and value.isdigit() and int(value) not in self.visited:
            return False, f"entry {value} is never read"
        if name == "has_coda" and value in self.held:
            return True, f"every way here gains coda card '{value}' first and keeps it"
        if name == "visited" and value.isdigit() and int(value) in self.seen:
            return True, f"every way here reads entry {value} first"
        return None, ""


def _number(value: float) -> str:
    return "unlimited" if value in (INF, -INF) else str(int(value))


def judge(condition: Any, facts: Facts) -> Verdict:
    """Whether the condition is decided before play, and why."""
    found = facts.memo.get(id(condition))
    if found is not None and found[0] is condition:
        return found[1]
    result = _verdict(read(condition), facts)
    facts.memo[id(condition)] = (condition, result)
    return result


def judge_side(conditions: tuple[tuple[Mapping[str, Any], bool], ...], facts: Facts) -> Verdict:
    """Whether a side guarded by these (condition, negated) pairs can be taken: the pairs
    are judged together, so sides nested in sides that contradict them are found too."""
    if len(conditions) == 1:
        condition, negated = conditions[0]
        single = judge(condition, facts)
        return Verdict(None if single.value is None else single.value != negated, single.reason)
    key = tuple((id(c), negated) for c, negated in conditions)
    found = facts.memo.get(key)
    if found is not None and all(a is b for (a, _), (b, _) in zip(found[0], conditions)):
        return found[1]
    parts = [negation(read(c)) if negated else read(c) for c, negated in conditions]
    result = _verdict(conjunction(parts), facts)
    facts.memo[key] = (conditions, result)
    return result


def _verdict(formula: Formula, facts: Facts) -> Verdict:
    value = verdict(formula, facts)
    if value is None:
        return Verdict(None)
    return Verdict(value, why(formula, value, facts, clause))


def evaluate(condition: Any, facts: Facts) -> bool | None:
    """True or False when the condition is decided by what can be known before play."""
    return judge(condition, facts).value


def feasible(conditions: tuple[tuple[Mapping[str, Any], bool], ...], facts: Facts) -> bool:
    """Whether a side guarded by these (condition, negated) pairs can ever be taken."""
    return judge_side(conditions, facts).value is not False


def clause(condition: Any, *, negated: bool = False) -> str:
    """The condition in words, as the describer says it ('ending D has at least 26 points')."""
    return plain(describe_condition(condition, negated=negated))

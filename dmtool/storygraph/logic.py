"""Conditions as formulas over atoms, judged over what can be known before play.

Every condition of the vocabulary is read into a formula: `all`, `any` and `not` become
and, or and not; `round_at_most 3` becomes not (round >= 4); a mapping such as
`score_at_least: {A: 3, B: 2}` becomes one bound per key. An atom is either a bound on a
quantity (a score, a sentience colour, the round, ...) whose possible range is known, or a
flag (holding a coda, having visited an entry, being trapped, ...) that is known to be
false, or not known at all. A formula's verdict comes from every assignment of truth values
to its atoms that the ranges allow: one outcome means the condition is decided before play
(`all: [x, {not: x}]` is never true, `round_at_least 1` always), and the reason says why in
words. Beyond MAX_ATOMS distinct atoms the verdict falls back to three-valued evaluation,
which is still sound, only less sharp.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any, Protocol

INF = float("inf")
MAX_ATOMS = 10

# Conditions that bound one quantity from below: name -> quantity (mapping forms name
# their key, e.g. 'score D').
BOUNDS = {
    "round_at_least": "round",
    "wanderers_at_least": "wanderers",
    "existence_at_least": "existence",
    "wounds_at_least": "wounds",
    "score_at_least": "score",
    "sentience_at_least": "sentience",
}
# Conditions whose value says whether the flag is set (true) or not (false).
YES_NO = frozenset({"trapped", "is_central"})


@dataclass(frozen=True, slots=True)
class Atom:
    """A bound `quantity >= at_least`, or a flag (quantity None) named by `key`."""

    key: str
    quantity: str | None = None
    at_least: int = 0


@dataclass(frozen=True, slots=True)
class Formula:
    op: str  # atom | and | or | not
    atom: Atom | None = None
    parts: tuple[Formula, ...] = ()
    source: Any = None  # the condition it was read from (for messages)


class Knowledge(Protocol):
    """What is known before play: ranges of quantities and values of flags, with reasons."""

    def range(self, quantity: str) -> tuple[float, float]: ...

    def range_reason(self, quantity: str, *, low: bool) -> str: ...

    def flag(self, key: str) -> tuple[bool | None, str]: ...


def read(condition: Any) -> Formula:
    """The formula of a condition (shapes the schema refuses become unknown flags)."""
    if not isinstance(condition, Mapping) or len(condition) != 1:
        return _flag(condition)
    ((name, value),) = condition.items()
    if name in ("all", "any") and isinstance(value, list):
        return Formula("and" if name == "all" else "or", None, tuple(map(read, value)), condition)
    if name == "not":
        return Formula("not", None, (read(value),), condition)
    if name == "round_at_most" and _is_int(value):
        bound = Formula("atom", Atom("round", "round", value + 1), (), {"round_at_least": value + 1})
        return Formula("not", None, (bound,), condition)
    if name in BOUNDS and _is_int(value):
        return Formula("atom", Atom(BOUNDS[name], BOUNDS[name], value), (), condition)
    if name in BOUNDS and isinstance(value, Mapping) and value:
        parts = tuple(
            Formula("atom", Atom(f"{BOUNDS[name]} {k}", f"{BOUNDS[name]} {k}", n), (), {name: {k: n}})
            for k, n in value.items()
            if _is_int(n)
        )
        if len(parts) == len(value):
            return parts[0] if len(parts) == 1 else Formula("and", None, parts, condition)
    if name in YES_NO and isinstance(value, bool):
        flag = Formula("atom", Atom(name), (), {name: True})
        return flag if value else Formula("not", None, (flag,), condition)
    return _flag(condition)


def _flag(condition: Any) -> Formula:
    if isinstance(condition, Mapping) and len(condition) == 1:
        ((name, value),) = condition.items()
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return Formula("atom", Atom(f"{name} {value}"), (), condition)
    key = json.dumps(condition, sort_keys=True, default=str)
    return Formula("atom", Atom(key), (), condition)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def conjunction(parts: list[Formula], source: Any = None) -> Formula:
    return parts[0] if len(parts) == 1 else Formula("and", None, tuple(parts), source)


def negation(formula: Formula) -> Formula:
    return Formula("not", None, (formula,), formula.source)


def verdict(formula: Formula, know: Knowledge) -> bool | None:
    """True when the formula holds in every game, False when in none, None when play decides."""
    atoms = list(dict.fromkeys(_atoms(formula)))
    if len(atoms) == 1:
        possible = _possible(atoms[0], know)
        outcomes = {_value(formula, {atoms[0]: v}) for v in possible}
    elif len(atoms) > MAX_ATOMS:
        return _kleene(formula, know)
    else:
        outcomes = set()
        for values in product((False, True), repeat=len(atoms)):
            assignment = dict(zip(atoms, values))
            if _consistent(assignment, know):
                outcomes.add(_value(formula, assignment))
                if len(outcomes) == 2:
                    return None
    return outcomes.pop() if len(outcomes) == 1 else None


def _atoms(formula: Formula) -> list[Atom]:
    if formula.atom is not None:
        return [formula.atom]
    return [a for part in formula.parts for a in _atoms(part)]


def _possible(atom: Atom, know: Knowledge) -> tuple[bool, ...]:
    if atom.quantity is None:
        known, _ = know.flag(atom.key)
        return (False, True) if known is None else (known,)
    low, high = know.range(atom.quantity)
    if low >= atom.at_least:
        return (True,)
    if high < atom.at_least:
        return (False,)
    return (False, True)


def _consistent(assignment: Mapping[Atom, bool], know: Knowledge) -> bool:
    ranges: dict[str, list[float]] = {}
    for atom, value in assignment.items():
        if atom.quantity is None:
            known, _ = know.flag(atom.key)
            if known is not None and known != value:
                return False
            continue
        span = ranges.setdefault(atom.quantity, list(know.range(atom.quantity)))
        if value:
            span[0] = max(span[0], atom.at_least)
        else:
            span[1] = min(span[1], atom.at_least - 1)
        if span[0] > span[1]:
            return False
    return True


def _value(formula: Formula, assignment: Mapping[Atom, bool]) -> bool:
    if formula.atom is not None:
        return assignment[formula.atom]
    if formula.op == "not":
        return not _value(formula.parts[0], assignment)
    values = (_value(p, assignment) for p in formula.parts)
    return all(values) if formula.op == "and" else any(values)


def _kleene(formula: Formula, know: Knowledge) -> bool | None:
    if formula.atom is not None:
        possible = _possible(formula.atom, know)
        return possible[0] if len(possible) == 1 else None
    if formula.op == "not":
        inner = _kleene(formula.parts[0], know)
        return None if inner is None else not inner
    results = [_kleene(p, know) for p in formula.parts]
    decisive = formula.op == "or"  # a True decides 'or', a False decides 'and'
    if decisive in results:
        return decisive
    return (not decisive) if all(r is not None for r in results) else None


def why(formula: Formula, value: bool, know: Knowledge, describe: Any) -> str:
    """Why the formula is always `value` (False: never true), in words; `describe` turns a
    condition into words."""
    if formula.atom is not None:
        return _atom_reason(formula.atom, value, know)
    if formula.op == "not":
        return why(formula.parts[0], not value, know, describe)
    decisive = formula.op == "or"
    if value != decisive:  # every part has this value
        reasons = dict.fromkeys(why(p, value, know, describe) for p in formula.parts)
        return "; ".join(reasons)
    for part in formula.parts:
        if verdict(part, know) is value:
            return why(part, value, know, describe)
    core = list(formula.parts)
    for part in list(core):
        rest = [p for p in core if p is not part]
        if len(rest) >= 2 and verdict(Formula(formula.op, None, tuple(rest)), know) is value:
            core = rest
    names = [f"'{describe(p.source)}'" for p in core]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    if formula.op == "and":
        return f"{listed} cannot all be true at once" if len(names) > 2 else (
            f"{listed} cannot both be true"
        )
    return f"one of {listed} is true in every game"


def _atom_reason(atom: Atom, value: bool, know: Knowledge) -> str:
    if atom.quantity is None:
        return know.flag(atom.key)[1]
    return know.range_reason(atom.quantity, low=value)

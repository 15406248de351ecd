"""Conditions seen statically: which can never hold (or always hold) given what the storybook
can award, and short readable summaries of conditions for edge labels and witnesses."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

ROUNDS = 10


@dataclass(frozen=True)
class Facts:
    """What can possibly have happened in a game: coda cards some reachable branch awards,
    entries some root reaches, endings some reachable branch gives points to.

    Everything else a condition can ask about (monsters, tokens, wounds, ...) depends on
    play, so it stays unknown.
    """

    codas: Collection[str]
    visited: Collection[int]
    scored: Collection[str]


def evaluate(condition: Any, facts: Facts) -> bool | None:
    """True or False when the condition is decided by the storybook alone, else None."""
    if not isinstance(condition, dict) or len(condition) != 1:
        return None
    ((name, value),) = condition.items()
    if name == "not":
        inner = evaluate(value, facts)
        return None if inner is None else not inner
    if name in ("all", "any") and isinstance(value, list):
        results = [evaluate(c, facts) for c in value]
        decisive = name == "any"  # a True decides 'any', a False decides 'all'
        if decisive in results:
            return decisive
        return (not decisive) if all(r is not None for r in results) else None
    if name == "has_coda":
        return None if value in facts.codas else False
    if name == "visited":
        return None if value in facts.visited else False
    if name == "score_at_least" and isinstance(value, dict):
        if any(n > 0 and e not in facts.scored for e, n in value.items()):
            return False
        return True if all(n <= 0 for n in value.values()) else None
    if name == "round_at_least":
        return True if value <= 1 else (False if value > ROUNDS else None)
    if name == "round_at_most":
        return True if value >= ROUNDS else None
    if name == "wanderers_at_least":
        return True if value <= 1 else None
    return None


def feasible(conditions: tuple[tuple[Mapping[str, Any], bool], ...], facts: Facts) -> bool:
    """Whether a side guarded by these (condition, negated) pairs can ever be taken."""
    for condition, negated in conditions:
        value = evaluate(condition, facts)
        if value is not None and value == negated:
            return False
    return True


def describe(condition: Any, *, limit: int = 40) -> str:
    """A short summary such as 'has coda the-voice' or 'not visited 12'."""
    text = _describe(condition)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(condition: Any) -> str:
    if not isinstance(condition, dict) or len(condition) != 1:
        return "?"
    ((name, value),) = condition.items()
    if name == "not":
        return f"not ({_describe(value)})"
    if name in ("all", "any") and isinstance(value, list):
        joiner = " and " if name == "all" else " or "
        return joiner.join(_describe(c) for c in value)
    if isinstance(value, dict):
        value = ", ".join(f"{k} {v}" for k, v in value.items())
    return f"{name.replace('_', ' ')} {value}"

"""One game's rule registry: effect handlers, condition evaluators, system steps, named hooks
and the event kinds its log may hold, each registered by the module that owns the rule.

Rules that trigger other rules (a wound that kills, a death that spawns) find each other
here, through the context, instead of importing each other at call time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dmtool.engine.core.errors import EngineFault

F = TypeVar("F", bound=Callable[..., Any])

# Event kinds every game's log may hold: the core context and the fixture runner log them.
CORE_EVENTS: dict[str, str] = {
    "chose": "the policy answered a question with something other than its default",
    "rejected": "an action was refused; the state stayed as it was (logged by the caller)",
}


@dataclass
class Rules:
    """The registry of one game (`game` is its id, e.g. 'dawn-of-madness')."""

    game: str
    effects: dict[str, Callable[..., Any]] = field(default_factory=dict)
    conditions: dict[str, Callable[..., Any]] = field(default_factory=dict)
    steps: dict[str, Callable[..., Any]] = field(default_factory=dict)
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    events: dict[str, str] = field(default_factory=lambda: dict(CORE_EVENTS))
    # The condition cards a character can hold, by type (what fixtures may give them).
    condition_cards: dict[str, str] = field(default_factory=dict)

    def _add(self, table: dict[str, Callable[..., Any]], what: str, name: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            if name in table:
                raise RuntimeError(f"{self.game}: the {what} '{name}' has two handlers")
            table[name] = fn
            return fn

        return register

    def effect(self, name: str) -> Callable[[F], F]:
        """Register the handler of one effect of the content vocabulary."""
        return self._add(self.effects, "effect", name)

    def condition(self, name: str) -> Callable[[F], F]:
        """Register the evaluator of one condition of the content vocabulary."""
        return self._add(self.conditions, "condition", name)

    def step(self, name: str) -> Callable[[F], F]:
        """Register a system step (an action that is not a character's)."""
        return self._add(self.steps, "step", name)

    def hook(self, name: str) -> Callable[[F], F]:
        """Register a named rule that other rules trigger (e.g. a wanderer's death)."""
        return self._add(self.hooks, "hook", name)

    def declare_events(self, kinds: Mapping[str, str]) -> None:
        """The event kinds this game logs, each with what it records."""
        self.events.update(kinds)

    def declare_condition_cards(self, kinds: Mapping[str, str]) -> None:
        """The types of condition card this game deals, each with what it is."""
        self.condition_cards.update(kinds)

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        hook = self.hooks.get(name)
        if hook is None:
            raise EngineFault(f"{self.game}: no rule is registered for '{name}'")
        return hook(*args, **kwargs)

    def names(self) -> dict[str, list[str]]:
        """Every registered name by table: what tools (fixture checks, docs) may rely on."""
        return {"effects": sorted(self.effects), "conditions": sorted(self.conditions),
                "steps": sorted(self.steps), "hooks": sorted(self.hooks),
                "events": sorted(self.events), "condition_cards": sorted(self.condition_cards)}

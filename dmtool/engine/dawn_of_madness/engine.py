"""Transitions: apply(state, action) -> Applied (new state, events) or Rejected (code)."""

from __future__ import annotations

from typing import Any, Final

from dmtool.engine.core.policy import Policy
from dmtool.engine.core.transition import Applied, Rejected

# Importing the rule modules fills the registry: every effect, condition, step and hook is
# registered before the first transition runs.
from dmtool.engine.dawn_of_madness import conditions, health, monsters, phases, refresh, setup  # noqa: F401
from dmtool.engine.dawn_of_madness.actions import (
    SYSTEM_ACTIONS,
    Action,
    acting_wanderer,
    check,
    parse_action,
    verdict,
    wanderer_verdict,
)
from dmtool.engine.dawn_of_madness.candidates import Menu
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.dice import DiceSource
from dmtool.engine.dawn_of_madness.effects import board, flow, monster, wanderer  # noqa: F401
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.finale import wrap_up
from dmtool.engine.dawn_of_madness.perform import perform
from dmtool.engine.dawn_of_madness.plans import Plan
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import GameState, Wanderer
from dmtool.engine.dawn_of_madness.turns import active_characters

SYSTEM_STEPS: Final = frozenset(SYSTEM_ACTIONS)


def apply(state: GameState, catalog: Catalog, action: Action | dict[str, Any], *,
          dice: DiceSource, policy: Policy, in_place: bool = False,
          step: int | None = None, checked: Plan | None = None) -> Applied | Rejected:
    """Resolve one action on a private copy of `state`; the given state is never changed.

    Dice and policy are asked as the rules need them; a rejection leaves no trace in the
    state (a scripted source that was read from should be rolled back by the caller).
    `in_place` skips the copy for callers that never look at the old state again (a game
    loop that treats any rejection as fatal): the state is then changed, even if rejected.
    `step` tags every event with a game loop's step number (see `Context.step`).
    `checked` is the plan a legality check just made for this very action on this very
    state (see `Legality.passed`): the checks are not made twice.
    """
    try:
        if not isinstance(action, Action):
            action = parse_action(action)
        work = state if in_place else state.clone()
        # Positional: a class called with a keyword argument goes through a slower path
        # in the interpreter (a dict of keywords made and taken apart), once per step.
        ctx = Ctx(work, catalog, dice, policy, [], step)
        if action.kind in SYSTEM_STEPS:
            RULES.steps[action.kind](ctx, action)
        else:
            plan = checked if checked is not None else check(work, catalog, action)
            perform(ctx, work.wanderers[action.wanderer or ""], plan)
        # However the wanderer stage ended, its end (the abomination's back) follows at once.
        wrap_up(ctx)
    except Reject as rejection:
        return Rejected(rejection.code, rejection.message)
    return Applied(work, ctx.events)


def is_legal(state: GameState, catalog: Catalog, action: Action, *,
             active: list[str] | None = None) -> bool:
    """Whether a wanderer action passes every check now (no dice are rolled)."""
    return not isinstance(verdict(state, catalog, action, active=active), Reject)


class Legality:
    """`is_legal` for the many candidates of one decision: the checks on who acts (stage,
    phase, turn) are made once per wanderer, not once per candidate."""

    __slots__ = ("active", "actors", "catalog", "passed", "state")

    def __init__(self, state: GameState, catalog: Catalog, active: list[str]) -> None:
        self.state, self.catalog, self.active = state, catalog, active
        self.actors: dict[str | None, Wanderer | Reject] = {}
        self.passed: tuple[Action, Plan] | None = None  # the last action found legal

    def __call__(self, action: Action) -> bool:
        w = self.actors.get(action.wanderer)
        if w is None:
            w = self.actors[action.wanderer] = acting_wanderer(self.state, action.wanderer,
                                                               self.active)
        if isinstance(w, Reject):
            return False
        found = wanderer_verdict(self.state, self.catalog, w, action)
        if isinstance(found, Reject):
            return False
        self.passed = (action, found)
        return True


def legal_actions(state: GameState, catalog: Catalog) -> list[Action]:
    """Every distinct wanderer action the active wanderers could take now (brain payments
    aside), plus the turn of an active monster."""
    active = active_characters(state)
    return [a for a in candidate_actions(state, catalog, active)
            if a.kind == "activate" or is_legal(state, catalog, a, active=active)]


def candidate_actions(state: GameState, catalog: Catalog,
                      active: list[str] | None = None) -> list[Action]:
    """What the active characters might do, before the legality checks: a monster's turn,
    or each wanderer action with the arguments worth trying."""
    return Menu(state, catalog, active_characters(state) if active is None else active).actions()

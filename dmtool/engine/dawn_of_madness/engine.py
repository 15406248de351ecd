"""Transitions: apply(state, action) -> Applied (new state, events) or Rejected (code)."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.policy import Policy
from dmtool.engine.core.transition import Applied, Rejected

# Importing the rule modules fills the registry: every effect, condition, step and hook is
# registered before the first transition runs.
from dmtool.engine.dawn_of_madness import conditions, health, monsters, phases, refresh, setup  # noqa: F401
from dmtool.engine.dawn_of_madness.actions import SYSTEM_ACTIONS, Action, check, parse_action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import domain_text
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.dice import DiceSource
from dmtool.engine.dawn_of_madness.effects import board, flow, monster, wanderer  # noqa: F401
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.finale import wrap_up
from dmtool.engine.dawn_of_madness.legacy import consumables
from dmtool.engine.dawn_of_madness.perform import perform
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.engine.dawn_of_madness.turns import active_characters


def apply(state: GameState, catalog: Catalog, action: Action | dict[str, Any], *,
          dice: DiceSource, policy: Policy, in_place: bool = False) -> Applied | Rejected:
    """Resolve one action on a private copy of `state`; the given state is never changed.

    Dice and policy are asked as the rules need them; a rejection leaves no trace in the
    state (a scripted source that was read from should be rolled back by the caller).
    `in_place` skips the copy for callers that never look at the old state again (a game
    loop that treats any rejection as fatal): the state is then changed, even if rejected.
    """
    try:
        if not isinstance(action, Action):
            action = parse_action(action)
        work = state if in_place else state.clone()
        ctx = Ctx(work, catalog, dice, policy)
        if action.kind in SYSTEM_ACTIONS:
            RULES.steps[action.kind](ctx, action)
        else:
            plan = check(work, catalog, action)
            perform(ctx, work.wanderers[action.wanderer or ""], plan)
        # However the wanderer stage ended, its end (the abomination's back) follows at once.
        wrap_up(ctx)
    except Reject as rejection:
        return Rejected(rejection.code, rejection.message)
    return Applied(work, ctx.events)


def is_legal(state: GameState, catalog: Catalog, action: Action, *,
             active: list[str] | None = None) -> bool:
    """Whether a wanderer action passes every check now (no dice are rolled)."""
    try:
        check(state, catalog, action, active=active)
    except Reject:
        return False
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
    out: list[Action] = []
    for cid in active_characters(state) if active is None else active:
        if cid in state.monsters:
            out.append(Action("activate", None, {"monster": cid}))
            continue
        out += [Action(kind, cid, args) for kind, args in _candidates(state, catalog, cid)]
    return out


def _candidates(state: GameState, catalog: Catalog, wid: str) -> list[tuple[str, Any]]:
    w = state.wanderers[wid]
    here = w.shard or 0
    plain: list[tuple[str, Any]] = [("pass", {}), ("domain", {}), ("search", {}),
                                    ("encounter", {}), ("confront", {})]
    plain += [("move", {"to": n}) for n in catalog.board.within(here, 3)]
    plain += [("encounter", {"card": c}) for c in state.shards[here].cards]
    for m in state.monsters.values():
        for rift in dict.fromkeys(m.rifts):
            plain.append(("attack", {"monster": m.id, "rift": domain_text(rift)}))
    plain += [("trade", {"with": o.id, "give": [], "take": []})
              for o in state.wanderers.values() if o.id != wid]
    plain += [("existence", {"card": c}) for c in w.existence_deck]
    plain += [("legacy", {"card": c}) for c in consumables(state, catalog, w)]
    plain += [("component", {"card": c}) for c in w.existence_cards + w.domain_cards]
    support = []
    for card, up in state.support.items():
        offered = catalog.support_cards.get(card, {}).get("action")
        if up:
            support += [("support", {"card": card, kind: args})
                        for kind, args in plain if kind == offered]
    return plain + support

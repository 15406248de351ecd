"""Wanderer actions: parsing, and the checks that decide legality and cost (no dice here)."""

from __future__ import annotations

import json
from typing import Any, Final, NamedTuple

from dmtool.engine.dawn_of_madness.action_checks import CHECKS
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import BRAIN_COLOURS
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.plans import Plan, Verdict
from dmtool.engine.dawn_of_madness.state import GameState, Wanderer
from dmtool.engine.dawn_of_madness.turns import active_characters

WANDERER_ACTIONS: Final = ("move", "attack", "encounter", "domain", "search", "trade", "existence",
                    "confront", "component", "pass", "support", "legacy")
SYSTEM_ACTIONS: Final = ("effect", "activate", "advance", "event_phase", "refresh", "start_game",
                  "summon", "start_finale", "reset_wanderer")
ACTION_KINDS: Final = WANDERER_ACTIONS + SYSTEM_ACTIONS


class Action(NamedTuple):
    """One thing to do: a wanderer action or a system step, with plain JSON arguments.

    A named tuple rather than a frozen dataclass: just as immutable, and a game builds
    hundreds of them (candidates), where a frozen dataclass's __init__ costs three times
    as much."""

    kind: str
    wanderer: str | None = None
    args: Any = None
    pay: tuple[str, ...] = ()

    def arg(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default) if isinstance(self.args, dict) else default

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.kind: self.args if self.args is not None else {}}
        if self.wanderer is not None:
            out["wanderer"] = self.wanderer
        if self.pay:
            out["pay"] = list(self.pay)
        return out

    def key(self) -> str:
        """A canonical text for comparing actions."""
        return json.dumps(self.to_dict(), sort_keys=True)


_new_tuple: Final = tuple.__new__


def new_action(kind: str, wanderer: str | None, args: Any) -> Action:
    """`Action(kind, wanderer, args)` for the engine's hot paths (a candidate or a step every
    decision): tuple.__new__ makes the very same tuple without the named tuple's __new__,
    Python code the interpreter calls from C at several times the cost."""
    return _new_tuple(Action, (kind, wanderer, args, ()))


def parse_action(data: Any) -> Action:
    """An Action from a mapping such as {wanderer: mara, move: {to: 5}}."""
    if not isinstance(data, dict):
        raise Reject("bad_action",
                     "An action is a mapping such as {wanderer: mara, move: {to: 5}}.")
    kinds = [k for k in data if k not in ("wanderer", "pay")]
    if len(kinds) != 1 or kinds[0] not in ACTION_KINDS:
        raise Reject("bad_action", f"An action names exactly one of {', '.join(ACTION_KINDS)}; "
                     f"got {', '.join(kinds) or 'none'}.")
    pay = data.get("pay", [])
    if not isinstance(pay, list):
        raise Reject("bad_action", "'pay' lists brain domain colours, e.g. [green, purple].")
    return Action(kinds[0], data.get("wanderer"), data[kinds[0]], tuple(pay))


def check(state: GameState, catalog: Catalog, action: Action, *,
          active: list[str] | None = None) -> Plan:
    """Raise Reject unless the action is legal now; return its plan. `active` (the active
    characters, when the caller already knows them) saves recomputing the track."""
    found = verdict(state, catalog, action, active=active)
    if isinstance(found, Reject):
        raise found
    return found


def verdict(state: GameState, catalog: Catalog, action: Action, *,
            active: list[str] | None = None) -> Verdict:
    """The action's plan if it is legal now, else the rejection (returned, not raised)."""
    w = acting_wanderer(state, action.wanderer, active)
    if isinstance(w, Reject):
        return w
    return wanderer_verdict(state, catalog, w, action)


def acting_wanderer(state: GameState, wid: str | None,
                    active: list[str] | None) -> Wanderer | Reject:
    """The wanderer, if they may act now at all (whatever the action)."""
    if state.outcome != "ongoing":
        return Reject("stage_over", "The stage is over.")
    w = state.wanderers.get(wid or "")
    if w is None:
        return Reject("unknown_wanderer", f"There is no wanderer '{wid}'.")
    if state.phase != "action":
        return Reject("wrong_phase", f"Wanderer actions happen in the action phase, not the "
                      f"{state.phase} phase.")
    if not w.alive:
        return Reject("wanderer_dead", f"{w.id} is dead until they respawn.")
    if active is None:
        active = active_characters(state)
    if w.id not in active:
        return Reject("not_your_turn", f"{w.id} is not the active character; the track has "
                      f"{', '.join(active) or 'nobody'} next.")
    return w


def wanderer_verdict(state: GameState, catalog: Catalog, w: Wanderer, action: Action) -> Verdict:
    """The verdict on an action of a wanderer who may act now (see `acting_wanderer`)."""
    if w.trapped and action.kind not in ("encounter", "pass"):
        return Reject("trapped", f"{w.id} is trapped and can only re-enter encounter "
                      f"{w.trapped['entry']} (or pass).")
    if action.kind == "support":
        return _check_support(state, catalog, w, action)
    plan = check_inner(state, catalog, w, action.kind, action.args, free=False)
    if isinstance(plan, Reject):
        return plan
    return _pay(w, plan, action.pay) or plan


def _check_support(state: GameState, catalog: Catalog, w: Wanderer, action: Action) -> Verdict:
    args = action.args if isinstance(action.args, dict) else {}
    card: Any = args.get("card")
    if not state.support.get(card, False):
        return Reject("support_unavailable", f"The support card '{card}' is not face up in "
                      "play.")
    if w.support_last:
        return Reject("support_twice", f"{w.id} used a support card last; take another action "
                      "first.")
    inner = [k for k in args if k != "card"]
    offered = catalog.support_cards.get(card, {}).get("action")
    if len(inner) != 1 or inner[0] != offered:
        return Reject("support_action", f"The support card '{card}' offers the {offered} "
                      "action.")
    plan = check_inner(state, catalog, w, inner[0], args[inner[0]], free=True)
    if isinstance(plan, Reject):
        return plan
    plan.data["support"] = card
    return plan


def check_inner(state: GameState, catalog: Catalog, w: Wanderer, kind: str, args: Any,
                *, free: bool) -> Verdict:
    fn = CHECKS.get(kind)
    if fn is None:
        return Reject("bad_action", f"'{kind}' is not a wanderer action.")
    plan = fn(state, catalog, w, args if args is not None else {}, free)
    if isinstance(plan, Reject):
        return plan
    plan.free = free
    if free:
        plan.cost = 0
    return plan


def _pay(w: Wanderer, plan: Plan, pay: tuple[str, ...]) -> Reject | None:
    """Brain domains of the action's colour (purple for any) stand in for capacity."""
    if pay:  # hot path: the automatic players never pay with brains (no copy made then)
        refused = _spend_brains(w, plan, pay)
        if refused is not None:
            return refused
    if len(plan.brains) > plan.cost:
        return Reject("bad_brain_payment", f"The action costs {plan.cost}; "
                      f"{len(plan.brains)} brains is more than that.")
    if plan.cost - len(plan.brains) > w.mc:
        return Reject("not_enough_capacity", f"{w.id} has {w.mc} mental capacity; the "
                      f"action costs {plan.cost}.")
    return None


def _spend_brains(w: Wanderer, plan: Plan, pay: tuple[str, ...]) -> Reject | None:
    """Add the brains named in `pay` to the plan, or refuse one it cannot have."""
    allowed = BRAIN_COLOURS.get(plan.kind, frozenset())
    left = dict(w.domains)
    for colour in pay:
        if plan.free or colour not in allowed:
            return Reject("bad_brain_payment", f"A {colour} brain cannot pay for a "
                          f"{plan.kind} action (allowed: {', '.join(sorted(allowed)) or 'none'}).")
        for kind in ("brain", "sphere"):
            if left.get((colour, kind), 0) > 0:
                left[(colour, kind)] -= 1
                plan.brains.append((colour, kind))
                break
        else:
            return Reject("bad_brain_payment", f"{w.id} has no stored {colour} brain to "
                          "spend.")
    return None

"""A Deep Madness step: parsing it, and the guards its handlers share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.errors import Reject
from dmtool.engine.deep_madness.records import Figure, Investigator

INVESTIGATOR_STEPS = ("move", "force_move", "investigate", "rest", "enlighten", "attack",
                      "gain", "die", "exhaust_oxygen", "mark")
SYSTEM_STEPS = ("start", "hazard", "end_activation", "activate", "end_round", "spawn", "kill",
                "advance_devour", "measure", "effect", "monster_attack", "activation_order",
                "card_effect", "refresh")
STEP_KINDS = INVESTIGATOR_STEPS + SYSTEM_STEPS
ACTIONS = ("move", "investigate", "rest", "attack")  # the steps that are an action


@dataclass(frozen=True)
class Step:
    """One thing to do: `kind`, the investigator acting (if any), and plain JSON args."""

    kind: str
    investigator: str | None = None
    args: Any = None

    def arg(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default) if isinstance(self.args, dict) else default

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.kind: self.args if self.args is not None else {}}
        if self.investigator is not None:
            out["investigator"] = self.investigator
        return out


def parse_step(data: Any) -> Step:
    """A Step from a mapping such as {investigator: alice, move: {to: B}}."""
    if not isinstance(data, dict):
        raise Reject("bad_action", "A step is a mapping such as {investigator: alice, move: "
                     "{to: B}}.")
    kinds = [k for k in data if k != "investigator"]
    if len(kinds) != 1 or kinds[0] not in STEP_KINDS:
        raise Reject("bad_action", f"A step names exactly one of {', '.join(STEP_KINDS)}; got "
                     f"{', '.join(kinds) or 'none'}.")
    kind = kinds[0]
    if kind in INVESTIGATOR_STEPS and "investigator" not in data:
        raise Reject("bad_action", f"The '{kind}' step names the investigator who takes it.")
    return Step(kind, data.get("investigator"), data[kind])


def investigator(ctx: Ctx, step: Step) -> Investigator:
    inv = ctx.state.investigators.get(step.investigator or "")
    if inv is None:
        raise Reject("unknown_investigator", f"There is no investigator '{step.investigator}'.")
    if not inv.alive:
        raise Reject("investigator_dead", f"{inv.id} has been killed.")
    return inv


def figure(ctx: Ctx, name: Any) -> Figure:
    found = ctx.state.figures.get(str(name))
    if found is None:
        raise Reject("unknown_figure", f"No figure '{name}' is on the board.")
    return found


def space(ctx: Ctx, name: Any) -> str:
    if name not in ctx.catalog.board.rooms:
        raise Reject("unknown_space", f"The board has no space '{name}'.")
    return str(name)

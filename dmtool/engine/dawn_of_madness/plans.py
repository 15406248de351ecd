"""What a legal wanderer action will do and cost (its plan), and the range rules the
checks share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import MAX_RANGE, Domain, domain_text, parse_domain
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.state import GameState, Wanderer

BASE_COST: Final = {"move": 0, "attack": 2, "confront": 2, "encounter": 2, "domain": 1, "search": 1,
             "trade": 0, "existence": 0, "pass": 0, "legacy": 0}


@dataclass(slots=True)
class Plan:
    """What a legal wanderer action will do and cost, worked out before anything changes."""

    kind: str
    cost: int = 0
    brains: list[Domain] = field(default_factory=list)
    free: bool = False
    data: dict[str, Any] = field(default_factory=dict)

    # Written out (the same fields and defaults): compiled with mypyc, the __init__ that
    # dataclasses generates is interpreted; this one is native (see Ctx).
    def __init__(self, kind: str, cost: int = 0, brains: list[Domain] | None = None,
                 free: bool = False, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.cost = cost
        self.brains = [] if brains is None else brains
        self.free = free
        self.data = {} if data is None else data


# A wanderer action's plan when it is legal, or the rejection saying why not (returned,
# not raised: see action_checks.py).
Verdict = Plan | Reject


def parse_rift(value: Any, rifts: list[Domain]) -> Domain | Reject:
    """The rift an attack names (by number or as 'colour type'), or why it cannot."""
    if isinstance(value, int) and 1 <= value <= len(rifts):
        return rifts[value - 1]
    try:
        rift = parse_domain(str(value))
    except ValueError as exc:
        return Reject("no_such_rift", str(exc))
    if rift not in rifts:
        return Reject("no_such_rift", f"The monster has no {domain_text(rift)} rift; it has "
                      f"{', '.join(domain_text(r) for r in rifts) or 'none'}.")
    return rift


def range_cost(state: GameState, catalog: Catalog, w: Wanderer, shard: int) -> int | Reject:
    """The range part of an action's cost (one per space), or why the target is too far."""
    d = catalog.board.distance(w.shard or 0, shard) if w.shard else None
    if d is None or d > MAX_RANGE:
        away = f"{d} spaces" if d is not None else "not joined by any path"
        return Reject("too_far", f"The target is {away} from {w.id}; the range is at most "
                      f"{MAX_RANGE}.")
    return d

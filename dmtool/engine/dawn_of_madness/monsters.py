"""Monsters: spawning, targets, and activation by action sequence and rift abilities."""

from __future__ import annotations

from typing import Any

from dmtool.engine.dawn_of_madness.combat import roll_rifts
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import Monster, Wanderer
from dmtool.engine.dawn_of_madness.story import holds, run_effects

TARGETING = ("monster_attack", "monster_drain", "monster_move", "monster_heal",
             "resolve_confrontation_card")


def spawn_monster(ctx: Ctx, card: str, *, shard: Any = "random", level: int | None = None,
                  why: str = "spawn", avoid: set[int] | None = None) -> Monster | None:
    """Put a monster on the board with its tracker at max (or at `level`, capped at max) and
    three rifts; one already on the board activates once for free instead."""
    state = ctx.state
    if card not in ctx.catalog.monsters:
        raise EngineFault(f"no definition for the monster '{card}'")
    if card in state.monsters:
        ctx.emit("already_on_board", monster=card)
        activate(ctx, state.monsters[card], free=True)
        return None
    defn = ctx.catalog.monster(card)
    number = place(ctx, card, shard, avoid=avoid)
    max_mc = defn["max_mental_capacity"]
    mc = max_mc if level is None else min(level, max_mc)
    m = Monster(card, defn["kind"], number, defn["max_health"], max_mc, mc)
    state.monsters[card] = m
    ctx.emit("spawned", monster=card, kind=m.kind, shard=number, mental_capacity=mc, why=why)
    if m.kind != "abomination":
        roll_rifts(ctx, m, "domain rifts")
    return m


def distance(ctx: Ctx, a: int | None, b: int | None) -> int | None:
    if a is None or b is None:
        return None
    return ctx.catalog.board.distance(a, b)


def in_range(ctx: Ctx, m: Monster, within: int | None = None) -> list[Wanderer]:
    """Living wanderers joined to the monster by paths, within `within` spaces if given."""
    found = []
    for w in ctx.state.wanderers.values():
        d = distance(ctx, m.shard, w.shard) if ctx.counts_alive(w) else None
        if d is not None and (within is None or d <= within):
            found.append(w)
    return found


def candidates(ctx: Ctx, m: Monster, toward: str = "nearest_wanderer",
               within: int | None = None) -> list[Wanderer]:
    """The wanderers the monster would target (several when they are equally good)."""
    living = in_range(ctx, m, within)
    if not living:
        return []
    if toward == "central_wanderer":
        central = [w for w in living if w.id == ctx.state.central]
        if central:
            return central
    if toward == "most_wounded_wanderer":
        most = max(w.wounds for w in living)
        return [w for w in living if w.wounds == most]
    near = min(distance(ctx, m.shard, w.shard) for w in living)  # type: ignore[type-var]
    return [w for w in living if distance(ctx, m.shard, w.shard) == near]


@RULES.hook("monster_target")
def choose_target(ctx: Ctx, m: Monster, toward: str = "nearest_wanderer",
                  within: int | None = None) -> Wanderer | None:
    """The monster's target; equally good targets are the players' choice. (Also the hook
    through which the context finds who a monster's effects apply to.)"""
    found = candidates(ctx, m, toward, within)
    if len(found) <= 1:
        return found[0] if found else None
    pick = ctx.answer("target", f"{m.id} has several equally near targets",
                      tuple(w.id for w in found))
    return ctx.wanderer(pick)


def feasible(ctx: Ctx, m: Monster, effects: list[dict[str, Any]]) -> bool:
    """An action without targeting effects can always be taken; one with targeting effects
    needs at least one of them to have something to act on."""
    targeting = [e for e in effects if next(iter(e)) in TARGETING]
    if not targeting:
        return True
    return any(_has_target(ctx, m, e) for e in targeting)


def _has_target(ctx: Ctx, m: Monster, effect: dict[str, Any]) -> bool:
    [(name, value)] = effect.items()
    if name in ("monster_attack", "monster_drain"):
        return bool(candidates(ctx, m, within=value.get("range", 0)))
    if name == "monster_move":
        found = candidates(ctx, m, value.get("toward", "nearest_wanderer"))
        return any(distance(ctx, m.shard, w.shard) for w in found)
    if name == "monster_heal":
        return m.wounds > 0
    if name == "resolve_confrontation_card":
        return confrontation_resolvable(ctx, m)
    return True


def confrontation_resolvable(ctx: Ctx, m: Monster) -> bool:
    number = ctx.state.confrontation["active"]
    if m.kind != "abomination" or number is None:
        return False
    effects = ctx.catalog.confrontation_card(m.id, number)["special_action"].get("effects", [])
    return feasible(ctx, m, effects)


def activate(ctx: Ctx, m: Monster, *, free: bool = False) -> bool:
    """The monster takes the first action of its sequence whose condition holds, whose cost
    it can pay (free activations pay nothing) and that has something to act on."""
    defn = ctx.catalog.monster(m.id)
    for index, action in enumerate(defn.get("actions", [])):
        cost = action.get("cost", 0)
        if not free and cost > m.mc:
            continue
        with ctx.acting(monster=m.id):
            if "condition" in action and not holds(ctx, action["condition"]):
                continue
            if not feasible(ctx, m, action.get("effects", [])):
                continue
            if not free:
                m.mc -= cost
            ctx.emit("monster_action", monster=m.id, action=index + 1, cost=0 if free else cost,
                     free=free)
            with ctx.in_frame(Frame("activation")):
                run_effects(ctx, action.get("effects", []))
                for ability in active_rift_abilities(ctx, m, defn):
                    if m.id not in ctx.state.monsters or ctx.halted:
                        break
                    ctx.emit("rift_ability", monster=m.id, requires=ability["requires"])
                    run_effects(ctx, ability.get("effects", []))
        return True
    if not free:
        m.mc = 0
        ctx.emit("dropped_to_zero", character=m.id)
    return False


def active_rift_abilities(ctx: Ctx, m: Monster, defn: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in defn.get("rift_abilities", []) if rifts_match(m.rifts, a["requires"])]


def rifts_match(rifts: list[tuple[str, str]], requires: list[dict[str, str]]) -> bool:
    """Each required symbol needs its own rift; a missing colour or type matches any."""

    def fits(rift: tuple[str, str], want: dict[str, str]) -> bool:
        return want.get("colour", rift[0]) == rift[0] and want.get("type", rift[1]) == rift[1]

    def assign(i: int, free: list[tuple[str, str]]) -> bool:
        if i == len(requires):
            return True
        return any(fits(r, requires[i]) and assign(i + 1, free[:j] + free[j + 1:])
                   for j, r in enumerate(free))

    return assign(0, list(rifts))

"""Changes to a wanderer's sheet that never test: healing, restoring capacity, gaining
existence, and changed maximums (a lowered maximum health can kill, through the registry)."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness.constants import MAX_MENTAL_CAPACITY
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.state import Wanderer


def restore_health(ctx: Ctx, w: Wanderer, amount: int) -> None:
    if ctx.frozen(w) or not w.alive:
        return
    healed = min(w.wounds, amount)
    w.wounds -= healed
    if healed:
        ctx.emit("healed", wanderer=w.id, amount=healed)


def restore_mental_capacity(ctx: Ctx, w: Wanderer, amount: int) -> None:
    if ctx.frozen(w) or not w.alive:
        return
    gained = max(0, min(w.max_mc, w.mc + amount) - w.mc)
    w.mc += gained
    if gained:
        ctx.emit("capacity_restored", wanderer=w.id, amount=gained)


def gain_existence(ctx: Ctx, w: Wanderer, amount: int, *, cause: str) -> None:
    w.existence += amount
    ctx.emit("existence_gained", wanderer=w.id, amount=amount, cause=cause)


def modify_max(ctx: Ctx, w: Wanderer, *, health: int = 0, mental_capacity: int = 0,
               domain_cards: int = 0) -> None:
    if mental_capacity:
        w.max_mc = max(0, min(MAX_MENTAL_CAPACITY, w.max_mc + mental_capacity))
        w.mc = min(w.mc, w.max_mc)
    if domain_cards:
        w.domain_card_limit = max(0, w.domain_card_limit + domain_cards)
    if health:
        w.max_health = max(0, w.max_health + health)
    ctx.emit("max_changed", wanderer=w.id, health=w.max_health, mental_capacity=w.max_mc,
             domain_cards=w.domain_card_limit)
    if w.alive and w.wounds >= w.max_health:
        ctx.rules.call("wanderer_dies", ctx, w)

"""Wounds, damage, lost capacity and existence, and a wanderer's death (monsters are in
combat.py; changes that never wound are in sheet.py)."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness import condition_cards
from dmtool.engine.dawn_of_madness.constants import WITHERED, WITHERED_LIMIT, domain_text
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.finale import central_died
from dmtool.engine.dawn_of_madness.monsters import spawn_monster
from dmtool.engine.dawn_of_madness.outcome import end_stage
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.rolls import help_loop, offer_spending, start_pool
from dmtool.engine.dawn_of_madness.state import Wanderer
from dmtool.engine.dawn_of_madness.story import run_effects


def lose_health(ctx: Ctx, w: Wanderer, amount: int, *, cause: str) -> None:
    """Take `amount` wounds; existence tokens may absorb them one for one."""
    if amount <= 0 or not w.alive:
        if amount > 0 and ctx.frozen(w):
            ctx.emit("unchanged", wanderer=w.id, what="health", reason="summoned")
        return
    absorbed = 0
    if w.existence > 0:
        most = min(w.existence, amount)
        absorbed = ctx.answer("absorb", f"{w.id} may spend existence instead of taking "
                              f"{amount} wound(s)", tuple(range(most + 1)), default=0)
    if absorbed:
        w.existence -= absorbed
        ctx.emit("existence_absorbed", wanderer=w.id, amount=absorbed)
    wounds = amount - absorbed
    if wounds:
        w.wounds += wounds
        ctx.emit("wounded", wanderer=w.id, amount=wounds, cause=cause)
    if w.wounds >= w.max_health:
        die(ctx, w)


def take_damage(ctx: Ctx, w: Wanderer, colour: str, amount: int, *, source: str) -> None:
    """Damage of a colour: an optional defense test of that colour prevents one per eye
    (spheres are wild), stored eye domains of that colour prevent too, the rest wounds."""
    if amount <= 0 or not w.alive:
        lose_health(ctx, w, amount, cause=source)
        return
    prevented = 0
    ctx.emit("damage", wanderer=w.id, colour=colour, amount=amount, source=source)
    if ctx.answer("defend", f"{w.id} may take a {colour} defense test against {amount} "
                  "damage", (True, False), default=False):
        pool = start_pool(ctx, w, "defense", {colour: w.dice(colour)}, "defense test")
        help_loop(ctx, w, pool)
        blocks = {(colour, "eye"), (colour, "sphere")}.__contains__  # spheres are wild
        prevented = sum(map(blocks, pool.dice))  # True counts 1: no generator
        if prevented < amount:
            extra = offer_spending(ctx, w, pool, useful=blocks, auto=lambda stored, cards: (
                stored[:amount - prevented], []))
            prevented += len(extra)
    elif w.domains and (w.domains.get((colour, "eye")) or w.domains.get((colour, "sphere"))):
        stored = [(colour, t) for t in ("eye", "sphere") for _ in range(w.stored((colour, t)))]
        answer = ctx.answer("spend_domains", f"{w.id} may spend stored {colour} eyes",
                            default=False, accepts=lambda k, a: a in (True, False) or (
                                isinstance(a, list) and all(x in [domain_text(d) for d in stored]
                                                            for x in a)))
        chosen = stored[:amount] if answer is True else [
            tuple(x.split()) for x in (answer or [])]
        for domain in chosen:
            w.spend((domain[0], domain[1]))
        if chosen:
            ctx.emit("spent_domains", wanderer=w.id, domains=[f"{d[0]} {d[1]}" for d in chosen])
        prevented = len(chosen)
    prevented = min(prevented, amount)
    if prevented:
        ctx.emit("damage_prevented", wanderer=w.id, amount=prevented)
    lose_health(ctx, w, amount - prevented, cause=source)


def lose_mental_capacity(ctx: Ctx, w: Wanderer, amount: int, *, cause: str) -> None:
    """Capacity cannot go below zero: what cannot be lost is lost as health instead."""
    if amount <= 0 or not w.alive:
        if amount > 0 and ctx.frozen(w):
            ctx.emit("unchanged", wanderer=w.id, what="mental_capacity", reason="summoned")
        return
    taken = min(w.mc, amount)
    w.mc -= taken
    if taken:
        ctx.emit("capacity_lost", wanderer=w.id, amount=taken, cause=cause)
    if amount > taken:
        ctx.emit("capacity_overflow", wanderer=w.id, amount=amount - taken)
        lose_health(ctx, w, amount - taken, cause="mental capacity at zero")


def lose_existence(ctx: Ctx, w: Wanderer, amount: int) -> None:
    """Tokens the wanderer lacks are lost as health instead."""
    taken = min(w.existence, amount)
    w.existence -= taken
    if taken:
        ctx.emit("existence_lost", wanderer=w.id, amount=taken)
    if amount > taken:
        lose_health(ctx, w, amount - taken, cause="existence missing")


@RULES.hook("wanderer_dies")
def die(ctx: Ctx, w: Wanderer) -> None:
    """A wanderer's death: Withered card, malformation, capacity to zero, out of the game."""
    state = ctx.state
    w.alive = False
    ctx.emit("died", wanderer=w.id, shard=w.shard)
    inside = ctx.encounter_of(w.id)
    if inside is not None and inside.death_depth is None:
        # The block being read in that encounter finishes; then the encounter ends.
        inside.death_depth = max(inside.depth, 1)
    withered = w.conditions.get(WITHERED, 0) + 1
    if withered >= WITHERED_LIMIT and state.stage == "wanderer":
        w.conditions[WITHERED] = withered
        ctx.emit("condition_gained", wanderer=w.id, condition=WITHERED, count=withered)
        end_stage(ctx, "failed", "fourth_withered")
        return
    condition_cards.draw(ctx, w, WITHERED, force=True)
    w.max_health = max(0, w.max_health - 1)
    w.wounds = w.max_health
    level = w.mc
    if withered <= len(w.malformations) and w.shard is not None:
        spawn_monster(ctx, w.malformations[withered - 1], shard=w.shard, level=level,
                      why=f"death of {w.id}")
    w.mc = 0
    abomination = state.abomination
    if abomination and abomination in state.monsters and not ctx.halted():
        punishment = ctx.catalog.monster(abomination).get("death_punishment", {})
        if punishment.get("effects"):
            ctx.emit("death_punishment", abomination=abomination, wanderer=w.id)
            with ctx.acting(who=w.id, monster=abomination):
                run_effects(ctx, punishment["effects"])
    if state.stage == "finale":
        if w.id == state.central and not ctx.halted():
            central_died(ctx)
        return
    if not state.living() and not any(ctx.frozen(o) for o in state.wanderers.values()):
        end_stage(ctx, "failed", "all_wanderers_dead")

"""Health, mental capacity, existence and death (of wanderers; monsters are in combat.py)."""

from __future__ import annotations

from dmtool.engine.constants import MAX_MENTAL_CAPACITY, WITHERED, WITHERED_LIMIT, domain_text
from dmtool.engine.context import Ctx
from dmtool.engine.rolls import help_loop, offer_spending, start_pool
from dmtool.engine.state import Wanderer


def end_stage(ctx: Ctx, outcome: str, reason: str) -> None:
    """The stage ends at once (won or failed); later effects do not resolve. The end of the
    wanderer stage (the abomination card's back) is resolved when the transition finishes."""
    state = ctx.state
    if state.outcome != "ongoing":
        return
    if state.stage == "finale" and outcome == "failed":
        # The finale cannot be failed; only a conclusion ends it (the engine's reading).
        ctx.emit("not_resolved", effect="fail_stage", reason="the finale ends only in a "
                 "conclusion")
        return
    state.outcome = outcome
    state.reason = reason
    state.phase = "ended"
    if state.stage == "wanderer":
        state.wanderer_outcome = outcome
    ctx.emit("stage_" + outcome, reason=reason)


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
        prevented = sum(1 for c, f in pool.dice if c == colour and f in ("eye", "sphere"))
        if prevented < amount:
            extra = offer_spending(ctx, w, pool, useful=lambda d: d[0] == colour and d[1] in (
                "eye", "sphere"), auto=lambda stored, cards: (stored[:amount - prevented], []))
            prevented += len(extra)
    elif any(w.stored((colour, t)) for t in ("eye", "sphere")):
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


def restore_health(ctx: Ctx, w: Wanderer, amount: int) -> None:
    if ctx.frozen(w) or not w.alive:
        return
    healed = min(w.wounds, amount)
    w.wounds -= healed
    if healed:
        ctx.emit("healed", wanderer=w.id, amount=healed)


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


def lose_existence(ctx: Ctx, w: Wanderer, amount: int) -> None:
    """Tokens the wanderer lacks are lost as health instead."""
    taken = min(w.existence, amount)
    w.existence -= taken
    if taken:
        ctx.emit("existence_lost", wanderer=w.id, amount=taken)
    if amount > taken:
        lose_health(ctx, w, amount - taken, cause="existence missing")


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
        die(ctx, w)


def die(ctx: Ctx, w: Wanderer) -> None:
    """A wanderer's death: Withered card, malformation, capacity to zero, out of the game."""
    from dmtool.engine.monsters import spawn_monster
    from dmtool.engine.story import run_effects

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
    from dmtool.engine.condition_cards import draw

    draw(ctx, w, WITHERED, force=True)
    w.max_health = max(0, w.max_health - 1)
    w.wounds = w.max_health
    level = w.mc
    if withered <= len(w.malformations) and w.shard is not None:
        spawn_monster(ctx, w.malformations[withered - 1], shard=w.shard, level=level,
                      why=f"death of {w.id}")
    w.mc = 0
    abomination = state.abomination
    if abomination and abomination in state.monsters and not ctx.halted:
        punishment = ctx.catalog.monster(abomination).get("death_punishment", {})
        if punishment.get("effects"):
            ctx.emit("death_punishment", abomination=abomination, wanderer=w.id)
            with ctx.acting(who=w.id, monster=abomination):
                run_effects(ctx, punishment["effects"])
    if state.stage == "finale":
        if w.id == state.central and not ctx.halted:
            from dmtool.engine.finale import central_died

            central_died(ctx)
        return
    if not state.living() and not any(ctx.frozen(o) for o in state.wanderers.values()):
        end_stage(ctx, "failed", "all_wanderers_dead")

"""Combat: attacks on domain rifts, monster wounds and kills, confrontations."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness.constants import (
    COLOURS,
    Domain,
    count_colours,
    domain_text,
    domain_texts,
    domains_from_mapping,
)
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.rolls import (
    help_loop,
    offer_spending,
    requirement_test,
    start_pool,
)
from dmtool.engine.dawn_of_madness.sheet import gain_existence
from dmtool.engine.dawn_of_madness.state import Monster, Wanderer


def roll_rifts(ctx: Ctx, m: Monster, why: str) -> None:
    """Three domain rifts from dice in the sentience colours of the monster's shard."""
    counts = count_colours(ctx.catalog.shards[m.shard]["sentience"])
    faces = ctx.dice.d6(ctx.state, m.id, counts, why)
    m.rifts = [(c, f) for c in COLOURS for f in faces.get(c, [])]
    ctx.emit("rifts", monster=m.id, rifts=domain_texts(m.rifts), why=why)


def wound_monster(ctx: Ctx, m: Monster, amount: int, *, by: str | None, cause: str) -> bool:
    """Deal damage to a monster; returns True if it died (and was removed)."""
    if amount <= 0:
        return False
    m.wounds += amount
    ctx.emit("monster_wounded", monster=m.id, amount=amount, by=by, cause=cause)
    if m.wounds >= m.max_health:
        kill_monster(ctx, m, by=by)
        return True
    return False


def kill_monster(ctx: Ctx, m: Monster, *, by: str | None) -> None:
    """Reward the killer, take the figure off, and put the card where it belongs."""
    state = ctx.state
    card = ctx.catalog.monster(m.id)
    del state.monsters[m.id]
    if m.id not in state.killed:  # the history of kills, for monster_killed conditions
        state.killed.append(m.id)
    ctx.emit("monster_killed", monster=m.id, kind=m.kind, by=by)
    if m.kind == "abomination":
        state.abomination_killed = True
    elif m.kind == "terror" and card.get("wanderer") != state.central:
        # Common terrors (and other wanderers' terrors) go under the terror deck.
        state.decks.setdefault("terror", []).append(m.id)
    reward = card.get("existence_reward", 0) if m.kind != "abomination" else 0
    killer = state.wanderers.get(by) if by else None
    if reward and killer is not None:
        gain_existence(ctx, killer, reward, cause=f"killed {m.id}")


def attack(ctx: Ctx, w: Wanderer, m: Monster, rift: Domain) -> None:
    """An attack test on one rift: each matching die (spheres wild in colour) deals 1 damage,
    matching stored domains and domain cards add 1 each; a rift breaks only on a wound."""
    colour, kind = rift
    pool = start_pool(ctx, w, "attack", {colour: w.dice(colour)}, "attack test")
    help_loop(ctx, w, pool)

    matches = {(colour, kind), (colour, "sphere")}.__contains__  # spheres are wild
    hits = sum(map(matches, pool.dice))  # True counts 1: no generator
    if not ctx.halted():
        extra = offer_spending(ctx, w, pool, useful=matches,
                               auto=lambda stored, cards: (stored, [c for c, _ in cards]))
        hits += sum(map(matches, extra))
    ctx.emit("attack", wanderer=w.id, monster=m.id, rift=domain_text(rift), damage=hits)
    if hits <= 0 or ctx.halted():
        return
    if wound_monster(ctx, m, hits, by=w.id, cause="attack"):
        return
    m.rifts.remove(rift)
    ctx.emit("rift_broken", monster=m.id, rift=domain_text(rift))
    if not m.rifts:
        roll_rifts(ctx, m, "rift refresh")


def confront(ctx: Ctx, w: Wanderer, abomination: Monster) -> None:
    """A confrontation test against the active card: every sentience colour is rolled; one
    unexhausted coda's back may add dice (and is exhausted either way); a pass wounds once."""
    state = ctx.state
    number = state.confrontation["active"]
    card = ctx.catalog.confrontation_card(abomination.id, number)
    need = domains_from_mapping(card["required"])
    passed, pool = requirement_test(ctx, w, need, kind="confront", every_colour=True,
                                    why="confrontation test")
    if pool.coda_used is not None and pool.coda_used not in w.exhausted:
        w.exhausted.append(pool.coda_used)
        ctx.emit("coda_exhausted", wanderer=w.id, coda=pool.coda_used)
    if not passed or ctx.halted():
        return
    killed = wound_monster(ctx, abomination, card["damage"], by=w.id, cause="confrontation")
    if card.get("existence_reward"):
        gain_existence(ctx, w, card["existence_reward"], cause="confrontation")
    if not killed:
        reveal_confrontation(ctx)


def reveal_confrontation(ctx: Ctx) -> None:
    """The next confrontation card goes on top of the last; an empty deck is reshuffled
    from the revealed pile first."""
    conf = ctx.state.confrontation
    if conf["active"] is not None:
        conf["discard"].insert(0, conf["active"])
        conf["active"] = None
    if not conf["deck"]:
        conf["deck"] = ctx.dice.shuffle(ctx.state, "confrontation", list(conf["discard"]))
        conf["discard"] = []
        ctx.emit("deck_reshuffled", deck="confrontation")
    if conf["deck"]:
        conf["active"] = conf["deck"].pop(0)
        ctx.emit("confrontation_revealed", card=conf["active"])

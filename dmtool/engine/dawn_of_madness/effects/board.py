"""Effects on the board: tokens, spawning monsters and encounter cards, damage to monsters."""

from __future__ import annotations

from typing import Any

from dmtool.engine.dawn_of_madness.combat import wound_monster
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.devour import resolve_if_in_space
from dmtool.engine.dawn_of_madness.effects import effect
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.monsters import spawn_monster
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.state import Wanderer


@effect("place_token")
def _place_token(ctx: Ctx, spec: dict[str, Any]) -> None:
    shard = place(ctx, "token", spec.get("shard", "current"))
    tokens = ctx.state.shards[shard].tokens
    tokens[spec["token"]] = tokens.get(spec["token"], 0) + 1
    ctx.emit("token_placed", token=spec["token"], shard=shard)


@effect("remove_token")
def _remove_token(ctx: Ctx, spec: dict[str, Any]) -> None:
    shard = place(ctx, "token", spec.get("shard", "current"))
    tokens = ctx.state.shards[shard].tokens
    if tokens.get(spec["token"], 0) > 0:
        tokens[spec["token"]] -= 1
        if not tokens[spec["token"]]:
            del tokens[spec["token"]]
        ctx.emit("token_removed", token=spec["token"], shard=shard)


@effect("spawn_terror")
def _spawn_terror(ctx: Ctx, spec: dict[str, Any]) -> None:
    used: set[int] = set()
    for _ in range(spec.get("count", 1)):
        if ctx.halted():
            return
        card = spec["terror"]
        if card == "random":
            deck = ctx.state.decks.setdefault("terror", [])
            if not deck:
                ctx.emit("not_resolved", effect="spawn_terror", reason="terror deck empty")
                return
            card = deck.pop(0)
        avoid = used if spec.get("different_shards") else None
        m = spawn_monster(ctx, card, shard=spec.get("shard", "random"), avoid=avoid)
        if m is not None:
            used.add(m.shard)


@effect("spawn_malformation")
def _spawn_malformation(ctx: Ctx, spec: dict[str, Any]) -> None:
    whose = spec.get("wanderer", "active")
    w: Wanderer | None
    if whose == "active":
        w = ctx.need_resolver("spawn_malformation")
    else:
        w = ctx.state.wanderers.get(ctx.state.central if whose == "central" else whose)
        if w is None:
            raise EngineFault(f"spawn_malformation names the unknown wanderer '{whose}'")
    number = spec["number"]
    if number > len(w.malformations):
        raise EngineFault(f"{w.id} has no malformation number {number}")
    spawn_monster(ctx, w.malformations[number - 1], shard=spec.get("shard", "current"))


@effect("spawn_encounter")
def _spawn_encounter(ctx: Ctx, spec: dict[str, Any]) -> None:
    card = spec["card"]
    shard = place(ctx, card, spec.get("shard", "random"))
    ctx.state.shards[shard].cards.append(card)
    if card not in ctx.state.spawned_cards:
        ctx.state.spawned_cards.append(card)
    ctx.emit("encounter_spawned", card=card, shard=shard)


@effect("spawn_final_boss")
def _spawn_final_boss(ctx: Ctx, spec: dict[str, Any]) -> None:
    spawn_monster(ctx, spec["boss"], shard=spec.get("shard", "random"))


@effect("damage_monster")
def _damage_monster(ctx: Ctx, spec: dict[str, Any]) -> None:
    name = spec["monster"]
    if name == "abomination":
        name = ctx.state.abomination or ""
    m = ctx.state.monsters.get(name)
    if m is None:
        ctx.emit("not_resolved", effect="damage_monster", reason=f"{name} is not on the board")
        return
    died = wound_monster(ctx, m, spec["amount"], by=ctx.who, cause="effect")
    if died:
        return


@effect("resolve_devour_card")
def _resolve_devour_card(ctx: Ctx, _: Any) -> None:
    resolve_if_in_space(ctx, ctx.need_resolver("resolve_devour_card"))

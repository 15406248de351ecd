"""Conditions of the content vocabulary, evaluated against the state and the resolver."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.logic import register_combinators
from dmtool.engine.dawn_of_madness.constants import domains_from_mapping, satisfies
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.registry import RULES

condition = RULES.condition
register_combinators(RULES)


def _w(ctx: Ctx, name: str) -> Any:
    return ctx.need_resolver(name)


def _monster_id(ctx: Ctx, ref: str) -> str:
    return (ctx.state.abomination or "") if ref == "abomination" else ref


@condition("has_coda")
def _has_coda(ctx: Ctx, coda: str) -> bool:
    return coda in _w(ctx, "has_coda").codas


@condition("has_condition")
def _has_condition(ctx: Ctx, kind: str) -> bool:
    return _w(ctx, "has_condition").conditions.get(kind, 0) > 0


@condition("has_domain_card")
def _has_domain_card(ctx: Ctx, card: str) -> bool:
    return card in _w(ctx, "has_domain_card").domain_cards


@condition("has_domain")
def _has_domain(ctx: Ctx, domains: dict[str, list[str]]) -> bool:
    w = _w(ctx, "has_domain")
    stored = [d for d, n in w.domains.items() for _ in range(n)]
    return satisfies(stored, domains_from_mapping(domains))


@condition("token_on_shard")
def _token_on_shard(ctx: Ctx, spec: dict[str, Any]) -> bool:
    where = spec.get("shard", "current")
    if where == "random":
        raise EngineFault("token_on_shard cannot look at a random shard")
    return ctx.state.shards[place(ctx, "condition", where)].has(spec["token"])


@condition("score_at_least")
def _score_at_least(ctx: Ctx, spec: dict[str, int]) -> bool:
    scores = ctx.state.scores
    for ending, n in spec.items():  # noqa: SIM110 (a loop: a generator is resumed from C)
        if scores.get(ending, 0) < n:
            return False
    return True


@condition("round_at_least")
def _round_at_least(ctx: Ctx, n: int) -> bool:
    return ctx.state.round >= n


@condition("round_at_most")
def _round_at_most(ctx: Ctx, n: int) -> bool:
    return ctx.state.round <= n


@condition("visited")
def _visited(ctx: Ctx, entry: int) -> bool:
    return entry in ctx.state.visited


@condition("monster_on_board")
def _on_board(ctx: Ctx, ref: str) -> bool:
    return _monster_id(ctx, ref) in ctx.state.monsters


@condition("monster_killed")
def _killed(ctx: Ctx, ref: str) -> bool:
    mid = _monster_id(ctx, ref)
    return mid in ctx.state.killed or (mid == ctx.state.abomination and
                                       ctx.state.abomination_killed)


@condition("sentience_at_least")
def _sentience_at_least(ctx: Ctx, spec: dict[str, int]) -> bool:
    w = _w(ctx, "sentience_at_least")
    return all(w.sentience.get(c, 0) >= n for c, n in spec.items())


@condition("existence_at_least")
def _existence_at_least(ctx: Ctx, n: int) -> bool:
    return _w(ctx, "existence_at_least").existence >= n


@condition("wounds_at_least")
def _wounds_at_least(ctx: Ctx, n: int) -> bool:
    return _w(ctx, "wounds_at_least").wounds >= n


@condition("trapped")
def _trapped(ctx: Ctx, flag: bool) -> bool:
    return bool(_w(ctx, "trapped").trapped) == flag


@condition("is_central")
def _is_central(ctx: Ctx, flag: bool) -> bool:
    return (_w(ctx, "is_central").id == ctx.state.central) == flag


@condition("wanderers_at_least")
def _wanderers_at_least(ctx: Ctx, n: int) -> bool:
    return sum(1 for w in ctx.state.wanderers.values() if ctx.counts_alive(w)) >= n

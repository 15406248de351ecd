"""Hydras and their Hydra's Domains (R51): a Hydra cannot be wounded or killed while its
Domain (the standee of its colour) is on the board; killing the Domain makes its Hydra act
once; the ends of their activations spread filth."""

from __future__ import annotations

from typing import Any

from dmtool.engine.deep_madness import figures, filth, special
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Figure
from dmtool.engine.deep_madness.registry import RULES

HYDRA, DOMAIN, DEEP_ONE = "hydra", "hydras-domain", "deep-one"


def domain_of(ctx: Ctx, hydra: Figure) -> Figure | None:
    return next((f for f in ctx.state.figures.values()
                 if f.monster == DOMAIN and f.colour == hydra.colour), None)


def hydra_of(ctx: Ctx, domain: Figure) -> Figure | None:
    return next((f for f in ctx.state.figures.values()
                 if f.monster == HYDRA and f.colour == domain.colour), None)


@RULES.hook(f"can_wound:{HYDRA}")
def hydra_can_be_wounded(ctx: Ctx, hydra: Figure) -> bool:
    return domain_of(ctx, hydra) is None


@RULES.hook(f"may_mark:{HYDRA}")
def hydra_may_be_marked(ctx: Ctx, hydra: Figure) -> bool:
    """Regan Waite's mark finds no Hydra whose Domain still stands."""
    return domain_of(ctx, hydra) is None


@RULES.hook(f"colour:{DOMAIN}")
def domain_colour(ctx: Ctx) -> str | None:
    """A Hydra's Domain spawned right after a Hydra is that Hydra's own."""
    spawned = ctx.state.figures.get(ctx.figure or "")
    return spawned.colour if spawned is not None and spawned.monster == HYDRA else None


@RULES.hook(f"max_health:{DOMAIN}")
def domain_max_health(ctx: Ctx) -> int | None:
    value = ctx.catalog.fact("Hydra's Domain", "max_health")
    return int(value) if value is not None else None


@RULES.hook(f"killed:{DOMAIN}")
def domain_killed(ctx: Ctx, domain: Figure, by: str | None) -> None:
    hydra = hydra_of(ctx, domain)
    if hydra is None:
        ctx.emit("not_resolved", effect="activate Hydra", reason=f"no Hydra of {domain.colour}")
        return
    ctx.emit("activated", figure=hydra.id, why=f"{domain.id} was killed")
    hydra_activation_ends(ctx, hydra)
    special.end_of_activation(ctx, figure=hydra)


@RULES.hook(f"killed:{HYDRA}")
def hydra_killed(ctx: Ctx, hydra: Figure, by: str | None) -> None:
    killer = ctx.state.investigators.get(by or "")
    if killer is not None and not killer.infected and filth.in_use(ctx):
        filth.discard_face_down_filth(ctx, killer)


@RULES.hook(f"end_activation:figure:{HYDRA}")
def hydra_activation_ends(ctx: Ctx, hydra: Figure) -> None:
    """A Deep One spawns in the Hydra's space (every Rise of Dagon chapter prints it), then
    each investigator in the Hydra's sight takes a filth card."""
    if DEEP_ONE in ctx.catalog.monsters:
        figures.spawn(ctx, DEEP_ONE, space=hydra.space)
    board, state = ctx.catalog.board, ctx.state
    for inv in list(state.living()):
        if inv.space is not None and board.line_of_sight(hydra.space, inv.space, viewer="hydra",
                                                         flooded=state.flooded):
            filth.gain_filth_card(ctx, inv, cause=f"in {hydra.id}'s sight")


@RULES.hook(f"end_activation:figure:{DOMAIN}")
def domain_activation_ends(ctx: Ctx, domain: Figure) -> None:
    for inv in list(ctx.state.living()):
        if inv.space == domain.space:
            filth.gain_filth_card(ctx, inv, cause=f"in {domain.id}'s space")


@RULES.hook(f"figures:{DOMAIN}")
def domain_standees(expansion_rules: dict[str, object]) -> int | None:
    """One standee per colour pair (the pair's other marker sits in its Hydra's base)."""
    rules: Any = expansion_rules.get("rules", []) or []
    for rule in rules:
        if isinstance(rule, dict) and rule.get("title") == "Hydra's Domain":
            pairs = rule.get("facts", {}).get("colour_pairs")
            return int(pairs) if pairs is not None else None
    return None


def pair_colours(_: object, size: int) -> list[str | None]:
    """The colours of the Hydra and Hydra's Domain pairs (the rulebook names none)."""
    return [f"pair-{n}" for n in range(1, size + 1)]


RULES.hook(f"colours:{HYDRA}")(pair_colours)
RULES.hook(f"colours:{DOMAIN}")(pair_colours)

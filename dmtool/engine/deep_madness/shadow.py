"""Shadow of Filth (R54): each figure's coloured base ties it to one investigator, whom it
treats as the only investigator; only that investigator may attack it; killed, it spawns
again at once."""

from __future__ import annotations

from dmtool.engine.deep_madness import figures, filth
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Figure, Investigator
from dmtool.engine.deep_madness.registry import RULES

SHADOW = "shadow-of-filth"


def owner(ctx: Ctx, shadow: Figure) -> Investigator | None:
    return next((i for i in ctx.state.investigators.values() if i.colour == shadow.colour),
                None)


@RULES.hook(f"targets:{SHADOW}")
def shadow_targets(ctx: Ctx, shadow: Figure) -> list[Investigator]:
    mine = owner(ctx, shadow)
    return [mine] if mine is not None and mine.alive else []


@RULES.hook(f"colour:{SHADOW}")
def shadow_colour(ctx: Ctx) -> str | None:
    """An investigator's own Shadow spawns for them; otherwise the players pick."""
    inv = ctx.state.investigators.get(ctx.who or "")
    return inv.colour if inv is not None else None


@RULES.hook(f"may_attack:{SHADOW}")
def may_attack_shadow(ctx: Ctx, shadow: Figure, inv: Investigator) -> bool:
    return shadow.colour is not None and shadow.colour == inv.colour


@RULES.hook(f"killed:{SHADOW}")
def shadow_killed(ctx: Ctx, shadow: Figure, by: str | None) -> None:
    killer = ctx.state.investigators.get(by or "")
    if killer is not None and killer.infected and killer.colour == shadow.colour:
        filth.discard_filth_token(ctx, killer)
    ctx.emit("respawning", figure=shadow.id)
    figures.spawn(ctx, SHADOW, colour=shadow.colour)


@RULES.hook(f"colours:{SHADOW}")
def shadow_colours(state: object, size: int) -> list[str | None]:
    """The coloured bases: the investigators' colours first, then unclaimed ones."""
    taken = [i.colour for i in getattr(state, "investigators", {}).values()]
    spare = [f"base-{n}" for n in range(1, size + 1)]
    colours: list[str | None] = list(taken[:size])
    colours += spare[:size - len(colours)]
    return colours

"""Where something spawns or moves to: a named shard, the resolver's, or the otherworld die."""

from __future__ import annotations

from typing import Any

from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.errors import EngineFault


def place(ctx: Ctx, who: str, shard: Any, *, avoid: set[int] | None = None) -> int:
    """A shard for something spawning: a number as given, 'current' for the resolver's (or
    acting monster's) shard, 'random' for the otherworld die, rerolled onto `avoid`."""
    if isinstance(shard, int):
        return shard
    if shard == "current":
        m = ctx.acting_monster()
        if m is not None and ctx.who is None:
            return m.shard
        w = ctx.resolver()
        if w is not None and w.shard is not None:
            return w.shard
    for _ in range(1000):
        rolled = ctx.dice.d16(ctx.state, who, "placement")
        if not avoid or rolled not in avoid:
            return rolled
    raise EngineFault("no free shard could be rolled")

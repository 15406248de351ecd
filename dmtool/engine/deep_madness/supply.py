"""Taking pieces from a component's supply (its pool) and giving them back; a take from an
empty pool is recorded as a shortfall, which some losing conditions watch for."""

from __future__ import annotations

from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Piece


def take(ctx: Ctx, component: str, *, colour: str | None = None, why: str = "gain") -> Piece | None:
    """One piece of the component: unlimited when no manifest counts it, else from its pool
    (a colour asked for, or the players' pick among the colours left)."""
    pool = ctx.state.supply.get(component)
    if pool is None:
        return Piece(component, colour)
    left = [p for p in pool if colour is None or p.colour == colour]
    if not left:
        short = {"component": component, "from": "pool"}
        ctx.state.shortfalls.append(short)
        ctx.emit("shortfall", **short, why=why)
        return None
    colours = sorted({str(p.colour) for p in left if p.colour is not None})
    piece = left[0]
    if len(colours) > 1:
        picked = ctx.answer("colour", f"Which colour of {component} is taken?", tuple(colours))
        piece = next(p for p in left if p.colour == picked)
    pool.remove(piece)
    return piece


def give_back(ctx: Ctx, piece: Piece) -> None:
    """A discarded piece returns to its pool (an unlimited component has none)."""
    pool = ctx.state.supply.get(piece.component)
    if pool is not None:
        pool.append(Piece(piece.component, piece.colour))


def remove_from_game(ctx: Ctx, piece: Piece) -> None:
    state = ctx.state
    state.removed[piece.component] = state.removed.get(piece.component, 0) + 1
    ctx.emit("removed_from_game", component=piece.component, colour=piece.colour)


def take_tokens(ctx: Ctx, component: str, amount: int) -> int:
    """Up to `amount` identical tokens from a pool; how many there were (a shortfall is
    recorded when the pool cannot give them all)."""
    got = 0
    for _ in range(amount):
        if take(ctx, component, why="tokens") is None:
            break
        got += 1
    return got


def return_tokens(ctx: Ctx, component: str, amount: int) -> None:
    for _ in range(amount):
        give_back(ctx, Piece(component))

"""Monster figures: spawning from the reserve (where no place is named, on the spawn space of
the room on top of the devoured deck), wounds and kills (rules about particular monsters
join through the registry's hooks), movement toward a target, and killed investigators."""

from __future__ import annotations

from dmtool.engine.deep_madness import special
from dmtool.engine.deep_madness.context import Ctx
from dmtool.engine.deep_madness.records import Figure, Investigator

DEVOURED_DECK = "devoured"


def spawn_space(ctx: Ctx) -> str | None:
    """'Spawning without a location': the spawn space of the room whose card tops the
    devoured deck; that card then goes under the deck."""
    deck = ctx.state.decks.get(DEVOURED_DECK, [])
    if not deck:
        return None
    room = deck.pop(0)
    deck.append(room)
    return ctx.catalog.board.spawn_spaces.get(int(room))


def spawn(ctx: Ctx, monster: str, *, space: str | None = None,
          colour: str | None = None) -> Figure | None:
    """Put one figure of a monster on the board from its reserve; None (and a recorded
    shortfall) when the reserve holds none. A monster with no counted reserve is unlimited."""
    state = ctx.state
    rule = ctx.rules.hooks.get(f"colour:{monster}")
    if colour is None and rule is not None:
        colour = rule(ctx)
    reserve = state.reserve.get(monster)
    if reserve is not None:
        left = [c for c in reserve if colour is None or c == colour]
        if not left:
            short = {"monster": monster, "from": "reserve"}
            state.shortfalls.append(short)
            ctx.emit("shortfall", **short, why="spawn")
            return None
        options = sorted({c for c in left if c is not None})
        if colour is None and len(options) > 1:
            colour = ctx.answer("figure", f"Which {monster} figure spawns?", tuple(options))
        chosen = colour if colour is not None else left[0]
        reserve.remove(chosen)
        colour = chosen
    where = space if space is not None else (spawn_space(ctx)
                                             or special.fallback_spawn_space(ctx))
    if where is None:
        ctx.emit("not_resolved", effect="spawn", reason=f"no place for {monster}: the devoured "
                 "deck is empty or its room has no spawn space")
        if reserve is not None:
            reserve.append(colour)
        return None
    fid = _figure_id(ctx, monster, colour)
    figure = Figure(fid, monster, where, colour)
    state.figures[fid] = figure
    ctx.emit("figure_spawned", figure=fid, monster=monster, space=where, colour=colour)
    return figure


def _figure_id(ctx: Ctx, monster: str, colour: str | None) -> str:
    base = f"{monster}-{colour}" if colour is not None else monster
    n, fid = 1, base
    while fid in ctx.state.figures:
        n += 1
        fid = f"{base}-{n}"
    return fid


def max_health(ctx: Ctx, figure: Figure) -> int | None:
    rule = ctx.rules.hooks.get(f"max_health:{figure.monster}")
    if rule is not None:
        found: int | None = rule(ctx)
        return found
    kind = ctx.catalog.monsters.get(figure.monster)
    return kind.max_health if kind else None


def wound(ctx: Ctx, figure: Figure, amount: int, *, by: str | None) -> bool:
    """Wounds on a figure; a figure that reaches its maximum health dies. Returns True if it
    died. Some monsters cannot take wounds at some times (a rule says through a hook)."""
    guard = ctx.rules.hooks.get(f"can_wound:{figure.monster}")
    if guard is not None and not guard(ctx, figure):
        ctx.emit("not_wounded", figure=figure.id, amount=amount, by=by)
        return False
    barred = special.wound_barred(ctx, figure, by)
    if barred is not None:
        ctx.emit("not_wounded", figure=figure.id, amount=amount, by=by, rule=barred)
        return False
    figure.wounds += amount
    ctx.emit("figure_wounded", figure=figure.id, amount=amount, by=by, wounds=figure.wounds)
    top = max_health(ctx, figure)
    if top is not None and figure.wounds >= top:
        return kill(ctx, figure, by=by)
    return False


def kill(ctx: Ctx, figure: Figure, *, by: str | None) -> bool:
    """The figure dies and its figure goes back to the reserve; then whatever follows a
    kill of that monster (its hook)."""
    guard = ctx.rules.hooks.get(f"can_wound:{figure.monster}")
    if guard is not None and not guard(ctx, figure):
        ctx.emit("not_killed", figure=figure.id, by=by)
        return False
    barred = special.wound_barred(ctx, figure, by)
    if barred is not None:
        ctx.emit("not_killed", figure=figure.id, by=by, rule=barred)
        return False
    state = ctx.state
    del state.figures[figure.id]
    if figure.monster in state.reserve:
        state.reserve[figure.monster].append(figure.colour)
    state.killed[figure.monster] = state.killed.get(figure.monster, 0) + 1
    ctx.emit("figure_killed", figure=figure.id, monster=figure.monster, by=by,
             colour=figure.colour)
    after = ctx.rules.hooks.get(f"killed:{figure.monster}")
    if after is not None:
        after(ctx, figure, by)
    special.at_moment(ctx, "figure-killed", monster=figure.monster)
    return True


def target_of(ctx: Ctx, figure: Figure) -> list[Investigator]:
    """The investigators a monster may go for: a rule may narrow them (a Shadow of Filth
    sees only its own investigator); otherwise every living investigator."""
    rule = ctx.rules.hooks.get(f"targets:{figure.monster}")
    if rule is not None:
        found: list[Investigator] = rule(ctx, figure)
        return found
    return ctx.state.living()


def move_toward(ctx: Ctx, figure: Figure, goals: list[str], spaces: int) -> None:
    """Step `spaces` times toward the nearest goal space by voluntary movement (never
    across a red line); equally good steps are the players' choice."""
    board = ctx.catalog.board
    start = figure.space
    for _ in range(spaces):
        distances = [(board.distance(figure.space, g), g) for g in goals]
        reachable = [(d, g) for d, g in distances if d is not None]
        if not reachable or min(d for d, _ in reachable) == 0:
            break  # nothing to reach, or already there
        near = min(d for d, _ in reachable)
        options = sorted({s for d, g in reachable if d == near
                          for s in board.steps_toward(figure.space, g)})
        figure.space = options[0] if len(options) == 1 else ctx.answer(
            "step", f"{figure.id} can step onto several spaces", tuple(options))
    if figure.space != start:
        ctx.emit("figure_moved", figure=figure.id, **{"from": start}, to=figure.space)


def kill_investigator(ctx: Ctx, inv: Investigator, *, cause: str) -> None:
    if not inv.alive:
        return
    inv.alive = False
    ctx.state.dead.append(inv.id)
    ctx.emit("investigator_killed", investigator=inv.id, cause=cause)


def wound_investigator(ctx: Ctx, inv: Investigator, amount: int, *, cause: str) -> None:
    if amount <= 0 or not inv.alive:
        return
    inv.wounds += amount
    ctx.emit("investigator_wounded", investigator=inv.id, amount=amount, cause=cause)
    if inv.max_health is not None and inv.wounds >= inv.max_health:
        kill_investigator(ctx, inv, cause="wounds")

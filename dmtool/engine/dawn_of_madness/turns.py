"""Turn order on the mental capacity track: who may act next."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dmtool.engine.dawn_of_madness.records import Monster
    from dmtool.engine.dawn_of_madness.state import GameState


def track(state: GameState) -> list[tuple[str, bool, int]]:
    """(id, is wanderer, mental capacity) of every character above zero on the track."""
    out = [(w.id, True, w.mc) for w in state.wanderers.values() if w.alive and w.mc > 0]
    out += [(m.id, False, m.mc) for m in state.monsters.values() if m.mc > 0]
    return out


def active_characters(state: GameState) -> list[str]:
    """The characters that may be the next active character.

    The highest tracker acts; on a tie, monsters go before wanderers (the players pick which
    monster, or which wanderer). Empty when everyone is at zero, or outside the action phase.
    (Asked several times a step, so it walks the track once without building it.)
    """
    if state.phase != "action" or state.outcome != "ongoing":
        return []
    top, monsters = 0, []
    for m in state.monsters.values():
        mc = m.mc
        if mc > top:
            top, monsters = mc, [m.id]
        elif mc == top and top:
            monsters.append(m.id)
    level, wanderers = top, []
    for w in state.wanderers.values():
        mc = w.mc
        if mc < level or mc <= 0 or not w.alive:
            continue
        if mc > level:
            level, wanderers = mc, [w.id]
        else:
            wanderers.append(w.id)
    return wanderers if level > top else monsters


def monster_may_act(state: GameState, m: Monster) -> bool:
    """Whether `m` is among `active_characters(state)`, without listing them (asked on every
    monster turn): its tracker is the highest above zero, no living wanderer's is higher
    (a tie goes to the monsters)."""
    mc = m.mc
    if state.phase != "action" or state.outcome != "ongoing" or mc <= 0:
        return False
    for o in state.monsters.values():
        if o.mc > mc:
            return False
    for w in state.wanderers.values():  # noqa: SIM110 (a loop, not a generator: hot path)
        if w.alive and w.mc > mc:
            return False
    return True


def phase_over(state: GameState) -> bool:
    """Every tracker is at zero (the dead are off the track)."""
    # Plain loops: asked after every action, and a generator per call costs more than the walk.
    for m in state.monsters.values():
        if m.mc > 0:
            return False
    for w in state.wanderers.values():  # noqa: SIM110 (a loop, not a generator: see above)
        if w.alive and w.mc > 0:
            return False
    return True

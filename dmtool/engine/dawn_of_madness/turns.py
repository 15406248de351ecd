"""Turn order on the mental capacity track: who may act next."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
    """
    if state.phase != "action" or state.outcome != "ongoing":
        return []
    chars = track(state)
    if not chars:
        return []
    top = max(mc for _, _, mc in chars)
    level = [(cid, is_w) for cid, is_w, mc in chars if mc == top]
    monsters = [cid for cid, is_w in level if not is_w]
    return monsters if monsters else [cid for cid, _ in level]


def phase_over(state: GameState) -> bool:
    return not track(state)

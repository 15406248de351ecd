"""A counter-based generator (splitmix64) whose whole state is one int kept in the game state."""

from __future__ import annotations

from typing import Final, TypeVar

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_SPAN: Final = 1 << 64

T = TypeVar("T")

# below(n) keeps outputs under the largest multiple of n (no modulo bias). Games ask for
# small n thousands of times each (dice, shuffles, players' picks): their limits are
# worked out once.
_LIMITS: Final = [0] + [_SPAN - _SPAN % n for n in range(1, 257)]


def next_u64(state: int) -> tuple[int, int]:
    """(new state, 64-bit output) for the splitmix64 step."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, uniform integer in [0, n)) by rejection, so there is no modulo bias.

    The splitmix64 step is written out here rather than called: this is the engine's
    innermost loop."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _LIMITS[n] if n <= 256 else _SPAN - _SPAN % n
    while True:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def below_each(state: int, n: int, count: int) -> tuple[int, list[int]]:
    """(new state, `count` successive `below(state, n)` values): the same draws as calling
    `below` that many times (a roll of several dice), without a call per value."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _LIMITS[n] if n <= 256 else _SPAN - _SPAN % n
    out: list[int] = []
    while len(out) < count:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            out.append(z % n)
    return state, out


def picks(state: int, options: tuple[T, ...], count: int) -> tuple[int, list[T]]:
    """(new state, `count` uniform picks from options): `options[below(state, n)]` drawn
    `count` times (one call for a roll of several dice)."""
    state, drawn = below_each(state, len(options), count)
    return state, [options[i] for i in drawn]


def shuffled(state: int, items: list[T]) -> tuple[int, list[T]]:
    """(new state, a Fisher-Yates shuffled copy of items): the draws of `below(state, i + 1)`
    for i from the last index down, with `below` written out (a game shuffles its decks,
    dozens of cards each, at setup and on every reshuffle)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n <= 256 else _SPAN - _SPAN % n
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return state, out

"""A counter-based generator (splitmix64) whose whole state is one int kept in the game state."""

from __future__ import annotations

from typing import Final, TypeVar

from mypy_extensions import i64

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


# The same splitmix64, worked on two 32-bit halves: every intermediate value stays under
# 2**51, so compiled with mypyc (`i64`: a plain int when interpreted) each operation is a
# machine-word operation rather than an arbitrary-precision integer made and freed (a
# 64-bit value times a 64-bit constant does not fit in a word; in 16-bit pieces it does).
_M32: Final = 0xFFFFFFFF
_GOLDEN_HI: Final = _GOLDEN >> 32
_GOLDEN_LO: Final = _GOLDEN & 0xFFFFFFFF
# below(n) for n <= 256, by halves: the limit's high and low words, and 2**32 % n.
_LIMIT_HI: Final = [limit >> 32 for limit in _LIMITS]
_LIMIT_LO: Final = [limit & 0xFFFFFFFF for limit in _LIMITS]
_WORD_MOD: Final = [0] + [(1 << 32) % n for n in range(1, 257)]


def _times(h: i64, lo: i64, mh: i64, ml: i64) -> tuple[i64, i64]:
    """(high word, low word) of (h, lo) * (mh, ml) mod 2**64, in 32-bit words."""
    ml0, ml1 = ml & 0xFFFF, ml >> 16
    p1 = lo * ml1
    low = lo * ml0 + ((p1 & 0xFFFF) << 16)
    high = ((p1 >> 16) + (low >> 32)
            + h * ml0 + (((h * ml1) & 0xFFFF) << 16)
            + lo * (mh & 0xFFFF) + (((lo * (mh >> 16)) & 0xFFFF) << 16))
    return high & _M32, low & _M32


def _draw(h: i64, lo: i64, n: int) -> tuple[i64, i64, int]:
    """(state's high word, low word, value): `below` on a state kept in 32-bit words."""
    limit = _SPAN - _SPAN % n if n > 256 else 0  # beyond the tables: the whole limit
    while True:
        lo += _GOLDEN_LO
        h = (h + _GOLDEN_HI + (lo >> 32)) & _M32
        lo &= _M32
        zh = h ^ (h >> 30)
        zl = lo ^ (((h & 0x3FFFFFFF) << 2) | (lo >> 30))
        zh, zl = _times(zh, zl, 0xBF58476D, 0x1CE4E5B9)
        zl ^= ((zh & 0x7FFFFFF) << 5) | (zl >> 27)
        zh ^= zh >> 27
        zh, zl = _times(zh, zl, 0x94D049BB, 0x133111EB)
        zl ^= ((zh & 0x7FFFFFFF) << 1) | (zl >> 31)
        zh ^= zh >> 31
        if n <= 256:
            limit_hi: i64 = _LIMIT_HI[n]
            limit_lo: i64 = _LIMIT_LO[n]
            if zh < limit_hi or (zh == limit_hi and zl < limit_lo):
                word_mod: i64 = _WORD_MOD[n]
                size: i64 = n
                return h, lo, int((zh * word_mod + zl) % size)
        else:
            z = (int(zh) << 32) | int(zl)
            if z < limit:
                return h, lo, z % n


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, uniform integer in [0, n)) by rejection, so there is no modulo bias."""
    if n <= 0:
        raise ValueError("n must be positive")
    h, lo, value = _draw((state >> 32) & _M32, state & _M32, n)
    return (int(h) << 32) | int(lo), value


def below_each(state: int, n: int, count: int) -> tuple[int, list[int]]:
    """(new state, `count` successive `below(state, n)` values): the same draws as calling
    `below` that many times (a roll of several dice), without a call per value."""
    if n <= 0:
        raise ValueError("n must be positive")
    h: i64 = (state >> 32) & _M32  # any int: only the state mod 2**64 counts
    lo: i64 = state & _M32
    out: list[int] = []
    while len(out) < count:
        h, lo, value = _draw(h, lo, n)
        out.append(value)
    return (int(h) << 32) | int(lo), out


def picks(state: int, options: tuple[T, ...], count: int) -> tuple[int, list[T]]:
    """(new state, `count` uniform picks from options): `options[below(state, n)]` drawn
    `count` times (one call for a roll of several dice)."""
    state, drawn = below_each(state, len(options), count)
    return state, [options[i] for i in drawn]


def shuffled(state: int, items: list[T]) -> tuple[int, list[T]]:
    """(new state, a Fisher-Yates shuffled copy of items): the draws of `below(state, i + 1)`
    for i from the last index down (a game shuffles its decks, dozens of cards each, at
    setup and on every reshuffle)."""
    out = list(items)
    h: i64 = (state >> 32) & _M32  # any int: only the state mod 2**64 counts
    lo: i64 = state & _M32
    for i in range(len(out) - 1, 0, -1):
        h, lo, j = _draw(h, lo, i + 1)
        out[i], out[j] = out[j], out[i]
    return (int(h) << 32) | int(lo), out

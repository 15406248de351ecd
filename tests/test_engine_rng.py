"""The generator's written-out loops draw exactly what the plain `below` steps draw."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dmtool.engine.core import rng


def _reference_shuffle(state: int, items: list[int]) -> tuple[int, list[int]]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


def test_shuffled_matches_below_steps() -> None:
    for seed in range(50):
        for size in (0, 1, 2, 7, 40, 300):
            items = list(range(size))
            assert rng.shuffled(seed, items) == _reference_shuffle(seed, items)


def test_below_each_matches_below_steps() -> None:
    for seed in range(50):
        state, expected = seed, []
        for _ in range(9):
            state, value = rng.below(state, 6)
            expected.append(value)
        assert rng.below_each(seed, 6, 9) == (state, expected)


def test_picks_matches_below_steps() -> None:
    faces = ("a", "b", "c", "d", "e", "f")
    for seed in range(50):
        state, drawn = rng.below_each(seed, 6, 7)
        assert rng.picks(seed, faces, 7) == (state, [faces[i] for i in drawn])


# `below` works splitmix64 on two 32-bit words (so that compiled it is machine-word
# arithmetic); it must draw exactly what the 64-bit form of the algorithm draws.
_MASK = (1 << 64) - 1


def _splitmix_below(state: int, n: int) -> tuple[int, int]:
    limit = (1 << 64) - (1 << 64) % n
    state &= _MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


@settings(max_examples=2000, deadline=None)
@given(state=st.integers(min_value=-(1 << 70), max_value=1 << 70),
       n=st.one_of(st.integers(min_value=1, max_value=300),
                   st.integers(min_value=1, max_value=(1 << 64) - 1)))
def test_below_draws_what_64_bit_splitmix_draws(state: int, n: int) -> None:
    assert rng.below(state, n) == _splitmix_below(state, n)


def test_below_on_the_edges_of_the_words() -> None:
    edges = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, _MASK, -1, -(1 << 32)]
    for state in edges:
        for n in (1, 2, 3, 6, 255, 256, 257, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, _MASK):
            assert rng.below(state, n) == _splitmix_below(state, n), (state, n)

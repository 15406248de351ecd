"""The generator's written-out loops draw exactly what the plain `below` steps draw."""

from __future__ import annotations

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

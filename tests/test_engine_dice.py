"""Dice: the faces of each colour, exact pass probabilities, the generator, strict scripts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from dmtool.engine.core.rng import below, below_each, next_u64, shuffled
from dmtool.engine.dawn_of_madness import ScriptedDice, ScriptError, SeededDice
from dmtool.engine.dawn_of_madness.constants import COLOURS, FACES, TYPES, missing, satisfies
from tests.engine_helpers import small_game


def test_each_colour_shows_every_type_and_its_favourite_twice() -> None:
    favourites = {"red": "hand", "blue": "brain", "green": "eye", "yellow": "skull",
                  "purple": "sphere"}
    for colour in COLOURS:
        faces = FACES[colour]
        assert len(faces) == 6 and set(faces) == set(TYPES)
        assert faces.count(favourites[colour]) == 2


def pass_probability(need: list[tuple[str, str]], dice: dict[str, int]) -> Fraction:
    """Exact chance that rolling `dice` meets `need`, by enumerating every outcome."""
    pools = [(c, FACES[c]) for c, n in dice.items() for _ in range(n)]
    total = passed = 0
    for faces in itertools.product(*(f for _, f in pools)):
        total += 1
        passed += satisfies([(c, f) for (c, _), f in zip(pools, faces)], need)
    return Fraction(passed, total)


@pytest.mark.parametrize(("need", "dice", "chance"), [
    ([("green", "eye")], {"green": 1}, Fraction(1, 2)),  # two eyes and the wild sphere
    ([("red", "eye")], {"red": 1}, Fraction(1, 3)),  # one eye and the sphere
    ([("purple", "eye")], {"purple": 1}, Fraction(1, 2)),  # one eye and two spheres
    ([("red", "sphere")], {"red": 1}, Fraction(1, 6)),  # only a sphere is a sphere
    ([("red", "hand"), ("red", "hand")], {"red": 2}, Fraction(1, 4)),  # (3/6) squared
    ([("green", "eye"), ("red", "sphere")], {"green": 1, "red": 1}, Fraction(1, 12)),
])
def test_exact_pass_probabilities(need: list[tuple[str, str]], dice: dict[str, int],
                                  chance: Fraction) -> None:
    assert pass_probability(need, dice) == chance


def test_spheres_fill_gaps_only_in_their_colour() -> None:
    assert missing([("red", "sphere")], [("red", "eye")]) == []
    assert missing([("blue", "sphere")], [("red", "eye")]) == [("red", "eye")]
    assert missing([("red", "eye"), ("red", "sphere")], [("red", "sphere"), ("red", "eye")]) == []
    assert missing([("red", "sphere")], [("red", "sphere"), ("red", "eye")]) == [("red", "eye")]


def test_splitmix64_reference_value() -> None:
    assert next_u64(0) == (0x9E3779B97F4A7C15, 0xE220A8397B1DCDAF)


def test_below_covers_the_range_evenly() -> None:
    state, counts = 42, [0] * 6
    for _ in range(6000):
        state, value = below(state, 6)
        counts[value] += 1
    assert all(900 < c < 1100 for c in counts)


@pytest.mark.parametrize("n", [1, 6, 7, 16, 256, 1000])
def test_below_each_draws_what_below_draws_one_at_a_time(n: int) -> None:
    for seed, count in itertools.product((0, 99, 2**64 - 1), (0, 1, 5)):
        state, one_by_one = seed, []
        for _ in range(count):
            state, value = below(state, n)
            one_by_one.append(value)
        assert below_each(seed, n, count) == (state, one_by_one)
    with pytest.raises(ValueError):
        below_each(0, 0, 1)


def test_shuffle_is_a_permutation_and_replays() -> None:
    a = shuffled(7, list(range(10)))
    assert sorted(a[1]) == list(range(10)) and a == shuffled(7, list(range(10)))


def test_seeded_dice_advance_the_state_they_live_in() -> None:
    state, _ = small_game()
    state.rng = 99
    first = SeededDice().d6(state, "mara", {"red": 3, "purple": 1}, "test")
    assert state.rng != 99 and len(first["red"]) == 3 and len(first["purple"]) == 1
    state.rng = 99
    assert SeededDice().d6(state, "mara", {"red": 3, "purple": 1}, "test") == first


def test_scripted_dice_are_strict() -> None:
    state, _ = small_game()
    dice = ScriptedDice()
    dice.add({"mara": {"red": ["hand", "eye"]}}, ("dice", 0))
    with pytest.raises(ScriptError) as wrong:
        dice.d6(state, "mara", {"red": 1}, "test")
    assert wrong.value.code == "DM403" and wrong.value.where == ("dice", 0)
    with pytest.raises(ScriptError) as empty:
        dice.d16(state, "mara", "placement")
    assert empty.value.code == "DM404"
    assert dice.shuffle(state, "terror", ["only-one"]) == ["only-one"]


def test_scripted_dice_name_the_roller() -> None:
    state, _ = small_game()
    dice = ScriptedDice()
    dice.add({"ilse": {"d16": 4}}, ("dice", 0))
    with pytest.raises(ScriptError, match="for mara"):
        dice.d16(state, "mara", "placement")

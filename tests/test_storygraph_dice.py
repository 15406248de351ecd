"""Exact test odds against brute-force enumeration of every face of every die."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from dmtool.storygraph.dice import (
    COLOURS,
    FAVOURED,
    TYPES,
    colour_passes,
    example_roll,
    faces,
    pass_probability,
)


def _matches(rolled: list[str], required: list[str]) -> bool:
    """Independent check: assign dice to requirements one by one (sphere wild, in colour)."""
    if not required:
        return True
    need, rest = required[0], required[1:]
    for i, face in enumerate(rolled):
        usable = face == need or (face == "sphere" and need != "sphere") or (face == need == "sphere")
        if usable and _matches(rolled[:i] + rolled[i + 1 :], rest):
            return True
    return False


def _brute(roll: dict[str, list[str]], sentience: dict[str, int]) -> Fraction:
    total = Fraction(1)
    for colour, required in roll.items():
        dice = max(0, sentience.get(colour, 0))
        hits = sum(_matches(list(r), required) for r in product(faces(colour), repeat=dice))
        total *= Fraction(hits, 6**dice)
    return total


def test_each_die_has_every_type_and_its_favourite_twice() -> None:
    for colour in COLOURS:
        counts = Counter(faces(colour))
        assert (
            set(counts) == set(TYPES)
            and counts[FAVOURED[colour]] == 2
            and sum(counts.values()) == 6
        )


REQUIREMENTS = [
    ["hand"],
    ["sphere"],
    ["eye", "eye"],
    ["skull", "sphere"],
    ["hand", "brain"],
    ["sphere", "sphere"],
    ["brain", "brain", "brain"],
    ["hand", "eye", "skull"],
]


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("required", REQUIREMENTS, ids="+".join)
def test_one_colour_matches_brute_force(colour: str, required: list[str]) -> None:
    for dice in range(6):
        roll = {colour: required}
        assert pass_probability(roll, {colour: dice}) == _brute(roll, {colour: dice}), dice


def test_several_colours_multiply_and_match_brute_force() -> None:
    roll = {"green": ["eye"], "red": ["sphere"], "purple": ["hand", "sphere"]}
    sentience = {"green": 2, "red": 3, "purple": 3}
    assert pass_probability(roll, sentience) == _brute(roll, sentience)


def test_known_values() -> None:
    # Two green dice for an eye: each die shows eye twice or sphere once (3 of 6).
    assert pass_probability({"green": ["eye"]}, {"green": 2}) == Fraction(3, 4)
    # Red for 2 skull with two dice: both must show skull or sphere (2 of 6 each).
    assert pass_probability({"red": ["skull", "skull"]}, {"red": 2}) == Fraction(1, 9)
    # A required sphere needs a real sphere: purple shows it on 2 faces.
    assert pass_probability({"purple": ["sphere"]}, {"purple": 1}) == Fraction(1, 3)


def test_too_few_or_negative_dice_cannot_pass() -> None:
    assert pass_probability({"red": ["hand", "hand"]}, {"red": 1}) == 0
    assert pass_probability({"blue": ["brain"]}, {"blue": -2}) == 0
    assert pass_probability({"blue": ["brain"]}, {}) == 0


def test_colour_passes_uses_spare_spheres_only() -> None:
    assert colour_passes({"sphere": 2}, {"hand": 1, "sphere": 1})
    assert not colour_passes({"sphere": 1}, {"hand": 1, "sphere": 1})
    assert not colour_passes({"hand": 3}, {"sphere": 1})


@pytest.mark.parametrize("required", REQUIREMENTS, ids="+".join)
def test_example_rolls_pass_and_fail_as_claimed(required: list[str]) -> None:
    roll = {"yellow": required, "blue": ["brain"]}
    sentience = {"yellow": 4, "blue": 2}
    good = example_roll(roll, sentience, passing=True)
    bad = example_roll(roll, sentience, passing=False)
    assert good is not None and bad is not None
    assert all(len(good[c]) == sentience[c] for c in roll)
    assert all(_matches(good[c], roll[c]) for c in roll)
    assert not all(_matches(bad[c], roll[c]) for c in roll)
    assert example_roll({"red": ["hand", "hand"]}, {"red": 1}, passing=True) is None

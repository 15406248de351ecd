"""Exact pass probabilities of sentience tests, from the dice the rulebook describes.

Each colour's six-sided die shows the five domain types once and its favoured type a second
time (red hand, blue brain, green eye, yellow skull, purple sphere). A sphere result is
wild within its colour: it may stand for any type of that colour, while a required sphere
needs a real sphere. So one colour passes when
    spheres rolled >= spheres required, and
    sum over other required types t of max(0, required(t) - rolled(t)) <= spare spheres.
Colours are rolled independently, so a test's probability is the product over its colours.
We sum exactly over the counts of each face class (required types, sphere, everything
else) with multinomial weights, in integers, and return Fractions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from math import factorial

COLOURS = ("red", "blue", "green", "yellow", "purple")
TYPES = ("hand", "eye", "brain", "skull", "sphere")
FAVOURED = {"red": "hand", "blue": "brain", "green": "eye", "yellow": "skull", "purple": "sphere"}


def faces(colour: str) -> tuple[str, ...]:
    """The six faces of a colour's die."""
    return TYPES + (FAVOURED[colour],)


def colour_passes(rolled: Mapping[str, int], required: Mapping[str, int]) -> bool:
    """Whether dice of one colour showing `rolled` meet `required` (sphere wild)."""
    spare = rolled.get("sphere", 0) - required.get("sphere", 0)
    if spare < 0:
        return False
    missing = sum(max(0, n - rolled.get(t, 0)) for t, n in required.items() if t != "sphere")
    return missing <= spare


def dice_count(sentience: Mapping[str, int], colour: str) -> int:
    """Dice rolled for a colour: its sentience value, negative values counting as zero."""
    return max(0, int(sentience.get(colour, 0)))


def requirement(roll: Mapping[str, Sequence[str]]) -> dict[str, dict[str, int]]:
    """A test's `roll` mapping as counts per colour and type."""
    return {c: dict(Counter(types)) for c, types in roll.items() if c in COLOURS and types}


def pass_probability(roll: Mapping[str, Sequence[str]], sentience: Mapping[str, int]) -> Fraction:
    """The exact chance that a test passes with dice alone (no stored domains, no cards)."""
    result = Fraction(1)
    for colour, counts in requirement(roll).items():
        key = tuple(sorted(counts.items()))
        result *= _colour_probability(colour, dice_count(sentience, colour), key)
        if not result:
            break
    return result


@lru_cache(maxsize=4096)
def _colour_probability(colour: str, dice: int, required: tuple[tuple[str, int], ...]) -> Fraction:
    need = dict(required)
    if sum(need.values()) > dice:
        return Fraction(0)
    weights = Counter(faces(colour))
    classes = [t for t in need if t != "sphere"] + ["sphere"]
    class_weights = [weights[t] for t in classes]
    other = 6 - sum(class_weights)
    favourable = 0
    for counts in _compositions(dice, len(classes) + 1):
        rolled = dict(zip(classes, counts))
        if colour_passes(rolled, need):
            favourable += _arrangements(counts, class_weights + [other])
    return Fraction(favourable, 6**dice)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write `total` as an ordered sum of `parts` non-negative integers."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _arrangements(counts: Sequence[int], weights: Sequence[int]) -> int:
    """How many face sequences give these class counts (multinomial times face weights)."""
    ways = factorial(sum(counts))
    for count, _weight in zip(counts, weights):
        ways //= factorial(count)
    for count, weight in zip(counts, weights):
        ways *= weight**count
    return ways


def example_roll(
    roll: Mapping[str, Sequence[str]], sentience: Mapping[str, int], *, passing: bool
) -> dict[str, list[str]] | None:
    """Concrete dice faces per colour that pass (or fail) the test; None if impossible.

    Used for scenario skeletons: a passing roll shows each required type exactly and the
    rest of the dice on a face nothing needs; a failing roll shows faces that cannot meet it.
    """
    need = requirement(roll)
    out: dict[str, list[str]] = {}
    for colour, counts in need.items():
        dice = dice_count(sentience, colour)
        useless = [t for t in TYPES if t not in counts and t != "sphere"]
        filler = useless[0] if useless else None
        if passing:
            shown = [t for t, n in counts.items() for _ in range(n)]
            if len(shown) > dice:
                return None
            out[colour] = shown + [filler or shown[0]] * (dice - len(shown))
        else:
            # No sphere and nothing useful where possible; else one required type only.
            first = next((t for t in counts if t != "sphere"), "hand")
            out[colour] = [filler or first] * dice
    if not passing and need and all(colour_passes(Counter(out[c]), need[c]) for c in need):
        return None
    return out

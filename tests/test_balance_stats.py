"""The statistics behind `dmtool balance`, checked against values worked out by hand or by
brute force."""

from __future__ import annotations

import math
from itertools import product

import pytest

from dmtool.balance.stats import (
    binomial_two_sided,
    fisher_exact,
    format_p,
    holm,
    mcnemar,
    two_proportions,
    wilson,
)


@pytest.mark.parametrize("count, games, low, high", [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0),
    (1, 100, 0.0018, 0.0545), (545, 1000, 0.5141, 0.5756)])
def test_wilson_interval_matches_published_values(count: int, games: int, low: float,
                                                  high: float) -> None:
    got = wilson(count, games)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_of_nothing_is_everything() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_exact_sign_test_sums_the_binomial_tails() -> None:
    # 10 coin tosses, 1 head: 2 * (1 + 10) / 1024
    assert binomial_two_sided(1, 10) == pytest.approx(22 / 1024)
    assert binomial_two_sided(5, 10) == 1.0
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(2, 12) == mcnemar(12, 2) == pytest.approx(
        2 * sum(math.comb(14, i) for i in range(3)) / 2**14)


def _fisher_by_enumeration(k1: int, n1: int, k2: int, n2: int) -> float:
    """Every way the successes could fall between the groups, weighed by brute force."""
    total = k1 + k2
    weights = {}
    for a in range(max(0, total - n2), min(total, n1) + 1):
        weights[a] = math.comb(n1, a) * math.comb(n2, total - a)
    norm = sum(weights.values())
    return sum(w for w in weights.values() if w <= weights[k1] * (1 + 1e-9)) / norm


@pytest.mark.parametrize("k1, n1, k2, n2", list(product([0, 1, 3], [5, 8], [0, 2, 4], [6])))
def test_fisher_exact_matches_enumeration(k1: int, n1: int, k2: int, n2: int) -> None:
    assert fisher_exact(k1, n1, k2, n2) == pytest.approx(_fisher_by_enumeration(k1, n1, k2, n2))


def test_two_proportions_uses_the_z_test_for_large_counts() -> None:
    # 45% vs 55% of 1,000 each: z = 0.1 / sqrt(0.25 * 0.002) = 4.472
    assert two_proportions(450, 1000, 550, 1000) == pytest.approx(
        math.erfc(4.47214 / math.sqrt(2)), rel=1e-4)
    assert two_proportions(500, 1000, 500, 1000) == pytest.approx(1.0)


def test_holm_adjusts_in_rank_order_and_stays_monotone() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]


def test_p_values_read_as_an_author_expects() -> None:
    assert format_p(0.0002) == "p < 0.001"
    assert format_p(0.0234) == "p = 0.023"

"""Statistics for many seeded games: Wilson intervals, two-proportion and paired tests."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
FISHER_BELOW = 5  # expected counts under this use Fisher's exact test instead of the z-test


@dataclass(frozen=True)
class Rate:
    """k of n games, with the 95% Wilson score interval of the rate."""

    count: int
    games: int

    @property
    def value(self) -> float:
        return self.count / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.games)


def wilson(count: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval: unlike the normal interval it stays inside [0, 1] and
    keeps its coverage for rare outcomes (a 0-in-10,000 ending still gets an upper bound)."""
    if games <= 0:
        return (0.0, 1.0)
    return score_interval(count / games, games, z)


def score_interval(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate p observed on n (possibly effective) trials."""
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def binomial_two_sided(low: int, trials: int) -> float:
    """P(X <= low) doubled, X ~ Binomial(trials, 1/2): the exact two-sided sign test."""
    if trials == 0:
        return 1.0
    low = min(low, trials - low)
    log_half = trials * math.log(0.5)
    tail = sum(math.exp(_log_choose(trials, i) + log_half) for i in range(low + 1))
    return min(1.0, 2 * tail)


def mcnemar(only_first: int, only_second: int) -> float:
    """Exact McNemar test for paired games (same seed, two versions): only the games whose
    outcome changed carry information, and under no difference either direction is a coin
    toss."""
    return binomial_two_sided(min(only_first, only_second), only_first + only_second)


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that two independent rates differ: the pooled z-test, or Fisher's
    exact test when an expected count is small."""
    if n1 == 0 or n2 == 0:
        return 1.0
    total = k1 + k2
    n = n1 + n2
    expected = min(total * n1, total * n2, (n - total) * n1, (n - total) * n2) / n
    if expected < FISHER_BELOW:
        return fisher_exact(k1, n1, k2, n2)
    pooled = total / n
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return 1.0
    z = abs(k1 / n1 - k2 / n2) / spread
    return math.erfc(z / math.sqrt(2))


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Fisher's exact test, two-sided: the probability of tables no likelier than this one."""
    total = k1 + k2
    n = n1 + n2

    def log_p(a: int) -> float:
        return _log_choose(n1, a) + _log_choose(n2, total - a) - _log_choose(n, total)

    observed = log_p(k1)
    lowest, highest = max(0, total - n2), min(total, n1)
    slack = 1e-7  # relative tolerance for ties in floating point
    p = sum(math.exp(lp) for a in range(lowest, highest + 1)
            if (lp := log_p(a)) <= observed + slack)
    return min(1.0, p)


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (in the given order): many outcomes are tested at
    once, and an author should not chase one that is 'significant' by chance."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def format_p(p: float) -> str:
    """'p < 0.001' or 'p = 0.023', as an author reads it."""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}"


def mean(values: list[int] | list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of the difference k1/n1 - k2/n2 of two independent rates: Newcombe's
    hybrid score interval (his method 10), built from each rate's Wilson interval, so it
    stays sensible for rates near 0 or 1 where the normal interval does not."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    difference = p1 - p2
    return (difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


@dataclass(frozen=True)
class Clustered:
    """Tries grouped by game: a rate over tries whose interval counts the games, not the
    tries, as independent (the tries of one game share its dice luck, its policy's choices
    and its wanderer's sentience). Sums over games i of m_i tries with y_i passes."""

    games: int
    tries: int  # sum of m_i
    passed: int  # sum of y_i
    tries_sq: int  # sum of m_i ** 2
    passed_sq: int  # sum of y_i ** 2
    cross: int  # sum of m_i * y_i

    @property
    def rate(self) -> float:
        return self.passed / self.tries if self.tries else 0.0

    def variance(self) -> float:
        """The cluster-robust (sandwich) variance of the ratio estimator: the sum over games
        of (y_i - p m_i)^2, over the tries squared, with the G/(G-1) small-sample factor."""
        if self.games < 2 or not self.tries:
            return 0.0
        p = self.rate
        spread = self.passed_sq - 2 * p * self.cross + p * p * self.tries_sq
        return self.games / (self.games - 1) * max(spread, 0.0) / self.tries ** 2

    def design_effect(self) -> float:
        """How much the clustering widens the variance against independent tries (at least
        1: tries are never counted as more than independent)."""
        p = self.rate
        independent = p * (1 - p) / self.tries if self.tries else 0.0
        if independent <= 0:
            return 1.0
        return max(1.0, self.variance() / independent)

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """A Wilson interval on the effective number of tries (tries / design effect): as
        wide as the cluster-robust interval, and still inside [0, 1] for a test that is
        always or never passed."""
        if not self.tries:
            return (0.0, 1.0)
        return score_interval(self.rate, self.tries / self.design_effect(), z)


def paired_difference(only_after: int, only_before: int, pairs: int,
                      z: float = Z95) -> tuple[float, float]:
    """The 95% interval of the change in a rate between two runs on the same seeds: the
    mean of the per-seed differences (+1, 0 or -1) with its standard error, which counts
    only the games that changed (the pairing takes out the luck both runs shared)."""
    if pairs <= 0:
        return (0.0, 0.0)
    difference = (only_after - only_before) / pairs
    spread = (only_after + only_before) / pairs - difference ** 2
    half = z * math.sqrt(max(spread, 0.0) / pairs)
    return (difference - half, difference + half)

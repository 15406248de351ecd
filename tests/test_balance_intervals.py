"""Every interval `dmtool balance` reports, checked against an independent computation:
SciPy's Wilson interval, Newcombe's difference built from it, a cluster-robust (sandwich)
variance in NumPy's matrix form, and the paired differences' own standard error."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from scipy.stats import binomtest, norm

from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.stats import Z95, Clustered, newcombe, paired_difference, wilson
from dmtool.model.content_index import default_content_dir


def _scipy_wilson(k: int, n: int) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def test_the_normal_quantile_is_scipys() -> None:
    assert abs(Z95 - norm.ppf(0.975)) < 1e-12


@pytest.mark.parametrize("k, n", [(0, 2000), (1, 2000), (3, 7), (50, 50), (545, 1000)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    assert wilson(k, n) == pytest.approx(_scipy_wilson(k, n), abs=1e-9)
    if k == 0 and n == 2000:  # what an ending no game reached reports
        assert wilson(k, n)[1] == pytest.approx(0.0019, abs=1e-4)


@pytest.mark.parametrize("k1, n1, k2, n2", [(56, 70, 48, 80), (9, 10, 3, 10), (0, 15, 2, 40),
                                            (30, 30, 0, 200)])
def test_newcombe_difference_is_built_from_scipys_wilson_intervals(k1: int, n1: int, k2: int,
                                                                    n2: int) -> None:
    (l1, u1), (l2, u2) = _scipy_wilson(k1, n1), _scipy_wilson(k2, n2)
    p1, p2 = k1 / n1, k2 / n2
    expected = (p1 - p2 - math.hypot(p1 - l1, u2 - p2), p1 - p2 + math.hypot(u1 - p1, p2 - l2))
    assert newcombe(k1, n1, k2, n2) == pytest.approx(expected, abs=1e-9)
    # Newcombe's (1998) published example: 56/70 against 48/80, method 10.
    if (k1, n1, k2, n2) == (56, 70, 48, 80):
        assert newcombe(k1, n1, k2, n2) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def _sandwich(games: list[tuple[int, int]]) -> tuple[float, float]:
    """The rate over tries and its cluster-robust standard error, as an intercept-only
    regression of each try's result with errors clustered by game: (X'X)^-1 X'ΩX (X'X)^-1
    with the G/(G-1) factor, in matrix form over the tries themselves."""
    y = np.array([r for m, k in games for r in [1.0] * k + [0.0] * (m - k)])
    groups = np.array([g for g, (m, _) in enumerate(games) for _ in range(m)])
    x = np.ones((len(y), 1))
    beta = np.linalg.solve(x.T @ x, x.T @ y)
    residual = y - x @ beta
    meat = np.zeros((1, 1))
    for g in range(len(games)):
        score = x[groups == g].T @ residual[groups == g]
        meat += np.outer(score, score)
    bread = np.linalg.inv(x.T @ x)
    cov = len(games) / (len(games) - 1) * bread @ meat @ bread
    return float(beta[0]), float(math.sqrt(cov[0, 0]))


@pytest.mark.parametrize("games", [
    [(1, 1), (1, 0), (2, 2), (3, 0), (1, 1), (2, 1), (4, 1), (1, 0)],
    [(2, 2), (2, 0)] * 20,  # all or nothing within a game: strongly clustered
    [(1, 1), (1, 0), (1, 1), (1, 1)] * 10,  # one try a game: no clustering at all
])
def test_the_clustered_interval_matches_a_sandwich_estimate(games: list[tuple[int, int]]) -> None:
    clustered = Clustered(len(games), sum(m for m, _ in games), sum(k for _, k in games),
                          sum(m * m for m, _ in games), sum(k * k for _, k in games),
                          sum(m * k for m, k in games))
    rate, se = _sandwich(games)
    assert clustered.rate == pytest.approx(rate)
    assert math.sqrt(clustered.variance()) == pytest.approx(se, rel=1e-9)
    # The interval is Wilson's on the effective number of tries, by SciPy's normal quantile.
    effective = clustered.tries / clustered.design_effect()
    p, z = rate, norm.ppf(0.975)
    centre = (p + z * z / (2 * effective)) / (1 + z * z / effective)
    half = z * math.sqrt(p * (1 - p) / effective + z * z / (4 * effective ** 2)) / (
        1 + z * z / effective)
    assert clustered.interval() == pytest.approx((max(0, centre - half), min(1, centre + half)))
    naive = wilson(clustered.passed, clustered.tries)
    low, high = clustered.interval()
    assert high - low >= naive[1] - naive[0] - 1e-12  # never narrower than independent tries


@pytest.mark.parametrize("after, before, pairs", list(product([0, 3, 40], [0, 5], [200])))
def test_the_paired_difference_is_the_mean_of_per_seed_differences(after: int, before: int,
                                                                   pairs: int) -> None:
    diffs = np.array([1.0] * after + [-1.0] * before + [0.0] * (pairs - after - before))
    half = norm.ppf(0.975) * diffs.std(ddof=0) / math.sqrt(pairs)
    assert paired_difference(after, before, pairs) == pytest.approx(
        (diffs.mean() - half, diffs.mean() + half), abs=1e-12)


def _newcombe_by_scipy(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    (l1, u1), (l2, u2) = _scipy_wilson(k1, n1), _scipy_wilson(k2, n2)
    p1, p2 = k1 / n1, k2 / n2
    return (p1 - p2 - math.hypot(p1 - l1, u2 - p2), p1 - p2 + math.hypot(u1 - p1, p2 - l2))


def test_every_interval_of_a_real_report_is_scipys() -> None:
    report = run_balance(BalanceOptions(content=default_content_dir(), games=60, jobs=2,
                                        against=default_content_dir())).report
    section = report["configurations"][0]
    for outcome in section["outcomes"]:
        assert outcome["ci"] == pytest.approx(_scipy_wilson(outcome["games"], 60), abs=1e-6)
    rows = [r for o in section["causes"]["outcomes"] for r in o["causes"]]
    rows += [r for t in section["test_effects"] for r in t["outcomes"].values()]
    assert rows
    for row in rows:
        w, wo = row["with"], row["without"]
        assert w["ci"] == pytest.approx(_scipy_wilson(w["count"], w["games"]), abs=1e-6)
        assert row["difference_ci"] == pytest.approx(
            _newcombe_by_scipy(w["count"], w["games"], wo["count"], wo["games"]), abs=1e-6)
    for change in report["against"]["configurations"][0]["changes"]:
        assert change["difference_ci"] == [0.0, 0.0]  # the same tree: no game changed

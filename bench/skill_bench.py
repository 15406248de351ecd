"""The balance lab's heavy checks, too slow for the test suite (minutes on two cores):

- a sweep over one test's difficulty (the Eel Nest's test at entry 228 needing its first
  symbol 1, 2 and 3 times) on 2,000 games a value draws monotone curves: the test's pass
  rate falls at every step, and every outcome that surely moves (a significant paired
  step) moves the same way at every step;
- the planner beats greedy's finale rate on the same 2,000 seeds, McNemar's paired exact
  test p < 0.01.

Usage: python -m bench.skill_bench [--games N]. Prints each figure and FAIL on a miss.
"""

from __future__ import annotations

import argparse
import time
from itertools import pairwise
from typing import Any

from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.stats import format_p, mcnemar
from dmtool.model.content_index import default_content_dir

FINALE = "reached the finale"


def _monotone(rates: list[float]) -> bool:
    steps = [b - a for a, b in pairwise(rates)]
    return all(s >= 0 for s in steps) or all(s <= 0 for s in steps)


def sweep_check(games: int) -> bool:
    start = time.perf_counter()
    report = run_balance(BalanceOptions(content=default_content_dir(), games=games,
                                        sweep="test:228=1,2,3")).report
    config = report["sweep"]["configurations"][0]
    passed = config["test"]["rate"]
    ok = passed[0] > passed[1] > passed[2]
    moved = {c["outcome"] for step in config["steps"] for c in step["changes"]
             if c["significant"] and "conclusion" not in c["outcome"]}
    curves: dict[str, Any] = {o["outcome"]: o["rate"] for o in config["outcomes"]}
    for name in sorted(moved):
        ok = ok and _monotone(curves[name])
    print(f"sweep test:228=1,2,3 on {games:,} games a value "
          f"({time.perf_counter() - start:.0f} s): passed {passed}; surely moved: "
          + "; ".join(f"{n} {curves[n]}" for n in sorted(moved))
          + ("" if ok else "  FAIL: not monotone"), flush=True)
    return ok


def planner_check(games: int) -> bool:
    start = time.perf_counter()
    report = run_balance(BalanceOptions(content=default_content_dir(), games=games,
                                        policies=("greedy", "planner"))).report
    greedy, planner = report["configurations"]

    def finale(section: dict[str, Any]) -> float:
        return float(next(o["rate"] for o in section["outcomes"] if o["outcome"] == FINALE))

    # Paired by seed (the report's skill range): the finales each policy alone reached.
    against = next(p["against_best"] for p in report["skill"][0]["policies"]
                   if p["policy"] == "greedy")
    paired = (against["only_this"], against["only_best"])
    p = mcnemar(*paired)
    ok = finale(planner) > finale(greedy) and p < 0.01
    print(f"planner against greedy on the same {games:,} seeds "
          f"({time.perf_counter() - start:.0f} s): finale {100 * finale(planner):.1f}% against "
          f"{100 * finale(greedy):.1f}%; only greedy {paired[0]}, only planner {paired[1]}; "
          f"McNemar {format_p(p)}" + ("" if ok else "  FAIL"), flush=True)
    return ok


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args(argv)
    sweep_check(args.games)
    planner_check(args.games)


if __name__ == "__main__":
    main()

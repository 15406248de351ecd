"""P7 and the balance run: whole games per second on one core for each built-in policy, next
to the figures measured before the balance work, and `dmtool balance` on every core.

Usage: python -m bench.balance_bench [--scale X] [--repeats R] [--balance-games N]
                                     [--skill-games N]

Then the heavy checks of bench/skill_bench.py (a sweep's monotone curves, the planner
against greedy on the same seeds), on --skill-games games a value and a policy.

Per-core figures are CPU time of this process (time.process_time), the way balance plays
its games (no replay record kept); loading content is not timed. Each figure is measured
R times (the machine is shared and noisy): the best and the median are printed. The
balance run is wall time of the whole command, HTML report included.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.skill_bench import planner_check, sweep_check
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir

WANDERER = "hollis-brandt"
# Measured with bench/play_bench.py on this machine before the balance work (200 games each,
# the engine as of commit 0ff55d0), and the targets of performance.md (P7).
BEFORE = {"random": 99.5, "greedy": 32.0}
TARGET = {"random": 500.0, "greedy": 150.0}
GAMES = {"random": 400, "greedy": 200, "first": 400, "planner": 40}


def per_core(policy: str, games: int) -> float:
    """Whole games per CPU second, one core."""
    base = load_catalog(default_content_dir(), WANDERER)
    play(base, NewGame(WANDERER, 10**6), policy=policy, keep_record=False)  # warm caches
    start = time.process_time()
    for seed in range(games):
        play(base, NewGame(WANDERER, seed), policy=policy, keep_record=False)
    return games / max(time.process_time() - start, 1e-9)


def balance_run(games: int) -> float:
    """Wall seconds of `dmtool balance --games N --policy greedy` with the HTML report."""
    dmtool = str(Path(sys.executable).parent / "dmtool")
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([dmtool, "balance", "--games", str(games), "--policy", "greedy",
                        "--content", str(default_content_dir()), "--html",
                        str(Path(folder) / "balance.html")], stdout=subprocess.DEVNULL,
                       check=True)
        return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--balance-games", type=int, default=10000, help="0: skip the run")
    parser.add_argument("--skill-games", type=int, default=2000,
                        help="games a value of the sweep and a policy (0: skip those checks)")
    args = parser.parse_args(argv)
    for policy, games in GAMES.items():
        count = max(1, int(games * args.scale))
        rates = [per_core(policy, count) for _ in range(max(1, args.repeats))]
        rate = statistics.median(rates)
        line = (f"P7 {policy}: {max(rates):.1f} games/s on one core at best, {rate:.1f} median "
                f"({len(rates)} x {count} games)")
        if policy in BEFORE:
            line += (f"; before: {BEFORE[policy]:.1f} ({rate / BEFORE[policy]:.2f} x median); "
                     f"target >= {TARGET[policy]:.0f}")
        print(line, flush=True)
    if args.balance_games > 0:
        seconds = balance_run(args.balance_games)
        print(f"balance: dmtool balance --games {args.balance_games} --policy greedy --html: "
              f"{seconds:.1f} s wall on every core ({args.balance_games / seconds:.0f} "
              "games/s; target: under 60 s on two cores)", flush=True)
    if args.skill_games > 0:  # the sweep's monotone curves, the planner against greedy
        sweep_check(args.skill_games)
        planner_check(args.skill_games)


if __name__ == "__main__":
    main()

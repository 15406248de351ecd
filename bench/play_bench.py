"""Whole games of the sample wanderer: games per second on one core, and the distribution of
outcomes over N seeded games (a first balance reading).

Usage: python bench/play_bench.py [--games N] [--policy random|first|greedy] [--seed S]
       [--players P] [--variant short|standard|long] [--devour] [--wanderer ID]

Times are CPU time of this process (time.process_time): one core, and far less disturbed
by other work on a shared machine than wall time. Loading content is not timed. The first
line says which engine ran: compiled with mypyc (dmtool/engine/build.py) or pure Python
(DMTOOL_ENGINE=pure, no build, or a build older than the sources).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script too

from dmtool.engine import ENGINE, manifest
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir


def outcome(result: GameResult) -> str:
    """'ending X (legacy card)' for a concluded finale; 'failed: reason' otherwise."""
    state = result.state
    if result.stalled:
        return "stalled"
    if state.stage == "finale":
        return f"ending {state.ending} ({state.reason})"
    reason = state.reason or "?"
    return f"failed: {reason if len(reason) <= 24 else 'storybook (fail_stage)'}"


def measure(games: int, *, policy: str, seed: int = 0, players: int = 1,
            variant: str = "standard", devour: bool = False,
            wanderer: str = "hollis-brandt") -> tuple[float, Counter[str], int]:
    """(games per second, outcomes, decisions per game summed) over `games` seeded games."""
    base = load_catalog(default_content_dir(), wanderer)
    outcomes: Counter[str] = Counter()
    steps = 0
    start = time.process_time()
    for n in range(games):
        result = play(base, NewGame(wanderer, seed + n, players, variant, devour),
                      policy=policy)
        outcomes[outcome(result)] += 1
        steps += len(result.record["steps"])
    elapsed = max(time.process_time() - start, 1e-9)
    return games / elapsed, outcomes, steps


def report(games: int, rate: float, outcomes: Counter[str], steps: int, label: str) -> list[str]:
    lines = [f"play[{label}]: {rate:.1f} full games/s on one core ({games} games, "
             f"{steps / games:.0f} engine steps a game, {rate * steps / games:,.0f} steps/s)"]
    failed = sum(n for o, n in outcomes.items() if o.startswith("failed"))
    finales = sum(n for o, n in outcomes.items() if o.startswith("ending"))
    lines.append(f"play[{label}]: failed {failed} ({100 * failed / games:.1f}%), reached the "
                 f"finale {finales} ({100 * finales / games:.1f}%)")
    for name, count in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"play[{label}]:   {count:5d}  {100 * count / games:5.1f}%  {name}")
    return lines


def engine() -> str:
    """Which engine the games ran on, as loaded (and, for the pure one, why)."""
    loaded = manifest.running()
    if loaded == "compiled":
        return "compiled (mypyc)"
    reason = ENGINE.partition(": ")[2]
    return f"{loaded} Python ({reason})" if reason else f"{loaded} Python"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--policy", default=None, choices=["random", "first", "greedy"],
                        help="one policy (default: random and greedy)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--variant", default="standard", choices=["short", "standard", "long"])
    parser.add_argument("--devour", action="store_true")
    parser.add_argument("--wanderer", default="hollis-brandt")
    args = parser.parse_args(argv)
    print(f"play: engine {engine()}", flush=True)
    for policy in [args.policy] if args.policy else ["random", "greedy"]:
        rate, outcomes, steps = measure(args.games, policy=policy, seed=args.seed,
                                        players=args.players, variant=args.variant,
                                        devour=args.devour, wanderer=args.wanderer)
        label = f"{policy}, {args.variant}{', devour' if args.devour else ''}"
        print("\n".join(report(args.games, rate, outcomes, steps, label)), flush=True)


if __name__ == "__main__":
    main()

"""`dmtool balance` as a plain function: options in, a report (and a comparison) out."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.balance.address import scheduler_address
from dmtool.balance.against import compare
from dmtool.balance.games import Bundle, Config, Plan, chunks
from dmtool.balance.pool import Progress, Runner, RunResult, collect, cores, local_runner
from dmtool.balance.report import build
from dmtool.balance.sweep import parse_sweep, point_bundle, point_configs, summary
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.dawn_of_madness.constants import SCORE_GOALS
from dmtool.engine.dawn_of_madness.play.policies import policy_error
from dmtool.errors import UsageError
from dmtool.packaged import checkout_content, content_digest, games_underneath


@dataclass(frozen=True)
class BalanceOptions:
    """What `dmtool balance` was asked to do."""

    wanderer: str = "hollis-brandt"
    games: int = 1000
    policies: tuple[str, ...] = ("greedy",)
    variants: tuple[str, ...] = ("standard",)
    players: tuple[int, ...] = (1,)
    devour: bool = False
    seed: int = 0
    jobs: int | None = None  # None: every core
    content: Path = Path("content")
    against: Path | None = None
    scheduler: str | None = None
    sweep: str | None = None  # one parameter over values: see sweep.py
    epsilons: tuple[float, ...] = ()  # chances of a random move, each a policy of its own


@dataclass
class BalanceOutcome:
    """The report (plain data), and how the run went (for the command's closing line)."""

    report: dict[str, Any]
    runs: list[RunResult] = field(default_factory=list)
    workers: str = ""

    @property
    def interrupted(self) -> bool:
        return any(r.interrupted for r in self.runs)



def provenance(root: Path) -> dict[str, str]:
    """What a report was made with: dmtool's version, and the content played (its folder,
    which the replay line names, and a digest of it and of the packaged games it read)."""
    return {"dmtool_version": __version__, "content": os.path.abspath(root),
            "content_digest": content_digest([root, *games_underneath([root])])}


def configurations(options: BalanceOptions) -> tuple[Config, ...]:
    for policy in options.policies:
        if (error := policy_error(policy)) is not None:
            raise UsageError(f"--policy: {error}.")
    for epsilon in options.epsilons:
        if not 0 <= epsilon <= 1:
            raise UsageError("--epsilon: give chances from 0 to 1, e.g. 0,0.5,1.")
    for variant in options.variants:
        if variant not in SCORE_GOALS:
            raise UsageError(f"--variant: '{variant}' is not one of {', '.join(SCORE_GOALS)}.")
    for players in options.players:
        if not 1 <= players <= 4:
            raise UsageError("--players must be 1 to 4 (one player plays two wanderers).")
    if options.games < 1:
        raise UsageError("--games must be at least 1.")
    if options.seed < 0:
        raise UsageError("--seed must be zero or more.")
    # --epsilon: each policy also played with a random move at each decision by that chance.
    policies = [p if e == 0 else f"{p}~{e:g}" for p in options.policies
                for e in (options.epsilons or (0,))]
    return tuple(Config(p, v, n, options.devour) for p in dict.fromkeys(policies)
                 for v in options.variants for n in options.players)


def _bundle(root: Path, wanderer: str) -> Bundle:
    if not root.is_dir():
        raise UsageError(f"{root} is not a content folder.")
    try:
        return Bundle.load(root, wanderer)
    except EngineFault as fault:
        raise UsageError(f"{fault}; choose a wanderer authored under {root}.") from None


def _runner(options: BalanceOptions) -> tuple[Runner, str]:
    if options.scheduler:
        address = scheduler_address(options.scheduler)[0]  # a usage error before any import
        try:
            from dmtool.balance.cluster import dask_runner  # optional dependency, loaded on use
        except ImportError:
            raise UsageError("--scheduler needs Dask distributed: pip install "
                             "'dmtool[cluster]'.") from None
        return dask_runner(address), f"the Dask cluster at {address}"
    return local_runner(options.jobs or cores())


def run_balance(options: BalanceOptions, *, progress: Progress | None = None) -> BalanceOutcome:
    """Play every configuration's games (on both trees with --against) and build the
    report. Ctrl-C ends the playing early; the report covers the games finished."""
    configs = configurations(options)
    bundle = _bundle(checkout_content(options.content), options.wanderer)
    other = (_bundle(checkout_content(options.against), options.wanderer)
             if options.against is not None else None)
    if options.sweep is not None:
        if other is not None:
            raise UsageError("--sweep and --against cannot be used together.")
        return _swept(options, configs, bundle, progress)
    runner, workers = _runner(options)
    plan = Plan(len(configs), options.games, options.seed)
    games_each = plan.total
    everything = games_each * (2 if other else 1)

    def step(offset: int) -> Progress | None:  # one bar over both trees
        if progress is None:
            return None
        return lambda done, _total: progress(offset + done, everything)

    result = collect(runner(bundle, configs, plan), configs, plan, options.games,
                     progress=step(0), workers=workers)
    report = build(result, bundle, seed=options.seed)
    report.update(provenance(checkout_content(options.content)))
    if result.lost:  # a partial report says why it is partial
        report["lost"] = result.lost
    runs = [result]
    if other is not None and not result.interrupted:
        before = collect(runner(other, configs, plan), configs, plan, options.games,
                         progress=step(games_each), workers=workers)
        runs.append(before)
        report["against"] = compare(before, result, path=str(options.against))
    return BalanceOutcome(report, runs, workers)


def _swept(options: BalanceOptions, configs: tuple[Config, ...], base: Bundle,
           progress: Progress | None) -> BalanceOutcome:
    """Every value of the sweep played on the same seeds; one section per configuration
    and value, and the curves in `sweep`."""
    sweep = parse_sweep(str(options.sweep))
    points = [(v, point_bundle(base, sweep, v), point_configs(configs, sweep, v))
              for v in sweep.values]  # every value's usage errors before any game
    runner, workers = _runner(options)
    results, sections = [], []
    total = len(points) * options.games * len(points[0][2])
    for number, (value, bundle, point) in enumerate(points):
        plan = list(chunks(len(point), options.games, options.seed))
        offset = number * options.games * len(point)
        step = (None if progress is None
                else lambda done, _all, offset=offset: progress(offset + done, total))
        result = collect(runner(bundle, point, plan), point, plan, options.games,
                         progress=step, workers=workers)
        results.append((value, result))
        report = build(result, bundle, seed=options.seed)
        for section in report["configurations"]:
            section["label"] += f"; {sweep.describe(value)}"
        sections.append(report["configurations"])
        if result.interrupted:
            break
    report["configurations"] = [s for point in sections for s in point]
    report["games"] = options.games
    report["finished"] = sum(r.finished for _, r in results)
    report["interrupted"] = any(r.interrupted for _, r in results)
    report["sweep"] = summary(sweep, results, sections)
    return BalanceOutcome(report, [r for _, r in results], workers)

"""Running the chunks: in this process, on a local process pool, or (see cluster.py) on a
Dask cluster; collecting their tallies in seed order; stopping cleanly on Ctrl-C."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from dmtool.balance.games import Bundle, Chunk, Config, play_chunk
from dmtool.balance.tally import Tally

Progress = Callable[[int, int], None]  # (games finished, games in the run)
Runner = Callable[[Bundle, tuple[Config, ...], list[Chunk]], Iterator[tuple[Chunk, Tally]]]


@dataclass
class RunResult:
    """The merged tally of each configuration, and how much of the run finished."""

    configs: tuple[Config, ...]
    tallies: list[Tally]
    games: int  # asked for, per configuration
    finished: int  # games finished, over all configurations
    interrupted: bool = False
    workers: str = ""
    missing: list[Chunk] = field(default_factory=list)


def cores() -> int:
    """The cores this process may run on (what --jobs auto uses)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def collect(results: Iterable[tuple[Chunk, Tally]], configs: tuple[Config, ...],
            chunks: list[Chunk], games: int, *, progress: Progress | None = None,
            workers: str = "") -> RunResult:
    """Gather chunk tallies as they come (any order), then merge them in seed order.
    Ctrl-C stops the gathering; the games finished so far are still reported."""
    done: dict[Chunk, Tally] = {}
    total = sum(c.count for c in chunks)
    finished = 0
    interrupted = False
    try:
        for chunk, tally in results:
            done[chunk] = tally
            finished += chunk.count
            if progress is not None:
                progress(finished, total)
    except KeyboardInterrupt:
        interrupted = True
    tallies = [Tally() for _ in configs]
    for chunk in sorted(done):
        tallies[chunk.config].merge(done[chunk])
    missing = [c for c in chunks if c not in done]
    return RunResult(configs, tallies, games, finished, interrupted, workers, missing)


def in_process(bundle: Bundle, configs: tuple[Config, ...],
               chunks: list[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
    """Every chunk here, one after another (--jobs 1)."""
    for chunk in chunks:
        yield chunk, play_chunk(bundle, configs, chunk)


_WORKER: dict[str, object] = {}


def _start_worker(bundle: Bundle, configs: tuple[Config, ...]) -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent alone handles it,
    # and ends the pool; a worker would otherwise die in the middle of a chunk.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["bundle"], _WORKER["configs"] = bundle, configs


def _work(chunk: Chunk) -> tuple[Chunk, Tally]:
    bundle = _WORKER["bundle"]
    configs = _WORKER["configs"]
    assert isinstance(bundle, Bundle) and isinstance(configs, tuple)
    return chunk, play_chunk(bundle, configs, chunk)


def _context() -> multiprocessing.context.BaseContext:
    """A fork server when the platform has one: workers start from a process that has
    already imported the engine, and nothing is forked from a threaded parent."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["dmtool.balance.games"])
        return context
    return multiprocessing.get_context("spawn")


def process_pool(jobs: int) -> Runner:
    """A runner on `jobs` local worker processes."""

    def run(bundle: Bundle, configs: tuple[Config, ...],
            chunks: list[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
        # Leaving the with-block (at the end, or on Ctrl-C) terminates the workers at once.
        with _context().Pool(jobs, _start_worker, (bundle, configs)) as pool:
            yield from pool.imap_unordered(_work, chunks)

    return run


def local_runner(jobs: int) -> tuple[Runner, str]:
    """The runner for --jobs N, and how to describe it in the report."""
    if jobs <= 1:
        return in_process, "1 process"
    return process_pool(jobs), f"{jobs} local processes"

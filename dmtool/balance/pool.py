"""Running the chunks: in this process, on a local process pool, or (see cluster.py) on a
Dask cluster; collecting their tallies in seed order; stopping cleanly on Ctrl-C."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from types import FrameType
from typing import Any

from dmtool.balance.games import Bundle, Chunk, Config, play_chunk
from dmtool.balance.tally import Tally

Progress = Callable[[int, int], None]  # (games finished, games in the run)
Runner = Callable[[Bundle, tuple[Config, ...], Iterable[Chunk]], Iterator[tuple[Chunk, Tally]]]
# Chunks sent ahead of those finished, per worker: enough to keep every worker busy, few
# enough that the parent's memory does not grow with the number of games.
AHEAD = 4


class RunLost(Exception):
    """The workers (or the cluster) went away mid-run; the text says what was lost. The
    games finished before are kept and reported."""


@dataclass
class RunResult:
    """The merged tally of each configuration, and how much of the run finished."""

    configs: tuple[Config, ...]
    tallies: list[Tally]
    games: int  # asked for, per configuration
    finished: int  # games finished, over all configurations
    interrupted: bool = False
    workers: str = ""
    plan: Iterable[Chunk] = ()
    done: frozenset[Chunk] = frozenset()  # finished chunks after the first unfinished one
    merged: int = 0  # chunks of the plan finished in order, from its start
    lost: str = ""  # why the run stopped early without a Ctrl-C ("" when it did not)

    def missing(self) -> Iterator[Chunk]:
        """The chunks of the plan that did not finish, in order."""
        for index, chunk in enumerate(self.plan):
            if index >= self.merged and chunk not in self.done:
                yield chunk


def cores() -> int:
    """The cores this process may run on (what --jobs auto uses)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def collect(results: Iterable[tuple[Chunk, Tally]], configs: tuple[Config, ...],
            plan: Iterable[Chunk], games: int, *, progress: Progress | None = None,
            workers: str = "", paired: bool = True) -> RunResult:
    """Gather chunk tallies as they come, merging them in seed order as soon as the chunks
    before them are in (the parent holds only those that came early). Ctrl-C, or the
    workers lost, stops the gathering; the games finished so far are still reported.
    `paired`: keep each game's outcomes by seed (two bytes a game) for a comparison seed
    by seed; without it the merged tallies are counts alone, the same size for any number
    of games."""
    tallies = [Tally() if paired else Tally(paired=None) for _ in configs]
    early: dict[Chunk, Tally] = {}
    total = games * len(configs)
    order = iter(plan)
    expected = next(order, None)
    merged = finished = 0
    interrupted, lost = False, ""
    try:
        with _held_ctrl_c() as held:
            for chunk, tally in results:
                with held():  # a tally half merged would count a game on one side only
                    early[chunk] = tally
                    finished += chunk.count
                    while expected is not None and expected in early:
                        tallies[expected.config].merge(early.pop(expected))
                        merged += 1
                        expected = next(order, None)
                    if progress is not None:
                        progress(finished, total)
    except KeyboardInterrupt:
        interrupted = True
    except RunLost as why:
        interrupted, lost = True, str(why)
    for chunk in sorted(early):
        tallies[chunk.config].merge(early[chunk])
    return RunResult(configs, tallies, games, finished, interrupted, workers, plan,
                     frozenset(early), merged, lost)


@contextmanager
def _held_ctrl_c() -> Iterator[Callable[[], Any]]:
    """A context in which `held()` marks a stretch that Ctrl-C does not cut short: a
    SIGINT that comes inside it raises KeyboardInterrupt once the stretch is over. Outside
    those stretches (waiting for the workers) Ctrl-C acts at once. Only the main thread can
    take signals; elsewhere the stretches are plain."""
    if threading.current_thread() is not threading.main_thread():
        yield _plain
        return
    pending, inside = [False], [False]

    def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
        if inside[0]:
            pending[0] = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def held() -> Iterator[None]:
        inside[0] = True
        try:
            yield
        finally:
            inside[0] = False
        if pending[0]:
            pending[0] = False
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _plain() -> Iterator[None]:
    yield


def in_process(bundle: Bundle, configs: tuple[Config, ...],
               chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
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
            chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
        # Leaving the with-block (at the end, or on Ctrl-C) terminates the workers at once.
        # Chunks are sent a few ahead (imap would queue every one of them up front).
        with _context().Pool(jobs, _start_worker, (bundle, configs)) as pool:
            sent: deque[AsyncResult[tuple[Chunk, Tally]]] = deque()
            for chunk in chunks:
                sent.append(pool.apply_async(_work, (chunk,)))
                if len(sent) >= AHEAD * jobs:
                    yield sent.popleft().get()
            while sent:
                yield sent.popleft().get()

    return run


def local_runner(jobs: int) -> tuple[Runner, str]:
    """The runner for --jobs N, and how to describe it in the report."""
    if jobs <= 1:
        return in_process, "1 process"
    return process_pool(jobs), f"{jobs} local processes"

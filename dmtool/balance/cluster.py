"""`--scheduler ADDRESS`: the same chunks on a Dask distributed cluster.

The workers need dmtool installed (the same version); the content does not have to be on
their disks: the loaded bundle (catalogue and storybook index, a few hundred KB) is sent
to every worker once. The chunks and their merge order are those of a local run, so the
report is the same as on the local pool.

A cluster is a service that can fail. Nothing listening is said at once; a port of some
other service, or no answer, within CONNECT_SECONDS (Dask's own timeout does not bound
every handshake, so a deadline of ours does); a scheduler or every worker lost mid-run
ends the run with RunLost, and the games finished are kept. Dask's log (tracebacks of
lost connections) is silenced while it runs: what went wrong is said once, by dmtool.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from distributed import Client, Future, wait

from dmtool.balance.address import CONNECT_SECONDS, reach, scheduler_address
from dmtool.balance.games import Bundle, Chunk, Config, play_chunk
from dmtool.balance.pool import AHEAD, RunLost, Runner
from dmtool.balance.tally import Tally
from dmtool.engine.core.errors import EngineFault
from dmtool.errors import UsageError

# How long a cluster may have no worker, or the client no scheduler, before the run is lost.
LOST_SECONDS = 8
POLL_SECONDS = 0.5


def dask_runner(address: str) -> Runner:
    """A runner that sends each chunk to the cluster whose scheduler is at `address`."""
    target, host, port = scheduler_address(address)

    def run(bundle: Bundle, configs: tuple[Config, ...],
            chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
        # Dask's loggers (each with a level of its own) print tracebacks of every lost
        # connection; dmtool says once what was lost. Logging comes back only once the
        # client has closed: a client that lost its scheduler keeps logging until then.
        logging.disable(logging.CRITICAL)
        closed = False
        try:
            try:
                client = _connect(target, host, port)
            except UsageError:
                closed = True  # no client was made
                raise
            try:
                yield from _play(client, target, bundle, configs, chunks)
            finally:
                closed = _within(CONNECT_SECONDS,
                                 lambda: client.close(timeout=CONNECT_SECONDS) or True) is True
        finally:
            if closed:
                logging.disable(logging.NOTSET)

    return run


def _connect(target: str, host: str, port: int) -> Any:
    reach(host, port, target, CONNECT_SECONDS)  # a refused port fails here at once
    # The default client of the process: distributed.wait() finds it so.
    made = _within(CONNECT_SECONDS + 2, lambda: Client(target, timeout=CONNECT_SECONDS))
    if not isinstance(made, Client):
        why = f"{type(made).__name__}: {made}" if isinstance(made, BaseException) else (
            f"no answer in {CONNECT_SECONDS} s")
        raise UsageError(f"--scheduler: {target} does not answer as a Dask scheduler "
                         f"({why}).")
    return made


def _within(seconds: float, work: Callable[[], Any]) -> Any:
    """What `work` returned or raised, or None when it did not end in time (it is left
    running on a daemon thread, which does not keep the process alive)."""
    box: list[Any] = []

    def attempt() -> None:
        try:
            box.append(work())
        except BaseException as error:  # handed to the caller, which says what it was
            box.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(seconds)
    return box[0] if box else None


def _play(client: Any, target: str, bundle: Bundle, configs: tuple[Config, ...],
          chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
    shared = _within(CONNECT_SECONDS, lambda: client.scatter([bundle, configs],
                                                             broadcast=True))
    if not isinstance(shared, list):
        raise UsageError(f"--scheduler: the cluster at {target} has no worker to play on.")
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    todo = iter(chunks)
    pending: dict[Future, Chunk] = {}
    alone_since: float | None = None

    def fill() -> None:
        while len(pending) < AHEAD * workers:
            chunk = next(todo, None)
            if chunk is None:
                return
            # pure=False: a chunk is cheap to name but every submission must run.
            pending[client.submit(play_chunk, shared[0], shared[1], chunk, pure=False)] = chunk

    fill()
    try:
        while pending:
            try:
                finished = wait(list(pending), timeout=POLL_SECONDS,
                                return_when="FIRST_COMPLETED").done
            except TimeoutError:
                finished = set()
            for future in finished:
                chunk = pending.pop(future)
                yield chunk, _result(client, future, target)
            if not finished:
                alone_since = _still_there(client, target, alone_since)
            fill()
    except (RunLost, EngineFault):
        raise
    except Exception as error:
        # Any of Dask's calls fails so when the scheduler or the workers go: futures
        # cancelled, a result's connection closed (an OSError), a result lost with its
        # worker and not made again in time.
        raise RunLost(_what_was_lost(client, target, error)) from None
    finally:
        if pending:
            _within(CONNECT_SECONDS, lambda: client.cancel(list(pending)))


def _result(client: Any, future: Any, target: str) -> Tally:
    if future.status == "finished":
        # Bounded: a result whose worker died since is made again, if a worker is left.
        return future.result(timeout=LOST_SECONDS)  # type: ignore[no-any-return]
    error = future.exception() if future.status == "error" else None
    if isinstance(error, EngineFault):
        raise error  # the content's fault, said as `play` says it
    # A chunk cancelled or lost: say why when the cluster can tell (its scheduler gone,
    # its workers gone), else in Dask's word.
    raise RunLost(_what_was_lost(client, target, error or future.status))


def _what_was_lost(client: Any, target: str, error: Exception | str) -> str:
    """Why the cluster gave up the games: its scheduler, its workers, or else Dask's word."""
    time.sleep(POLL_SECONDS)  # the client learns of a lost connection a moment later
    if client.status != "running" or not _answers(target):
        return f"the scheduler at {target} was lost"
    try:
        workers = client.scheduler_info().get("workers")
    except Exception:  # the scheduler went while it was asked
        return f"the scheduler at {target} was lost"
    if not workers:
        return f"every worker of the cluster at {target} was lost"
    what = error if isinstance(error, str) else type(error).__name__
    return f"the cluster at {target} gave up the games ({what})"


def _answers(target: str) -> bool:
    """Whether anything still listens at the scheduler's address (a killed scheduler's port
    refuses at once; the client itself may not have noticed yet)."""
    _, host, port = scheduler_address(target)
    try:
        socket.create_connection((host, port), timeout=POLL_SECONDS).close()
    except OSError:
        return False
    return True


def _still_there(client: Any, target: str, alone_since: float | None) -> float | None:
    """Raise RunLost when the scheduler is gone, or no worker has been there for
    LOST_SECONDS; else when the cluster was last seen without a worker (None: it has one)."""
    if client.status != "running":
        raise RunLost(f"the scheduler at {target} was lost")
    if client.scheduler_info().get("workers"):
        return None
    now = time.monotonic()
    if alone_since is None:
        return now
    if now - alone_since > LOST_SECONDS:
        raise RunLost(f"every worker of the cluster at {target} was lost")
    return alone_since

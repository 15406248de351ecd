"""`--scheduler ADDRESS`: the same chunks on a Dask distributed cluster.

The workers need dmtool installed (the same version); the content does not have to be on
their disks: the loaded bundle (catalogue and storybook index, a few hundred KB) is sent
to every worker once. The chunks and their merge order are those of a local run, so the
report is the same as on the local pool.
"""

from __future__ import annotations

from collections.abc import Iterator

from distributed import Client, as_completed

from dmtool.balance.games import Bundle, Chunk, Config, play_chunk
from dmtool.balance.pool import Runner
from dmtool.balance.tally import Tally
from dmtool.errors import UsageError

CONNECT_SECONDS = 30


def dask_runner(address: str) -> Runner:
    """A runner that sends each chunk to the cluster whose scheduler is at `address`."""

    def run(bundle: Bundle, configs: tuple[Config, ...],
            chunks: list[Chunk]) -> Iterator[tuple[Chunk, Tally]]:
        try:
            client = Client(address, timeout=CONNECT_SECONDS)
        except OSError as error:
            raise UsageError(f"--scheduler: cannot reach a Dask scheduler at {address} "
                             f"({error}).") from None
        with client:
            shared = client.scatter([bundle, configs], broadcast=True)
            # pure=False: a chunk is cheap to name but every submission must run.
            futures = {client.submit(play_chunk, shared[0], shared[1], chunk, pure=False):
                       chunk for chunk in chunks}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                client.cancel(list(futures))

    return run

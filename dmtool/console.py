"""The `dmtool` console script: dmtool starts with Python's cycle collector paused.

Start-up imports some 250 modules and builds their classes (dataclasses among them, each
made by generated code); the allocations trigger collection after collection, each walking
the young heap for nothing, since start-up makes no garbage that reference counting leaves.
That was 3% of the instructions of a one-file `dmtool check` (P3). The CLI freezes what
start-up built and turns the collector back on before a command's own work begins
(cli._start_up_done), so long runs (watch, the language server, balance) collect as ever.
"""

from __future__ import annotations

import gc

gc.disable()

from dmtool import cli  # noqa: E402  (imported with the collector paused: the point)


def main() -> None:
    """What `dmtool` runs: the command line, told that the collector awaits its start-up."""
    cli.main(collector_paused=True)

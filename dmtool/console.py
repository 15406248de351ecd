"""The `dmtool` console script: the daemon's answer, or the command line with the cycle
collector paused.

A `dmtool check` in a folder whose daemon runs (dmtool/daemon/) is handed to it before
click or any checking code is imported: the answer then costs the interpreter's start
and one round trip. Otherwise the CLI runs here.

Start-up imports some 250 modules and builds their classes (dataclasses among them, each
made by generated code); the allocations trigger collection after collection, each walking
the young heap for nothing, since start-up makes no garbage that reference counting leaves.
That was 3% of the instructions of a one-file `dmtool check` (P3). The CLI freezes what
start-up built and turns the collector back on before a command's own work begins
(cli._start_up_done), so long runs (watch, the language server, balance) collect as ever.
"""

from __future__ import annotations

import gc
import sys

gc.disable()

from dmtool.daemon.client import answer_check  # noqa: E402  (standard library only)

EXIT_USAGE = 2  # cli.py's, for the failures of the daemon's path


def main() -> None:
    """What `dmtool` runs: the daemon's answer to a check, or the command line, told that
    the collector awaits its start-up."""
    try:
        code = answer_check(sys.argv[1:])
    except BrokenPipeError:  # as the CLI: the reader of the report went away
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        sys.stderr.write("Aborted.\n")
        sys.exit(EXIT_USAGE)
    if code is not None:
        sys.exit(code)
    # Imported only now: a check the daemon answered never pays for click and the rules.
    from dmtool import cli

    cli.main(collector_paused=True)

"""What the daemon answers: a `dmtool check` command line, run on its live check.

The command line is parsed by the CLI's own `check` command (handed in by cli.py, which
this layer may not import), and run by the function `dmtool check` itself runs
(commands/check.py), with the client's environment and terminal and the daemon's
LiveCheck in place of a check from the cache. A command line that needs the command's
own process (help, a usage error, --watch, --output, --no-cache, --no-daemon, or a
configuration it refuses) is declined: the client then runs it itself, and says what the
command says.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from dmtool.commands.check import CheckRequest, Surroundings, run
from dmtool.daemon import protocol
from dmtool.daemon.ahead import CheckAhead
from dmtool.daemon.server import serve
from dmtool.errors import DmtoolError
from dmtool.loading.collector import settle_lasting_state
from dmtool.validation.live import LiveCheck

MakeRequest = Callable[..., CheckRequest]
# Flags whose work is not a report on standard output, or that ask for no daemon.
_OWN_PROCESS = ("watch", "output", "no_cache", "no_daemon")


def serve_checks(make_request: MakeRequest, command: click.Command, paths: tuple[Path, ...], *,
                 idle_seconds: float, ready: Callable[[], None]) -> None:
    """Check `paths` once, then answer this folder's checks until stopped or idle."""
    live = LiveCheck()
    quiet = Surroundings(check=live.run, terminal=False, write=lambda _text: None,
                         progress=False)
    run(make_request(paths=paths, fmt=None, strict=None, select=(), ignore=(), color=False,
                     output=None, no_cache=False, statistics=False, jobs=0), quiet)
    settle_lasting_state()  # the session lives as long as the daemon: see collector.py
    lock = threading.Lock()  # one run at a time: a request's, or one checking ahead
    CheckAhead(live, lock).start()

    def answer_in_turn(*request: Any) -> tuple[Any, ...]:
        with lock:
            return answer(live, make_request, command, *request)

    def release_in_turn() -> None:
        # Not while a check ahead runs: what it replaced is freed after the next answer.
        if lock.acquire(blocking=False):
            try:
                live.release()
            finally:
                lock.release()

    serve(answer_in_turn, cwd=os.getcwd(), idle_seconds=idle_seconds, ready=ready,
          after_reply=release_in_turn)


def answer(live: LiveCheck, make_request: MakeRequest, command: click.Command,
           argv: tuple[str, ...], environ: dict[str, str], terminal: bool) -> tuple[Any, ...]:
    """The reply to one check command line: (ANSWER, report, exit code) or (DECLINE, why)."""
    try:
        with command.make_context("check", list(argv)) as context:
            params = dict(context.params)
    except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
        return protocol.DECLINE, "help, or a usage error: the command itself says it"
    if any(params.get(flag) not in (None, False) for flag in _OWN_PROCESS):
        return protocol.DECLINE, "this check runs in its own process"
    del params["watch"], params["no_daemon"]
    report = io.StringIO()
    try:
        code = run(make_request(**params), Surroundings(
            check=live.run, environ=environ, terminal=terminal, write=report.write,
            progress=False))
    except DmtoolError:
        return protocol.DECLINE, "refused: the command itself says why"
    return protocol.ANSWER, report.getvalue(), code


def ready_signal(fd: int | None) -> Callable[[], None]:
    """What the daemon does once it listens: tell `daemon start` through its pipe, or say
    so on standard output when run by hand."""
    def ready() -> None:
        if fd is None:
            click.echo("dmtool daemon: ready (Ctrl-C or dmtool daemon stop ends it)")
            return
        os.write(fd, b"ready\n")
        os.close(fd)
    return ready

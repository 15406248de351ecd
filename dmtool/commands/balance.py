"""`dmtool balance` glue: progress on a terminal, the report to stdout and to files."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from dmtool.balance.address import reach, scheduler_address
from dmtool.balance.html import render_html
from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.text import render_text
from dmtool.balance.visits import visits_csv
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.command import refusal
from dmtool.packaged import checkout_content
from dmtool.writing import WriteRefused, check_report_path, write_report

EXIT_DONE, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130  # 130: what a shell reports for Ctrl-C


@dataclass(frozen=True)
class BalanceRequest:
    """The command's flags besides what the run needs: where the report goes."""

    options: BalanceOptions
    fmt: str = "text"
    html: Path | None = None
    json_path: Path | None = None
    visits: Path | None = None  # per-entry and per-option visit counts as CSV


class ProgressLine:
    """One line on standard error, rewritten in place: games done, rate, time left.
    Shown only on a terminal (a log file or a pipe gets the closing line alone)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.shown = stream.isatty()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.shown or (now - self.last < 0.2 and done < total):
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = done / elapsed
        left = (total - done) / rate if rate else 0.0
        self.stream.write(f"\r  {done:,} of {total:,} games  {rate:,.0f} games/s  "
                          f"ETA {int(left) // 60}:{int(left) % 60:02d} ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start


def _writable(path: Path) -> None:
    """Refuse a report path that cannot be written before the first game: its folder is
    made (as the write would make it) and a file is created there and removed."""
    folder = Path(os.path.abspath(path)).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise WriteRefused(f"will not write the report to {path.as_posix()}: {folder.as_posix()} "
                           f"cannot be written to ({exc.strerror or exc}); choose another "
                           "file name") from None


def balance_command(request: BalanceRequest) -> int:
    if request.options.scheduler:
        # A usage error before anything else, and a scheduler nothing listens at is said
        # before the content is checked (seconds), not after.
        target, host, port = scheduler_address(request.options.scheduler)
        reach(host, port, target)
    roots = [request.options.content]
    for path in (request.json_path, request.html, request.visits):
        if path is not None:  # refused now, not after minutes of games
            check_report_path(path, content_roots=roots)
            _writable(path)
    for tree in (request.options.content, request.options.against):
        # Content that fails `dmtool check` is not played: its games would measure a bug.
        refused = refusal(checkout_content(tree)) if tree is not None else None
        if refused is not None:
            sys.stdout.write(refused)
            return EXIT_FAILED
    progress = ProgressLine(sys.stderr)
    try:
        outcome = run_balance(request.options, progress=progress)
    except EngineFault as fault:  # the content's fault, said as `play` says it
        sys.stdout.write(f"dmtool: the engine cannot run this content: {fault}\n")
        return EXIT_FAILED
    finally:
        progress.close()
    report = outcome.report
    played = sum(r.finished for r in outcome.runs)
    text = json.dumps(report, indent=1) + "\n" if request.fmt == "json" else render_text(report)
    sys.stdout.write(text)
    if request.json_path is not None:
        write_report(request.json_path, json.dumps(report, indent=1) + "\n",
                     content_roots=roots)
    if request.html is not None:
        write_report(request.html, render_html(report), content_roots=roots)
    if request.visits is not None:
        write_report(request.visits, visits_csv(report), content_roots=roots)
    seconds = progress.seconds
    sys.stderr.write(f"dmtool: {played:,} games in {seconds:.1f} s "
                     f"({played / max(seconds, 1e-9):,.0f} games/s) on {outcome.workers}\n")
    lost = next((r.lost for r in outcome.runs if r.lost), "")
    if lost:
        sys.stderr.write(f"dmtool: {lost}; the report is partial: it covers the "
                         f"{report['finished']:,} games that finished.\n")
        return EXIT_FAILED
    if outcome.interrupted:
        sys.stderr.write(f"dmtool: interrupted; the report covers the {report['finished']:,} "
                         "games that finished.\n")
        return EXIT_INTERRUPTED
    return EXIT_DONE

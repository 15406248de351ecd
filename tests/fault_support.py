"""Helpers of the fault tests: a deadline that turns a hang into a failure.

Speed is measured in `make bench`; these deadlines are generous bounds that only a hang
(or time growing with the square of the input) can cross. They count the processor time
of this process, not the wall clock, so a machine shared with other work does not fail
them (the code under test computes; it waits for nothing).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Hung(AssertionError):
    """The code under test ran past its deadline."""


@contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Fail with Hung when the block takes more than `seconds` of processor time (main
    thread only)."""

    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise Hung(f"{what} did not finish within {seconds} s")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)

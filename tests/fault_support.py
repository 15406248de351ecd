"""Helpers of the fault tests: a deadline that turns a hang into a failure.

Speed is measured in `make bench`; these deadlines are generous bounds that only a hang
(or time growing with the square of the input) can cross, so a loaded machine does not
fail them.
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
    """Fail with Hung when the block runs longer than `seconds` (main thread only)."""

    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise Hung(f"{what} did not finish within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

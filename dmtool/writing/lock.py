"""An exclusive lock on a file's folder, held across read-change-write (campaign state)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dmtool.writing.errors import write_failed
from dmtool.writing.guard import real

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock; one writer at a time is assumed
    fcntl = None  # type: ignore[assignment]


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock for `path` (waiting for other dmtool processes to finish).

    The lock is on the folder of the file's real target: a file that does not exist yet
    can be locked too, the file itself is replaced by rename (so locking its old inode
    would not exclude anyone), and no lock file is left beside the author's files.
    """
    folder = real(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = _lock(folder)
    except OSError as exc:
        raise write_failed(path, exc, doing="lock") from None
    try:
        yield
    finally:
        os.close(fd)  # closing drops the lock


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on the existing `folder` (OSError if it cannot be opened)."""
    fd = _lock(folder)
    try:
        yield
    finally:
        os.close(fd)


def _lock(folder: Path) -> int:
    """An open descriptor of `folder` holding its exclusive lock (waits for it)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        raise
    return fd

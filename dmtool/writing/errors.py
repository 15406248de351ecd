"""Why a write was refused or failed, as one-line usage errors (exit code 2, no traceback)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from dmtool.errors import UsageError

# What the operating system's error means for the person who asked for the file.
_REASONS = {
    errno.ENAMETOOLONG: "the name is too long for the file system; choose a shorter name",
    errno.EROFS: "the file system is read-only; choose a writable folder",
    errno.EACCES: "permission denied; choose a folder you may write to",
    errno.EPERM: "the operation is not permitted there; choose a folder you may write to",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    # Raised by making a folder where a file already is (a new file's name is checked first).
    errno.EEXIST: "a part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOSPC: "no space left on the device; free some space and run again",
    errno.EDQUOT: "the disk quota is exhausted; free some space and run again",
    errno.ENOENT: "a folder on the way does not exist and cannot be created there",
    errno.ELOOP: "the path goes round a loop of symbolic links",
    errno.EFBIG: "the file would be larger than the file system allows",
    errno.EMLINK: "the folder holds too many entries",
    errno.ENXIO: "the device is not available",
}


class WriteRefused(UsageError):
    """dmtool will not write there: the path holds something it must never replace."""


class WriteFailed(UsageError):
    """The operating system refused the write (read-only, full, name too long, ...)."""


def reason(exc: OSError) -> str:
    """A short phrase for an operating-system error."""
    known = _REASONS.get(exc.errno or 0)
    if known:
        return known
    return (exc.strerror or str(exc)).rstrip(".").lower()


def write_failed(path: Path | str, exc: OSError, *, doing: str = "write") -> WriteFailed:
    """A one-line usage error naming the path the user gave and what went wrong."""
    shown = Path(path).as_posix() if isinstance(path, (str, os.PathLike)) else str(path)
    return WriteFailed(f"cannot {doing} {shown}: {reason(exc)}")

"""Writing one file: atomically, through symbolic links, and only where the guard allows.

Four operations, one per reason a command writes a file:

- `write_report`: a report or drawing (check -o, graph -o, balance reports): never over a
  YAML file or a project file, never into version control, docs/ or schemas/;
- `create_file`: a new file (new, witness fixtures): refused if anything is there (a link
  to a missing file creates that file);
- `rewrite_file`: a new version of a file the command has just read (fmt, new's edits,
  play's campaign state): refused unless the file still holds exactly what was read;
- `check_writable`: before long work, fail now rather than lose the work later.

New bytes go to an unnamed file (O_TMPFILE) in the target's folder when the system has
them, so a kill leaves nothing; otherwise to a journaled `.dmtool-...tmp` file that the
next dmtool sweeps (see `temporaries`). The file is synced, then renamed (or, for a new
file, linked) into place: readers see the old bytes or the new ones, never a mix.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from dmtool.writing.errors import WriteFailed, WriteRefused, write_failed
from dmtool.writing.guard import content_reason, project_reason, real
from dmtool.writing.temporaries import journal

_PROC_FD = "/proc/self/fd"


class AlreadyExists(WriteRefused):
    """`create_file` found something at the path; nothing was written."""


class ChangedMeanwhile(WriteRefused):
    """`rewrite_file` found other bytes than the ones read; nothing was written."""


def write_report(path: Path, data: str | bytes, *, content_roots: Iterable[Path] = ()) -> None:
    """Write a report or drawing to `path`, replacing an earlier report there.

    Refused: a folder, a YAML file (or a new one where dmtool would read it as content, in
    `content_roots` or a content/ folder), the project's own files, version control, docs/,
    schemas/. A device or pipe (such as /dev/stdout) is written to directly.
    """
    target = check_report_path(path, content_roots=content_roots)
    payload = _bytes(data)
    try:
        info = _stat(target)
        if info is not None and not stat.S_ISREG(info.st_mode):
            with open(target, "wb") as stream:  # a device or a pipe cannot be replaced
                stream.write(payload)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        replace_bytes(target, payload, info)
    except OSError as exc:
        raise write_failed(path, exc) from None


def check_report_path(path: Path, *, content_roots: Iterable[Path] = ()) -> Path:
    """Raise WriteRefused now if `write_report` would refuse `path`; returns its real path."""
    target = real(path)
    try:
        why = "it is a folder" if target.is_dir() else (
            project_reason(target) or content_reason(target, content_roots))
    except OSError as exc:  # a name too long, a loop of links: the path cannot be used
        raise write_failed(path, exc, doing="use") from None
    if why:
        raise WriteRefused(f"will not write the report to {path.as_posix()}: {why}; "
                           "choose another file name")
    return target


def create_file(path: Path, data: str | bytes) -> None:
    """Write a new file at `path`; refused (AlreadyExists) if anything is already there."""
    target = real(path)
    why = project_reason(target)
    if why:
        raise WriteRefused(f"will not create {path.as_posix()}: {why}")
    # A link whose target is missing is written through: the target is created.
    if os.path.lexists(target) or (os.path.lexists(path) and not os.path.islink(path)):
        raise AlreadyExists(f"{path.as_posix()} already exists; dmtool never replaces it")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        create_bytes(target, _bytes(data))
    except FileExistsError:
        raise AlreadyExists(f"{path.as_posix()} already exists; dmtool never replaces it") \
            from None
    except OSError as exc:
        raise write_failed(path, exc) from None


def rewrite_file(path: Path, data: str | bytes, *, expected: bytes) -> None:
    """Replace the file at `path` (its target, if a link) provided it still holds `expected`:
    compared before the new bytes are written, and again just before they are renamed in."""
    target = real(path)
    why = project_reason(target)
    if why:
        raise WriteRefused(f"will not rewrite {path.as_posix()}: {why}")
    try:
        info = _stat(target)
        if info is None or not stat.S_ISREG(info.st_mode):
            raise ChangedMeanwhile(f"{path.as_posix()} is no longer a regular file; "
                                   "it was left as it is")
        changed = ChangedMeanwhile(f"{path.as_posix()} changed while dmtool was working on "
                                   "it; it was left as it is; run the command again")
        if target.read_bytes() != expected:
            raise changed
        try:
            replace_bytes(target, _bytes(data), info, expected=expected)
        except ChangedMeanwhile:
            raise changed from None
    except OSError as exc:
        raise write_failed(path, exc) from None


def check_writable(path: Path) -> None:
    """Fail now (WriteRefused, WriteFailed) if a file could not be written at `path` later."""
    target = real(path)
    try:
        why = "it is a folder" if target.is_dir() else project_reason(target)
    except OSError as exc:
        raise write_failed(path, exc, doing="use") from None
    if why:
        raise WriteRefused(f"will not write {path.as_posix()}: {why}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = _open_temporary(target.parent, 0o600)
        os.close(fd)
        if temp is not None:
            os.unlink(temp)
    except OSError as exc:
        raise write_failed(path, exc) from None


# -- the mechanics ----------------------------------------------------------------------


def _bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


@lru_cache(maxsize=1)
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _open_temporary(folder: Path, mode: int) -> tuple[int, Path | None]:
    """An open file in `folder`: unnamed (path None) where the system allows, else journaled."""
    unnamed = getattr(os, "O_TMPFILE", 0)
    if unnamed and os.path.isdir(_PROC_FD):
        try:
            return os.open(folder, unnamed | os.O_WRONLY, mode), None
        except OSError as exc:
            # Not supported by this file system: fall back to a named temporary.
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise
    record = journal()
    temp = folder / record.name(".tmp")
    record.record(file=str(temp))
    return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), temp


def _fill(fd: int, data: bytes | tuple[bytes, ...], info: os.stat_result | None, *,
          sync: bool = True) -> None:
    for part in (data,) if isinstance(data, bytes) else data:
        view = memoryview(part)
        while view:
            view = view[os.write(fd, view):]
    if info is not None:
        os.fchmod(fd, stat.S_IMODE(info.st_mode))
        if hasattr(os, "geteuid") and os.geteuid() == 0 and info.st_uid != 0:
            os.fchown(fd, info.st_uid, info.st_gid)  # root keeps an author's file theirs
    else:
        os.fchmod(fd, 0o666 & ~_umask())
    if sync:
        os.fsync(fd)


def replace_bytes(target: Path, data: bytes | tuple[bytes, ...], info: os.stat_result | None,
                  *, expected: bytes | None = None, sync: bool = True) -> None:
    """Put `data` (bytes, or parts written one after another) at `target` by rename: the
    mechanics only, the caller has judged the path. With `expected`, the file is compared
    again just before the rename (the fill and its sync may take long, and an editor may
    save meanwhile): ChangedMeanwhile, and nothing replaced, if it no longer holds that."""
    fd, temp = _open_temporary(target.parent, 0o600)
    try:
        _fill(fd, data, info, sync=sync)
        if temp is None:
            temp = target.parent / journal().name(".tmp")
            journal().record(file=str(temp))
            _link_unnamed(fd, temp)
        if expected is not None and _read_or_none(target) != expected:
            raise ChangedMeanwhile(f"{target.name} changed while dmtool was writing it")
        os.replace(temp, target)
        temp = None
    finally:
        os.close(fd)
        if temp is not None and os.path.lexists(temp):
            os.unlink(temp)
    if sync:
        _sync_folder(target.parent)


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def create_bytes(target: Path, data: bytes) -> None:
    """Link a new file holding `data` at `target`, never over anything (FileExistsError):
    the mechanics only, the caller has judged the path."""
    fd, temp = _open_temporary(target.parent, 0o600)
    try:
        _fill(fd, data, None)
        # A link never replaces an existing name: creation without clobbering, atomically.
        if temp is not None:
            os.link(temp, target)
        else:
            _link_unnamed(fd, target)
    finally:
        os.close(fd)
        if temp is not None and os.path.lexists(temp):
            os.unlink(temp)
    _sync_folder(target.parent)


def _link_unnamed(fd: int, name: Path) -> None:
    """Give the unnamed file `fd` a name: linkat(AT_SYMLINK_FOLLOW) on its /proc entry.
    Python calls linkat (rather than link, which would not follow) only given a folder fd."""
    proc = os.open(_PROC_FD, os.O_RDONLY)
    try:
        os.link(str(fd), name, src_dir_fd=proc, follow_symlinks=True)
    finally:
        os.close(proc)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable; some systems cannot sync folders, which is no error."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = ["AlreadyExists", "ChangedMeanwhile", "WriteFailed", "WriteRefused", "check_report_path",
           "check_writable",
           "create_file", "rewrite_file", "write_report"]

"""Finding content files under the paths given on the command line.

Directories are walked with an explicit stack (no recursion), hidden entries such as
`.git` or `.venv` are skipped, symbolic links are followed but a link back into a
directory being walked is reported instead of looping, and every path that cannot be
looked at becomes a DM010 diagnostic rather than an exception.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.loading.reading import stat_failure_message

YAML_SUFFIXES = (".yaml", ".yml")


class Walked:
    """What a discovery looked at, for a caller that wants to know when its answer could
    change (the daemon, validation/live.py): the stat of every folder it listed, taken
    before the listing, and whether it met a symbolic link (whose target may change while
    every folder it was found in stays as it was)."""

    __slots__ = ("folders", "links")

    def __init__(self) -> None:
        # (folder, (size, mtime, ctime, inode, device, mode)): validation/filekeys.py's Stat.
        self.folders: list[tuple[str, tuple[int, ...]]] = []
        self.links = False

    def listing(self, directory: Path) -> None:
        info = os.stat(directory)
        self.folders.append((str(directory), (info.st_size, info.st_mtime_ns, info.st_ctime_ns,
                                              info.st_ino, info.st_dev, info.st_mode)))


def discover(paths: Sequence[Path],
             walked: Walked | None = None) -> tuple[list[Path], list[Diagnostic]]:
    """YAML files under `paths`, sorted and deduplicated; bad paths become diagnostics.

    A file named explicitly is taken whatever its suffix. Files are returned as found
    (not resolved), in path order; two paths to the same file (through a link, or given
    twice) are kept once, the first in that order. `walked`, when given, is told what
    the walk looked at.
    """
    found: list[Path] = []
    reals: dict[Path, str] = {}  # the real path of each file the walk found
    problems: list[Diagnostic] = []
    for root in paths:
        if walked is not None and os.path.islink(root):
            walked.links = True
        try:
            info = root.stat()
        except OSError as exc:
            problems.append(_unreadable(root, stat_failure_message(root, exc)))
            continue
        if stat.S_ISDIR(info.st_mode):
            _walk(root, found, reals, problems, walked)
        else:
            # read_document reports anything that is not a regular file.
            found.append(root)
    return _unique(found, reals), problems


def is_yaml_name(name: str) -> bool:
    """True for file names dmtool reads as content (.yaml and .yml, any case)."""
    return name.lower().endswith(YAML_SUFFIXES)


def _walk(root: Path, found: list[Path], reals: dict[Path, str],
          problems: list[Diagnostic], walked: Walked | None) -> None:
    # Each entry: a directory to list, its real path and the real paths of the directories
    # above it, which is how a link pointing back up (a loop) is recognised. A real path is
    # resolved (a system call per part of it) only through a link: an entry that is none
    # is its directory's real path joined with its name.
    pending: list[tuple[Path, str, frozenset[str]]] = [
        (root, os.path.realpath(root), frozenset())]
    walked_real: set[str] = set()
    while pending:
        directory, real, above = pending.pop()
        if real in above:
            problems.append(_unreadable(directory, (
                f"{directory.as_posix()} is a symbolic link back into a directory that "
                "contains it; dmtool skips it. Remove the link or point it elsewhere.")))
            continue
        if real in walked_real:
            continue  # reached again through another link: its files are already found
        walked_real.add(real)
        try:
            if walked is not None:
                walked.listing(directory)
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            problems.append(_unreadable(directory, _listing_failure(directory, exc)))
            continue
        inside = above | {real}
        for entry in entries:
            if entry.name.startswith("."):
                continue  # .git, .venv, editor back-ups: never content
            path = directory / entry.name
            if walked is not None and _is_link(entry):
                walked.links = True
            kind, message = _entry_kind(entry)
            if kind == "dir":
                pending.append((path, _real(entry, real), inside))
            elif kind == "file":
                if is_yaml_name(entry.name):
                    found.append(path)
                    reals[path] = _real(entry, real)
            elif kind == "loop" or is_yaml_name(entry.name):
                # A broken entry matters if it was meant as content; a link loop always
                # does, since it may have been meant as a directory of content.
                problems.append(_unreadable(path, message))


def _real(entry: os.DirEntry[str], folder_real: str) -> str:
    """The real path of an entry of the folder whose real path is `folder_real`."""
    if _is_link(entry):
        return os.path.realpath(entry.path)
    return os.path.join(folder_real, entry.name)


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return True  # not known: resolved the slow way, as a link would be


def _entry_kind(entry: os.DirEntry[str]) -> tuple[str, str]:
    """('dir' | 'file' | 'loop' | 'broken' | 'special', why it cannot be used)."""
    if not _is_link(entry):  # the listing's own file type: no system call on Linux
        try:
            if entry.is_dir(follow_symlinks=False):
                return "dir", ""
            if entry.is_file(follow_symlinks=False):
                return "file", ""
        except OSError:
            pass  # told below, with the reason
    try:
        info = entry.stat()  # follows symbolic links
    except OSError as exc:
        kind = "loop" if exc.errno == errno.ELOOP else "broken"
        return kind, stat_failure_message(Path(entry.path), exc)
    if stat.S_ISDIR(info.st_mode):
        return "dir", ""
    if stat.S_ISREG(info.st_mode):
        return "file", ""
    return "special", (f"{Path(entry.path).as_posix()} is not a regular file (it is a pipe, "
                       "socket or device); content must be plain files.")


def _listing_failure(directory: Path, exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"The directory {directory.as_posix()} cannot be listed (permission denied); "
                "check its permissions.")
    return f"The directory {directory.as_posix()} cannot be listed: {exc.strerror or exc}."


def _unreadable(path: Path, message: str) -> Diagnostic:
    return diagnose("DM010", Location(path.as_posix(), 1, 1), message)


def _unique(found: list[Path], reals: dict[Path, str]) -> list[Path]:
    seen: set[str] = set()
    unique: list[Path] = []
    folders: dict[str, str] = {}  # real path of each folder, resolved once for its files
    for path in sorted(found, key=lambda p: p.parts):
        known_real = reals.get(path)
        if known_real is not None:
            real = known_real
        elif os.path.islink(path):
            real = os.path.realpath(path)
        else:
            folder, name = os.path.split(path)
            known = folders.get(folder)
            if known is None:
                known = folders[folder] = os.path.realpath(folder)
            real = os.path.join(known, name)
        if real not in seen:
            seen.add(real)
            unique.append(path)
    return unique


CONTENT_DIR_NAME = "content"


def content_roots(paths: Sequence[Path]) -> list[Path]:
    """The `content/` folders that contain (or are) the given paths.

    Checking one file still needs its neighbours: references, round trackers and cards
    are resolved against the whole content tree around it.
    """
    roots: list[Path] = []
    for path in paths:
        for candidate in [path, *path.parents] if path.is_dir() else list(path.parents):
            if candidate.name == CONTENT_DIR_NAME and candidate.is_dir():
                if candidate not in roots:
                    roots.append(candidate)
                break
    return roots

"""What identifies a file's content for the cache: a hash of its bytes, and a safe stat shortcut.

The key of a file is a hash of its bytes. Stat data only lets a run skip reading a file
whose stat is entirely unchanged since its bytes were hashed: size, modification time,
change time, inode, device and mode. The change time cannot be set by users (`touch -r`,
`cp -p`, rsync and tar restore the modification time, never the change time), and a
copy or a retargeted link has another inode, so any such edit forces a re-hash. A file
changed within the same clock tick as its hashing could keep all of these, so a stat
taken less than RACY_NS after the file's last change is never trusted later (git calls
such entries "racily clean").
"""

from __future__ import annotations

import os
import time
from pathlib import Path

try:
    # hot path: the very function hashlib hands out for BLAKE2b, without importing hashlib,
    # which first loads OpenSSL's hashes (~2.5 ms of every dmtool start, a one-file
    # pre-commit run included, and libcrypto's 3.5 MB resident in every check). Modules
    # that hash content import it from here.
    from _blake2 import blake2b
except ImportError:  # a Python built without its own BLAKE2
    from hashlib import blake2b

# Wider than any file system's timestamp granularity (FAT: 2 s).
RACY_NS = 3_000_000_000

Stat = tuple[int, int, int, int, int, int]


def stat_of(path: Path | str) -> Stat | None:
    """(size, mtime, ctime, inode, device, mode) of what `path` points to, or None."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev,
            info.st_mode)


def trustworthy(found: tuple[int, ...]) -> bool:
    """Whether this stat may stand for the content later: not taken in a racy moment (any
    stat of Stat's fields: a folder's stamp of discovery.Walked too)."""
    return time.time_ns() - max(found[1], found[2]) > RACY_NS


def digest(raw: bytes) -> str:
    """The content key of a file's bytes (BLAKE2b, 128 bits: fast, and no collisions)."""
    return blake2b(raw, digest_size=16).hexdigest()


def readable(path: Path) -> bool:
    """Whether this process may read the file (part of the run key: chmod changes answers)."""
    return os.access(path, os.R_OK)


def code_salt(package: Path, schema_dir: Path, version: str, cache_format: int) -> str:
    """Changes whenever dmtool's code, its version, or the bytes of any schema change.

    Code files are keyed by their full stat (an installed package changes by replacing
    files); schemas by their bytes, as content is.
    """
    # hot path: this runs at the start of every check (a one-file hook run included), so the
    # stats go into one list hashed at once, and the folders are read with scandir.
    hasher = blake2b(f"{cache_format}:{version}:{schema_dir.resolve()}".encode(),
                             digest_size=12)
    hasher.update(repr([(path, stat_of(path)) for path in python_files(str(package))]).encode())
    for name, path in schema_files(str(schema_dir)):
        try:
            with open(path, "rb") as handle:
                hasher.update(f"{name}:".encode() + handle.read())
        except OSError:
            hasher.update(f"{name}:unreadable".encode())
    return hasher.hexdigest()


def python_files(top: str, folders: list[tuple[str, Stat | None]] | None = None) -> list[str]:
    """Every .py file under `top`, sorted (plain strings: this runs on every check, and
    path objects cost more than the stat calls themselves); `folders`, when given, is
    told the stat of each folder listed, taken before its listing."""
    found: list[str] = []
    pending = [top]
    while pending:
        folder = pending.pop()
        if folders is not None:
            folders.append((folder, stat_of(folder)))
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if not entry.is_dir():
                if entry.name.endswith(".py"):
                    found.append(entry.path)
            elif entry.name != "__pycache__" and not entry.is_symlink():  # as os.walk does
                pending.append(entry.path)
    found.sort()
    return found


def schema_files(directory: str) -> list[tuple[str, str]]:
    """(name, path) of each *.json file in the schema folder, sorted by name."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    return sorted((e.name, e.path) for e in entries if e.name.endswith(".json"))

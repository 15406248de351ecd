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

# hashlib's own BLAKE2b (hashlib.blake2b is this very function): importing hashlib loads
# OpenSSL's libcrypto, 3.5 MB resident in every check, for hashes dmtool never uses.
from _blake2 import blake2b
from pathlib import Path

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


def trustworthy(found: Stat) -> bool:
    """Whether this stat may stand for the content later: not taken in a racy moment."""
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
    hasher = blake2b(f"{cache_format}:{version}:{schema_dir.resolve()}".encode(),
                             digest_size=12)
    for path in _python_files(str(package)):
        hasher.update(f"{path}:{stat_of(path)};".encode())
    for path in sorted(schema_dir.glob("*.json")):
        try:
            hasher.update(f"{path.name}:".encode() + path.read_bytes())
        except OSError:
            hasher.update(f"{path.name}:unreadable".encode())
    return hasher.hexdigest()


def _python_files(top: str) -> list[str]:
    """Every .py file under `top`, sorted (plain strings: this runs on every check, and
    path objects cost more than the stat calls themselves)."""
    found: list[str] = []
    for folder, folders, files in os.walk(top):
        folders[:] = [name for name in folders if name != "__pycache__"]
        found += [os.path.join(folder, name) for name in files if name.endswith(".py")]
    return sorted(found)

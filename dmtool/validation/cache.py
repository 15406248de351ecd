"""The check cache: unchanged files cost a stat, an unchanged run costs a stat per file.

Two layers, both keyed by a salt that changes with dmtool's code and schemas:
- per file, keyed by (path, size, mtime): the file's own diagnostics (loading, kind,
  schema) and, when it is valid, its data, so rules can run without re-parsing it;
- per run, keyed by every file's stamp and the options: the whole finished report, so
  checking an unchanged tree again replays the answer.
Values are plain tuples serialised with `marshal` (fast, and never executes code), and the
file is replaced atomically; a missing, stale or corrupt cache is simply ignored.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.diagnostics import Diagnostic, Location, Severity

CACHE_ENV = "DMTOOL_CACHE_DIR"
NO_CACHE_ENV = "DMTOOL_NO_CACHE"
DEFAULT_DIRECTORY = ".dmtool-cache"
_FORMAT = 2

Stamp = tuple[int, int]


def stamp(path: Path) -> Stamp | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def code_salt(schema_dir: Path) -> str:
    """Changes whenever dmtool's code, its version or any schema changes."""
    digest = hashlib.sha256(f"{_FORMAT}:{__version__}".encode())
    package = Path(__file__).resolve().parents[1]
    for path in sorted([*package.rglob("*.py"), *schema_dir.glob("*.json")]):
        found = stamp(path)
        digest.update(f"{path}:{found}".encode())
    return digest.hexdigest()[:24]


def default_directory() -> Path | None:
    """Where the cache lives, or None when caching is switched off by the environment."""
    if os.environ.get(NO_CACHE_ENV):
        return None
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_DIRECTORY)


def _location_tuple(location: Location) -> tuple[Any, ...]:
    return (location.path, location.line, location.column, location.pointer,
            location.end_line, location.end_column, location.subject)


def pack(diagnostic: Diagnostic) -> tuple[Any, ...]:
    return (diagnostic.code, diagnostic.severity.value, diagnostic.message,
            _location_tuple(diagnostic.location), diagnostic.hint,
            tuple(_location_tuple(r) for r in diagnostic.related))


def unpack(packed: tuple[Any, ...]) -> Diagnostic:
    code, severity, message, location, hint, related = packed
    return Diagnostic(code, Severity(severity), message, Location(*location), hint,
                      tuple(Location(*r) for r in related))


@dataclass
class FileEntry:
    stamp: Stamp
    display: str
    diagnostics: list[tuple[Any, ...]]
    data: Any
    modeline: str | None
    valid: bool
    # The file's packed DocumentFacts when anything could be read of it (then `data` is
    # what was read, trusted only when `valid`).
    facts: tuple[Any, ...] | None = None


@dataclass
class CheckCache:
    """One cache file per salt; loaded once, saved once at the end of a run."""

    directory: Path | None
    salt: str
    files: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    runs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    _dirty: bool = False

    @classmethod
    def open(cls, directory: Path | None, *, schema_dir: Path) -> CheckCache:
        if directory is None:
            return cls(None, "")
        cache = cls(directory, code_salt(schema_dir))
        try:
            stored = marshal.loads(cache._file().read_bytes())
            if isinstance(stored, dict):
                cache.files = stored.get("files", {})
                cache.runs = stored.get("runs", {})
        except (OSError, EOFError, ValueError, TypeError):
            pass
        return cache

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _file(self) -> Path:
        assert self.directory is not None
        return self.directory / f"check-{self.salt}.marshal"

    def file(self, path: Path, current: Stamp | None) -> FileEntry | None:
        stored = self.files.get(str(path.resolve())) if self.enabled and current else None
        if stored is None or tuple(stored[0]) != current:
            return None
        return FileEntry(tuple(stored[0]), stored[1], list(stored[2]), stored[3], stored[4], stored[5],
                         stored[6])

    def remember_file(self, path: Path, entry: FileEntry) -> None:
        if self.enabled:
            self.files[str(path.resolve())] = (entry.stamp, entry.display, tuple(entry.diagnostics),
                                               entry.data, entry.modeline, entry.valid, entry.facts)
            self._dirty = True

    def run_key(self, stamps: Iterable[tuple[str, Stamp | None]], options: tuple[Any, ...]) -> str:
        digest = hashlib.sha256(repr(options).encode())
        for name, found in stamps:
            digest.update(f"{name}:{found};".encode())
        return digest.hexdigest()

    def run(self, key: str) -> tuple[Any, ...] | None:
        return self.runs.get(key) if self.enabled else None

    def remember_run(self, key: str, value: tuple[Any, ...]) -> None:
        if self.enabled:
            self.runs = {key: value}  # only the latest run is worth replaying
            self._dirty = True

    def save(self) -> None:
        if not self.enabled or not self._dirty:
            return
        assert self.directory is not None
        from dmtool.util.atomic import write_bytes_atomic  # tempfile is slow to import

        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            _mark_as_cache(self.directory)
            for old in self.directory.glob("check-*.marshal"):
                if old != self._file():
                    old.unlink(missing_ok=True)
            write_bytes_atomic(self._file(), marshal.dumps({"files": self.files, "runs": self.runs}))
        except OSError:
            pass  # a read-only tree still gets its report, only slower next time


def _mark_as_cache(directory: Path) -> None:
    """Tell git and backup tools to leave the folder alone (as ruff and pytest do)."""
    ignore = directory / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# Created by dmtool: the check cache.\n*\n", encoding="utf-8")
    tag = directory / "CACHEDIR.TAG"
    if not tag.exists():
        tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n"
                       "# This file is a cache directory tag created by dmtool.\n", encoding="utf-8")

"""The check cache on disk: verified before use, never trusted blindly, never fatal.

One file per code salt (dmtool's code and schemas), holding three sections:
- paths: absolute path -> (stat, content digest): the stat shortcut of filekeys.py;
- records: (content digest, display name, size limit) -> what checking that content found:
  its own diagnostics, kind, id, modeline, data (marshalled apart, unpacked only when a
  rule reads it) and memos (values rules derived from the document, see SourceDocument.memo);
- runs: run key -> the finished report, replayed when nothing that decides it changed.
- derived: a run key and what a command asked of it -> what the command made of that run
  (e.g. `dmtool graph`'s summary), plain data, kept while it is used.
The file is framed: a magic number, a BLAKE2b checksum of the payload, the payload
(marshal: fast, and it never executes code). A file whose checksum fails is discarded
before it is unmarshalled; every entry is checked for its shape when it is used, and an
entry that fails is dropped and recomputed. Saving writes a new file and renames it over
the old one, so concurrent runs each leave a whole file (the last one wins).

The folder is the cache's own (`dmtool.writing.owned`): created and tagged by dmtool, or
found empty. A folder holding anything else (`DMTOOL_CACHE_DIR` pointed at an author's
folder) is refused before the check starts, and nothing in it is written or deleted; in
its own folder the cache deletes only cache files it wrote (named `check-<salt>.cache`,
starting with the magic number) and the temporaries of older versions whose writer is gone.
"""

from __future__ import annotations

import marshal
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.diagnostics import Diagnostic, Location, Severity
from dmtool.validation.filekeys import Stat, blake2b, code_salt
from dmtool.writing.errors import WriteFailed, WriteRefused
from dmtool.writing.owned import OwnedFolder
from dmtool.writing.temporaries import sweep_leftovers

CACHE_ENV = "DMTOOL_CACHE_DIR"
NO_CACHE_ENV = "DMTOOL_NO_CACHE"
DEFAULT_DIRECTORY = ".dmtool-cache"
_FORMAT = 2
MAGIC = b"dmtool-cache\x00" + bytes([_FORMAT])
_CHECKSUM_BYTES = 32
# Entries not used by this many runs in a row are dropped (several trees may share a folder).
KEEP_RUNS = 8
# A run that changed nothing but the stamps of the entries it used rewrites the file for
# them only once one of them is this many runs old: a replay of an unchanged tree (the warm
# check) then writes nothing, and an entry used at least once in every KEEP_RUNS -
# RESTAMP_AGE runs of other trees sharing the folder is still never dropped.
RESTAMP_AGE = KEEP_RUNS // 2
_SEVERITIES = frozenset(s.value for s in Severity)
# The tag that makes a folder the cache's own (the cache-directory standard, which backup
# tools honour, worded as dmtool has always written it) and what its .gitignore says.
CACHE_TAG = ("CACHEDIR.TAG", b"Signature: 8a477f597d28d172789f06886806bc55\n"
                             b"# This file is a cache directory tag created by dmtool.\n")
_IGNORE = b"# Created by dmtool: the check cache.\n*\n"
# What the cache writes in its folder: its files, and the temporaries of versions before
# the journal (named by their writer's process id, left behind when it was killed).
_CACHE_FILE = re.compile(r"check-[0-9a-f]+\.cache")
_OLD_TEMPORARY = re.compile(r"\.check-[0-9a-f]+\.cache\.([0-9]+)\.tmp")
_MAGIC_BASE = MAGIC[:-1]  # any format's


def default_directory() -> Path | None:
    """Where the cache lives, or None when caching is switched off by the environment."""
    if os.environ.get(NO_CACHE_ENV):
        return None
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_DIRECTORY)


def cache_folder(directory: Path) -> OwnedFolder:
    """The cache's folder, which it writes only once it is its own (see the module doc)."""
    return OwnedFolder(directory, tag=CACHE_TAG, ignore=_IGNORE, purpose="the check cache",
                       advice=f"point {CACHE_ENV} at a new or empty folder, or pass --no-cache")


def frame(payload: bytes) -> bytes:
    """The bytes of a whole cache file holding `payload`."""
    return frame_head(payload) + payload


def frame_head(payload: bytes) -> bytes:
    """What a cache file holding `payload` starts with (the payload follows it)."""
    return MAGIC + blake2b(payload, digest_size=_CHECKSUM_BYTES).digest()


def unframe(raw: bytes) -> bytes | None:
    """The payload of a cache file, or None when it is not one or does not verify."""
    head = len(MAGIC) + _CHECKSUM_BYTES
    if len(raw) < head or not raw.startswith(MAGIC):
        return None
    payload = raw[head:]
    if blake2b(payload, digest_size=_CHECKSUM_BYTES).digest() != raw[len(MAGIC):head]:
        return None
    return payload


# ---------------------------------------------------------------- diagnostics as plain tuples

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


def moved(packed: tuple[Any, ...], path: str,
          line_now: Callable[[int], int | None]) -> tuple[Any, ...] | None:
    """A packed diagnostic whose places in the file `path` are put on the lines they are on
    now (`line_now` maps a line of the file as it was to the line it is now, or to None
    where it cannot tell); None when a place cannot be moved."""
    code, severity, message, location, hint, related = packed
    places = [_moved_place(place, path, line_now) for place in (location, *related)]
    if any(place is None for place in places):
        return None
    return (code, severity, message, places[0], hint, tuple(places[1:]))


def _moved_place(place: tuple[Any, ...], path: str,
                 line_now: Callable[[int], int | None]) -> tuple[Any, ...] | None:
    if place[0] != path:
        return place
    line = line_now(place[1])
    end_line = place[4] if place[4] is None else line_now(place[4])
    if line is None or (place[4] is not None and end_line is None):
        return None
    return (place[0], line, place[2], place[3], end_line, place[5], place[6])


def _is_location(value: Any) -> bool:
    return (type(value) is tuple and len(value) == 7 and type(value[0]) is str
            and type(value[1]) is int and type(value[2]) is int and type(value[3]) is str
            and all(v is None or type(v) is int for v in value[4:6]) and type(value[6]) is str)


def is_packed(value: Any) -> bool:
    """Shape check of one packed diagnostic."""
    return (type(value) is tuple and len(value) == 6 and type(value[0]) is str
            and value[1] in _SEVERITIES and type(value[2]) is str and _is_location(value[3])
            and (value[4] is None or type(value[4]) is str) and type(value[5]) is tuple
            and all(_is_location(r) for r in value[5]))


def are_packed(value: Any) -> bool:
    return type(value) is tuple and all(is_packed(v) for v in value)


def _optional_str(value: Any) -> bool:
    return value is None or type(value) is str


# ---------------------------------------------------------------- entries

@dataclass(slots=True)
class FileRecord:
    """What checking one file's content found (independent of where the file is)."""

    diagnostics: tuple[tuple[Any, ...], ...]
    kind: str | None
    doc_id: str | None
    modeline: str | None
    modeline_line: int | None
    # The document loaded (it may still have schema errors); its data is `data_blob`, or
    # None for a large file (parsed again if a rule ever reads it: memos usually suffice).
    loaded: bool
    data_blob: bytes | None
    memos: dict[str, Any] = field(default_factory=dict)

    def as_tuple(self, generation: int) -> tuple[Any, ...]:
        return (self.diagnostics, self.kind, self.doc_id, self.modeline, self.modeline_line,
                self.loaded, self.data_blob, self.memos, generation)

    @classmethod
    def from_tuple(cls, value: Any) -> FileRecord | None:
        """The record, or None when `value` does not have a record's shape."""
        if type(value) is not tuple or len(value) != 9:
            return None
        diagnostics, kind, doc_id, modeline, line, loaded, blob, memos, _ = value
        if not (are_packed(diagnostics) and _optional_str(kind) and _optional_str(doc_id)
                and _optional_str(modeline) and (line is None or type(line) is int)
                and type(loaded) is bool and (blob is None or type(blob) is bytes)
                and type(memos) is dict and all(type(k) is str for k in memos)
                and (blob is None or loaded)):
            return None
        return cls(diagnostics, kind, doc_id, modeline, line, loaded, blob, dict(memos))


def record_key(content: str, display: str, limit: int, nesting: int | None = None) -> str:
    """The key of the record of a file's bytes (their digest `content`) checked under a size
    limit and a max-nesting setting (None: none), shown as `display`: a record made under
    other limits may say otherwise of the same bytes."""
    if nesting is None:
        return f"{content}|{limit}|{display}"
    return f"{content}|{limit}/{nesting}|{display}"


def _is_stat(value: Any) -> bool:
    return type(value) is tuple and len(value) == 6 and all(type(v) is int for v in value)


@dataclass(slots=True)
class CheckCache:
    """One cache file per salt; loaded once, saved once at the end of a run."""

    directory: Path | None
    salt: str = ""
    generation: int = 0
    paths: dict[str, Any] = field(default_factory=dict)
    records: dict[str, Any] = field(default_factory=dict)
    runs: dict[str, Any] = field(default_factory=dict)
    derived: dict[str, Any] = field(default_factory=dict)
    _dirty: bool = False

    @classmethod
    def open(cls, directory: Path | None, *, schema_dir: Path) -> CheckCache:
        if directory is None:
            return cls(None)
        cache_folder(directory).check()  # a usage error, before any work
        # A run killed while saving may have left a temporary here, and this run may save
        # nothing (it replays): tidy now (a look at an empty folder, most of the time).
        sweep_leftovers()
        package = Path(__file__).resolve().parents[1]
        cache = cls(directory, code_salt(package, schema_dir, __version__, _FORMAT))
        try:
            raw = cache._file().read_bytes()
        except OSError:
            return cache
        payload = unframe(raw)
        if payload is None:
            return cache
        try:
            stored = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return cache
        if (type(stored) is dict and type(stored.get("generation")) is int
                and all(type(stored.get(k)) is dict for k in ("paths", "records", "runs"))):
            cache.generation = stored["generation"] + 1
            cache.paths, cache.records, cache.runs = (
                stored["paths"], stored["records"], stored["runs"])
            if type(stored.get("derived")) is dict:
                cache.derived = stored["derived"]
        return cache

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _file(self) -> Path:
        assert self.directory is not None
        return self.directory / f"check-{self.salt}.cache"

    # -- the stat shortcut

    def known_digest(self, path: str, found: Stat) -> str | None:
        """The content digest stored for `path`, if its stat is exactly the stored one."""
        entry = self.paths.get(path)
        if (type(entry) is tuple and len(entry) == 3 and _is_stat(entry[0])
                and type(entry[1]) is str and entry[0] == found):
            if entry[2] != self.generation:
                self.paths[path] = (entry[0], entry[1], self.generation)
                self._used(entry[2])
            return entry[1]
        if entry is not None and entry[0:1] != (found,):
            self.paths.pop(path, None)
        return None

    def remember_digest(self, path: str, found: Stat, content: str) -> None:
        if self.enabled:
            self.paths[path] = (found, content, self.generation)
            self._dirty = True

    def forget_path(self, path: str) -> None:
        if self.paths.pop(path, None) is not None:
            self._dirty = True

    # -- per-content records

    def record(self, key: str) -> FileRecord | None:
        stored = self.records.get(key) if self.enabled else None
        if stored is None:
            return None
        record = FileRecord.from_tuple(stored)
        if record is None:
            del self.records[key]  # wrong shape: recompute, never trust
            self._dirty = True
        return record

    def remember_record(self, key: str, record: FileRecord) -> None:
        if self.enabled:
            self.records[key] = record.as_tuple(self.generation)
            self._dirty = True

    def touch_record(self, key: str, memos: dict[str, Any] | None = None) -> None:
        """Mark a record as used by this run, replacing its memos when given."""
        stored = self.records.get(key)
        if type(stored) is tuple and len(stored) == 9:
            if memos is None and stored[8] == self.generation:
                return
            new_memos = stored[7] if memos is None else memos
            self.records[key] = stored[:7] + (new_memos, self.generation)
            if memos is None:
                self._used(stored[8])
            else:
                self._dirty = True

    # -- whole runs

    def run(self, key: str) -> tuple[Any, ...] | None:
        stored = self.runs.get(key) if self.enabled else None
        if stored is None:
            return None
        if (type(stored) is tuple and len(stored) == 3 and are_packed(stored[0])
                and type(stored[1]) is int and type(stored[2]) is tuple
                and all(type(s) is tuple and len(s) == 2 and type(s[0]) is str
                        and type(s[1]) is str for s in stored[2])):
            return stored
        del self.runs[key]
        self._dirty = True
        return None

    def remember_run(self, key: str, value: tuple[Any, ...]) -> None:
        if self.enabled:
            # Only the latest run per tree is worth replaying; several trees may share a folder.
            self.runs = {k: v for k, v in self.runs.items()
                         if k.split(":", 1)[0] != key.split(":", 1)[0]}
            self.runs[key] = value
            self._dirty = True

    # -- what commands derive from a run

    def derived_value(self, key: str) -> Any:
        """What a command stored for this key (its run key, NUL, its own options), or None."""
        stored = self.derived.get(key) if self.enabled else None
        if type(stored) is not tuple or len(stored) != 2 or type(stored[1]) is not int:
            return None
        return stored[0]

    def touch_derived(self, run_key: str) -> None:
        """Keep what commands derived from a replayed run as long as the run itself."""
        for key, stored in self.derived.items():
            if (key.startswith(f"{run_key}\0") and type(stored) is tuple and len(stored) == 2
                    and stored[1] != self.generation):
                self.derived[key] = (stored[0], self.generation)
                self._used(stored[1])

    def remember_derived(self, key: str, value: Any) -> None:
        if self.enabled:
            self.derived[key] = (value, self.generation)
            self._dirty = True

    def _used(self, stamp: Any) -> None:
        """An entry last used in generation `stamp` was used again (its stamp is renewed in
        memory): worth writing the file for only once the entry nears the age at which
        save() drops it (RESTAMP_AGE)."""
        if type(stamp) is not int or self.generation - stamp >= RESTAMP_AGE:
            self._dirty = True

    def save(self) -> None:
        if not self.enabled or not self._dirty:
            return
        oldest = self.generation - KEEP_RUNS
        try:
            payload = marshal.dumps({
                "generation": self.generation,
                "paths": _recent(self.paths, oldest, lambda v: v[2]),
                "records": _recent(self.records, oldest, lambda v: v[8]),
                "runs": self.runs,
                "derived": _recent(self.derived, oldest, lambda v: v[1]),
            })
        except ValueError:  # a memo that is not plain data: not worth failing the run for
            return
        # A read-only tree still gets its report, only slower next time.
        try:
            # Head and payload are written one after the other: joined, the payload would
            # be copied once more at the run's peak of memory (P5).
            _write_replacing(self._file(), frame_head(payload), payload)
            self._dirty = False  # saved: a second save in the same run writes nothing
        except (WriteFailed, WriteRefused):
            pass


def _recent(entries: dict[str, Any], oldest: int,
            generation: Callable[[Any], Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, value in entries.items():
        try:
            used = generation(value)
        except (TypeError, IndexError):
            continue
        if type(used) is int and used > oldest:
            kept[key] = value
    return kept


def _write_replacing(target: Path, *parts: bytes) -> None:
    """Write the cache file into the cache's own folder, then delete the cache's older files.

    No fsync: a file torn by a crash fails its checksum and is ignored, which is all a
    cache needs. The temporary is unnamed, or journaled and swept after a kill.
    """
    folder = cache_folder(target.parent)
    folder.write(target.name, parts)
    for name in folder.names():
        if name != target.name:
            folder.remove(name, _written_by_cache)


def _written_by_cache(path: Path) -> bool:
    """Whether a file of the cache's folder is the cache's own: one of its files (by name
    and magic number) or an older version's temporary whose writer is gone."""
    if _CACHE_FILE.fullmatch(path.name):
        with open(path, "rb") as stream:
            return stream.read(len(_MAGIC_BASE)) == _MAGIC_BASE
    old = _OLD_TEMPORARY.fullmatch(path.name)
    return old is not None and not _alive(int(old.group(1)))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: alive
    return True

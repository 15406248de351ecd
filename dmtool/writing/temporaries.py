"""Temporary files and folders that a killed dmtool leaves behind are swept by the next one.

Every process that writes keeps a journal: one file in dmtool's state folder
(`$DMTOOL_STATE_DIR`, else `$XDG_STATE_HOME/dmtool`, else `~/.local/state/dmtool`), locked
for as long as the process lives. Before a temporary is created its exact path goes into
the journal. A later dmtool that can take a journal's lock knows its writer is gone (the
operating system drops the lock of a killed process) and removes what the journal lists,
but only what carries both dmtool's name (`.dmtool-<token>-<n>...`, the token is the
journal's own) and, for folders, dmtool's marker file holding that token. Nothing is ever
removed by guessing from a pattern.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import stat
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from dmtool.writing.lock import folder_lock

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no sweeping, temporaries are still removed
    fcntl = None  # type: ignore[assignment]

STATE_ENV = "DMTOOL_STATE_DIR"
PREFIX = ".dmtool-"
FOLDER_MARKER = ".dmtool-temporary"
_SUFFIX = ".pending"
_STARTING = ".new"


def state_dir() -> Path:
    """Where journals live (created on demand)."""
    if os.environ.get(STATE_ENV):
        return Path(os.environ[STATE_ENV])
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                             "state")
    return Path(base) / "dmtool"


class Journal:
    """This process's record of the temporaries it creates."""

    def __init__(self) -> None:
        self.token = os.urandom(6).hex()
        self._count = 0
        self._fd: int | None = None
        self.path: Path | None = None
        # The fallback is looked for only when needed: it imports tempfile (slow).
        for place in (state_dir, _private_temporary_dir):
            with contextlib.suppress(OSError):
                self._open(place() / "pending")
                break
        atexit.register(self.close)

    def _open(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Journals are started and swept under the folder's lock, one process at a time.
        with folder_lock(folder):
            sweep(folder)
            # Locked under a name sweepers take for a dead start, then renamed: never
            # visible unlocked. The folder's lock keeps sweepers away meanwhile.
            fresh = folder / f"{self.token}{_STARTING}"
            fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            self.path = folder / f"{self.token}{_SUFFIX}"
            os.replace(fresh, self.path)
        self._fd = fd

    def name(self, suffix: str) -> str:
        """A fresh temporary name: fixed length, whatever the length of the real name."""
        self._count += 1
        return f"{PREFIX}{self.token}-{self._count}{suffix}"

    def record(self, **entry: str) -> None:
        """Note a temporary (`file=`, `folder=`) or a swap to undo (`restore=`, `to=`)."""
        if self._fd is not None:
            os.write(self._fd, (json.dumps(entry) + "\n").encode("utf-8"))

    def close(self) -> None:
        """At exit: tidy anything of ours still listed, then drop the journal."""
        if self._fd is None or self.path is None:
            return
        with contextlib.suppress(OSError):
            _undo(_entries(self.path), self.token)
            self.path.unlink()
        os.close(self._fd)
        self._fd = None


def _private_temporary_dir() -> Path:
    """The fallback when the state folder cannot be written (a read-only home)."""
    import tempfile  # only on this rare path: tempfile is slow to import

    getuid = getattr(os, "getuid", None)
    user = str(getuid()) if getuid is not None else os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"dmtool-{user}"


@lru_cache(maxsize=1)
def journal() -> Journal:
    """The process's journal; the first call also sweeps what dead writers left."""
    return Journal()


def sweep_leftovers() -> None:
    """Tidy after writers that were killed, without starting a journal of our own.

    Run at every start of the command line, so that the next dmtool tidies even when it
    writes nothing itself (a refused `new`, a `check` without -o). Never fails.
    """
    folder = state_dir() / "pending"
    if fcntl is None or not folder.is_dir():
        return
    with contextlib.suppress(OSError), folder_lock(folder):
        sweep(folder)


def sweep(folder: Path) -> None:
    """Tidy after every journal in `folder` whose writer has gone.

    Called with the folder's lock held (as `Journal` does), a journal still under its
    starting name belongs to a writer killed while starting it; it lists nothing yet.
    """
    if fcntl is None:
        return
    try:
        names = [n for n in os.listdir(folder) if n.endswith((_SUFFIX, _STARTING))]
    except OSError:
        return
    for name in names:
        path = folder / name
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # its writer is alive
        try:
            _undo(_entries(path), name.removesuffix(_SUFFIX).removesuffix(_STARTING))
            path.unlink(missing_ok=True)
        except OSError:
            pass
        finally:
            os.close(fd)


def _entries(path: Path) -> list[dict[str, Any]]:
    found = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line)
            if isinstance(entry, dict):
                found.append(entry)
    return found


def _undo(entries: list[dict[str, Any]], token: str) -> None:
    """Put swapped-out folders back where nothing replaced them, then delete temporaries."""
    for entry in entries:
        if "restore" in entry and "to" in entry:
            aside, target = Path(entry["restore"]), Path(entry["to"])
            if _ours(aside.parent, token, folder=True) and aside.is_dir() \
                    and not os.path.lexists(target):
                with contextlib.suppress(OSError):
                    os.replace(aside, target)
    for entry in entries:
        if "file" in entry:
            path = Path(entry["file"])
            if _ours(path, token, folder=False):
                with contextlib.suppress(OSError):
                    path.unlink()
        elif "folder" in entry:
            path = Path(entry["folder"])
            if _ours(path, token, folder=True):
                remove_tree(path)


def _ours(path: Path, token: str, *, folder: bool) -> bool:
    """Named by this journal's token, of the expected type, and (folders) carrying the marker."""
    if not path.name.startswith(f"{PREFIX}{token}-"):
        return False
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    if not folder:
        return stat.S_ISREG(mode)
    if not stat.S_ISDIR(mode):
        return False
    try:
        return (path / FOLDER_MARKER).read_text(encoding="utf-8").strip() == token
    except OSError:
        return False


def make_folder(parent: Path, *, mode: int = 0o755) -> Path:
    """A journaled temporary folder in `parent`: marked as dmtool's and ignored by git."""
    record = journal()
    path = parent / record.name(".tmp")
    record.record(folder=str(path))
    path.mkdir(mode=mode)
    (path / FOLDER_MARKER).write_text(record.token + "\n", encoding="utf-8")
    # Whatever happens before the sweep, `git add .` leaves the folder out.
    (path / ".gitignore").write_text("# dmtool's temporary folder\n*\n", encoding="utf-8")
    return path


@contextlib.contextmanager
def private_folder() -> Iterator[Path]:
    """A journaled temporary folder of this user's in the system's temporary folder, removed
    on leaving (and by the next dmtool, if this one is killed meanwhile)."""
    import tempfile  # only the site needs it: tempfile is slow to import

    path = make_folder(Path(tempfile.gettempdir()), mode=0o700)
    try:
        yield path
    finally:
        remove_tree(path)


def remove_tree(path: Path) -> None:
    """Delete a temporary folder of dmtool's, whatever it holds (errors ignored)."""
    # Imported here: shutil is slow to import, and a check (whose cache imports this
    # module) deletes no folder.
    import shutil

    shutil.rmtree(path, ignore_errors=True)



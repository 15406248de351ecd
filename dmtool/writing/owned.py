"""A folder dmtool owns outright (the check cache): written only inside, emptied only of its own.

dmtool takes a folder for its own only when the folder is missing or empty: it creates it
(or adopts the empty one) and first writes its tag file there, whose exact bytes say
"dmtool made this". From then on the folder is dmtool's: files are written into it through
the same temporaries as every other write (unnamed, or journaled and swept after a kill),
and a file is deleted only when the caller's test of its name and bytes shows that dmtool
wrote it. A folder that holds anything and lacks the tag is someone else's (an author's
codas, a project's root): it is refused with a usage error naming it, and nothing in it is
read as dmtool's, written or deleted.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from dmtool.writing.errors import WriteRefused, write_failed
from dmtool.writing.files import create_bytes, replace_bytes
from dmtool.writing.guard import project_reason, real
from dmtool.writing.temporaries import PREFIX


class OwnedFolder:
    """A folder that only dmtool writes: `tag` names its tag file and holds its bytes;
    `ignore` is what its `.gitignore` says; `purpose` and `advice` word a refusal."""

    IGNORE_FILE = ".gitignore"

    def __init__(self, path: Path, *, tag: tuple[str, bytes], ignore: bytes, purpose: str,
                 advice: str) -> None:
        self.path = path
        self.tag_name, self.tag_bytes = tag
        self.ignore = ignore
        self.purpose = purpose
        self.advice = advice

    def owned(self) -> bool:
        """Whether the folder carries dmtool's tag (it is dmtool's to write and tidy)."""
        try:
            with open(self.path / self.tag_name, "rb") as stream:
                return stream.read(len(self.tag_bytes) + 1) == self.tag_bytes
        except OSError:
            return False

    def refusal(self) -> str | None:
        """Why dmtool may not use the folder; None when it is dmtool's, empty or missing."""
        if self.owned():
            return None
        target = real(self.path)
        why = project_reason(target)
        if why:
            return why
        try:
            # Missing, or a file (claiming it fails: the caller goes on without the folder).
            if not os.path.isdir(target):
                return None
            # A temporary of dmtool's (another run claiming the folder) is no one's file.
            if any(not name.startswith(PREFIX) for name in os.listdir(target)):
                return (f"it already holds files and dmtool did not create it "
                        f"(it has no {self.tag_name} of dmtool's)")
        except OSError as exc:
            raise write_failed(self.path, exc, doing="use") from None
        return None

    def check(self) -> None:
        """Raise WriteRefused, naming the folder, unless dmtool may use it."""
        why = self.refusal()
        if why:
            raise self._refused(why)

    def _refused(self, why: str) -> WriteRefused:
        return WriteRefused(f"will not keep {self.purpose} in {self.path.as_posix()}: {why}; "
                            f"{self.advice}")

    def claim(self) -> None:
        """Make the folder dmtool's (created, tagged, ignored by git), or refuse it."""
        self.check()
        if self.owned() and os.path.lexists(self.path / self.IGNORE_FILE):
            return
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            if not self.owned():
                self.check()  # again: something may have been put there meanwhile
                _create_if_missing(self.path / self.tag_name, self.tag_bytes)
            _create_if_missing(self.path / self.IGNORE_FILE, self.ignore)
        except OSError as exc:
            raise write_failed(self.path, exc) from None
        if not self.owned():  # a tag of someone else's came first
            raise self._refused(f"its {self.tag_name} was not written by dmtool")

    def write(self, name: str, parts: tuple[bytes, ...], *, sync: bool = False) -> None:
        """Replace the file `name` in the folder (claimed first) with `parts`, atomically."""
        if "/" in name or name in (self.tag_name, self.IGNORE_FILE):
            raise ValueError(f"not a name dmtool writes in its own folder: {name}")
        self.claim()
        target = self.path / name
        try:
            replace_bytes(target, parts, _stat_or_none(target), sync=sync)
        except OSError as exc:
            raise write_failed(target, exc) from None

    def names(self) -> list[str]:
        """What the folder holds (nothing, if it is not dmtool's)."""
        if not self.owned():
            return []
        try:
            return sorted(os.listdir(self.path))
        except OSError:
            return []

    def remove(self, name: str, written_by_us: Callable[[Path], bool]) -> bool:
        """Delete the regular file `name` if the folder is dmtool's and `written_by_us`
        says dmtool wrote it; whether it was deleted."""
        path = self.path / name
        if "/" in name or name in (self.tag_name, self.IGNORE_FILE) or not self.owned():
            return False
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode) or not written_by_us(path):
                return False
            path.unlink()
        except OSError:
            return False
        return True


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _create_if_missing(path: Path, data: bytes) -> None:
    with contextlib.suppress(FileExistsError):
        create_bytes(path, data)


__all__ = ["OwnedFolder"]

"""Replacing a whole output folder (the site) with a freshly built one, safely.

A folder is replaced only if dmtool built it: it is missing, empty, or carries dmtool's
marker file, which lists every file of that build (a marker without that list proves
nothing: the folder counts as someone else's). With or without `force`, a folder is
never replaced when it is (or holds) the working folder, the content, version control,
the project's files, docs/ or schemas/, or a YAML file the build did not write. `force`
only lets a folder dmtool built go although files were added to it since.

The new folder is built inside a journaled, marked, git-ignored temporary folder beside
the output (same file system), then exchanged with the output in one step where the
system can (renameat2), else in two renames that the next dmtool completes or undoes.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from dmtool.writing.errors import WriteRefused, write_failed
from dmtool.writing.guard import holds, project_reason, real, tree_reason
from dmtool.writing.temporaries import journal, make_folder, remove_tree

T = TypeVar("T")
_MANIFEST = "# Files of this build (dmtool checks them before replacing the folder):"
_SHOWN = 3


@dataclass(frozen=True, slots=True)
class Marker:
    """The file that says 'dmtool built this folder': its name and its explanation."""

    name: str
    text: str


def replace_folder(out: Path, build: Callable[[Path], T], *, marker: Marker, force: bool = False,
                   keep: Iterable[Path] = ()) -> T:
    """Build into a fresh folder with `build(folder)` and put it in place of `out`.

    `keep` are paths the output must never be, hold or lie inside (the content being
    published; the working folder may hold the output, but never be replaced by it).
    Raises WriteRefused before building if `out` may not be replaced.
    """
    keep = tuple(keep)
    check_folder(out, marker=marker, force=force, keep=keep)
    target = _target(out)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = make_folder(target.parent)
    except OSError as exc:
        raise write_failed(out, exc) from None
    try:
        built = staging / "new"
        result = build(built)
        built.mkdir(exist_ok=True)
        (built / marker.name).write_text(_marker_text(marker, built), encoding="utf-8")
        check_folder(out, marker=marker, force=force, keep=keep)  # again: the build took time
        _swap(built, target, staging)
    except OSError as exc:
        raise write_failed(out, exc) from None
    finally:
        remove_tree(staging)
    return result


def check_folder(out: Path, *, marker: Marker, force: bool = False, keep: Iterable[Path] = ()) -> None:
    """Raise WriteRefused unless `out` may be replaced by a new build (see the module doc)."""
    try:
        _check_folder(out, marker=marker, force=force, keep=tuple(keep))
    except OSError as exc:  # a name too long, a loop of links: the path cannot be used
        raise write_failed(out, exc, doing="use") from None


def _check_folder(out: Path, *, marker: Marker, force: bool, keep: tuple[Path, ...]) -> None:
    shown = out.as_posix()
    if out.is_symlink():
        raise WriteRefused(f"{shown} is a symbolic link; give the folder itself with -o")
    target = _target(out)
    if os.path.lexists(target) and not target.is_dir():
        raise WriteRefused(f"{shown} exists and is not a folder; choose another folder with -o")
    why = project_reason(target)
    for inner in (Path.cwd(), *keep):
        if why is None and holds(target, real(inner)):
            why = f"it holds {inner.as_posix()}, which the build would delete"
    for outer in keep:
        if why is None and real(outer).is_dir() and holds(real(outer), target):
            why = f"it is inside {outer.as_posix()}, which would then hold the site's files"
    if why is None and not target.is_dir():
        return
    if why is None:
        why = _check_contents(target, marker, force)
    if why:
        raise WriteRefused(f"will not replace {shown}: {why}")


def _check_contents(target: Path, marker: Marker, force: bool) -> str | None:
    listed = _manifest(target / marker.name)
    guarded: list[str] = []
    foreign: list[str] = []
    for folder, dirs, files in os.walk(target):
        relative = Path(folder).relative_to(target)
        for name in dirs + files:
            path = (relative / name).as_posix()
            if (listed is not None and path in listed) or path == marker.name:
                continue
            why = tree_reason(name, is_dir=name in dirs)
            if why:
                guarded.append(f"{path} ({why})")
            elif name in files:
                foreign.append(path)
    if guarded:
        return f"it holds {_some(guarded)}, which dmtool never deletes"
    if listed is None and foreign:
        # A marker without its list of files (hand-made, or an older dmtool's) proves
        # nothing: what the folder holds may be anyone's.
        why = (f"its {marker.name} file does not list the files dmtool built"
               if (target / marker.name).is_file() else f"it has no {marker.name} file")
        return (f"it is not empty and dmtool did not build it ({why}); "
                "choose a new or empty folder with -o")
    if foreign and listed is not None and not force:
        return (f"dmtool built it, but {_some(foreign)} were added since and would be deleted; "
                "move them out, or pass --force to replace the folder with them")
    return None


def _target(out: Path) -> Path:
    """The output's absolute path, its parent's links followed (the output's own are not)."""
    absolute = Path(os.path.abspath(out))
    return real(absolute.parent) / absolute.name if absolute.name else absolute


def _manifest(path: Path) -> set[str] | None:
    """The files an earlier build listed in its marker (None: no list, or no marker)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if _MANIFEST not in lines:
        return None
    return {line for line in lines[lines.index(_MANIFEST) + 1:] if line}


def _marker_text(marker: Marker, built: Path) -> str:
    files = sorted(p.relative_to(built).as_posix() for p in built.rglob("*")
                   if not p.is_dir() and p.name != marker.name)
    return marker.text.rstrip("\n") + "\n" + _MANIFEST + "\n" + "".join(f"{f}\n" for f in files)


def _some(names: list[str]) -> str:
    more = len(names) - _SHOWN
    return ", ".join(names[:_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _swap(built: Path, target: Path, staging: Path) -> None:
    if not os.path.lexists(target):
        os.replace(built, target)
        return
    if _exchange(built, target):
        return  # the old folder is now `built`, deleted with the staging folder
    aside = staging / "old"
    journal().record(restore=str(aside), to=str(target))
    os.replace(target, aside)
    try:
        os.replace(built, target)
    except OSError:
        os.replace(aside, target)  # put the previous folder back before giving up
        raise


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux renameat2); False where the system cannot."""
    import ctypes  # imported here: only a site build needs it, and it is slow to import

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    if function(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))

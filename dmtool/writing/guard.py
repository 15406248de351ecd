"""What no dmtool command may replace or delete, whatever flags it is given.

The rules, one per kind of thing an author owns:

- version-control folders (`.git`, `.hg`, `.svn`) and everything inside them;
- the project's own files (`pyproject.toml`, `dmtool.toml`, ... wherever they are) and
  the project's `docs/` and `schemas/` folders (those beside a project file or `.git`);
- YAML files: dmtool reads every `.yaml`/`.yml` file under the paths it checks as content,
  so only the commands whose job is content (fmt, new, play's state file) touch them,
  and only through the narrow operations in `dmtool.writing.files`.

A folder dmtool keeps for itself (the check cache) is written only once dmtool has tagged
it as its own, which it does only to a missing or empty folder (`dmtool.writing.owned`).

Paths are judged where they really are (symbolic links followed), so a link cannot smuggle
a write into a protected place.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

VCS_FOLDERS = frozenset({".git", ".hg", ".svn"})
PROJECT_FILES = frozenset({
    "pyproject.toml", "dmtool.toml", "setup.cfg", "setup.py", "Makefile", "README.md",
    "LICENSE", ".gitignore", ".gitattributes",
})
PROJECT_FOLDERS = frozenset({"docs", "schemas"})
# A folder holding one of these is a project's root: its docs/ and schemas/ are the author's.
ROOT_SIGNS = ("pyproject.toml", "dmtool.toml", ".git")
YAML_SUFFIXES = (".yaml", ".yml")


def real(path: Path) -> Path:
    """The absolute path with every symbolic link followed (the path need not exist)."""
    return Path(os.path.realpath(path))


def is_yaml(path: Path) -> bool:
    return path.name.lower().endswith(YAML_SUFFIXES)


def is_project_root(folder: Path) -> bool:
    return any(os.path.lexists(folder / sign) for sign in ROOT_SIGNS)


def project_reason(path: Path) -> str | None:
    """Why the real path `path` belongs to the project itself (never written), or None."""
    for part in path.parts:
        if part in VCS_FOLDERS:
            return f"it is inside the version-control folder {part}"
    if path.name in PROJECT_FILES:
        return f"it is the project's own file {path.name}"
    for folder in (path, *path.parents):
        if folder.name in PROJECT_FOLDERS and is_project_root(folder.parent):
            return f"it is in the project's {folder.name}/ folder, which authors write by hand"
    return None


def content_reason(path: Path, content_roots: Iterable[Path] = ()) -> str | None:
    """Why writing a non-content file at the real path `path` would clobber content."""
    if not is_yaml(path):
        return None
    if path.exists():
        return "it is a YAML file, which dmtool reads as content"
    for root in content_roots:
        top = real(root)
        if path == top or top in path.parents:
            return f"it would be read as content by 'dmtool check {root.as_posix()}'"
    if any(folder.name == "content" for folder in path.parents):
        return "it is in a content/ folder, where dmtool reads every YAML file as content"
    return None


def holds(folder: Path, inner: Path) -> bool:
    """Whether `inner` is `folder` itself or lies below it (both real paths)."""
    return inner == folder or folder in inner.parents


def tree_reason(name: str, *, is_dir: bool) -> str | None:
    """Why an entry called `name` inside a folder about to be replaced must be kept."""
    if name in VCS_FOLDERS:
        return f"a version-control folder {name}"
    if not is_dir and name in PROJECT_FILES:
        return f"a project file {name}"
    if not is_dir and name.lower().endswith(YAML_SUFFIXES):
        return "a YAML file, which dmtool reads as content"
    return None

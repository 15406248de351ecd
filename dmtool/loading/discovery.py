"""Finding content files under the paths given on the command line.

PROVISIONAL minimal implementation; the loading owner hardens it (symlink loops,
unreadable paths) but keeps the API: discover(paths) -> (files, diagnostics).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dmtool.diagnostics import Diagnostic, Location, diagnose

YAML_SUFFIXES = (".yaml", ".yml")


def discover(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """YAML files under `paths`, sorted and deduplicated; bad paths become diagnostics."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    for root in paths:
        if root.is_file():
            found.append(root)
        elif root.is_dir():
            found.extend(p for p in sorted(root.rglob("*")) if p.suffix in YAML_SUFFIXES and p.is_file())
        else:
            problems.append(diagnose("DM010", Location(root.as_posix()), f"{root} does not exist"))
    return sorted(set(found)), problems

"""Where the rulebook texts are: `shared/rulebooks/` beside the repository (`../shared` of a
checkout such as /work/main), or beside a folder above it (a worktree in /work/wt/<name>),
or the folder DMTOOL_RULEBOOKS names. A fresh clone without any of them gets None, and the
tests that read the rulebooks skip."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def find_rulebooks() -> Path | None:
    named = os.environ.get("DMTOOL_RULEBOOKS")
    if named:
        return Path(named) if Path(named).is_dir() else None
    for folder in ROOT.parents:
        candidate = folder / "shared" / "rulebooks"
        if candidate.is_dir():
            return candidate
    return None

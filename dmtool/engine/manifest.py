"""Which engine runs: the mypyc-compiled one (dmtool/engine/build.py), or the pure Python
sources. Compiled modules (.so beside each .py) shadow the sources, so a build older than
its sources would run old code: `guard()`, run when dmtool.engine is imported, compares the
sources with the manifest the build wrote (their SHA-256) and, when any differ or
DMTOOL_ENGINE=pure is set, makes Python import the .py files instead, and says why.

Kept to the standard library and cheap: a stat per source when nothing changed (a digest
only for a file whose size or time differs from the manifest's).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parents[1]
# The packages compiled, as folders under dmtool/engine and as module names.
PACKAGES = ("core", "dawn_of_madness", "deep_madness")
NAMES = tuple(f"dmtool.engine.{p}" for p in PACKAGES)
MANIFEST = ENGINE / "compiled.json"
GROUP = "dmtool_engine__mypyc"  # mypyc's shared library of the whole group, in ROOT
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
ENV = "DMTOOL_ENGINE"  # "pure": run the sources even when a current build is there


def _files(root: Path, suffix: str) -> list[Path]:
    """Every file ending in `suffix` in the compiled packages, sorted."""
    found: list[Path] = []
    for package in PACKAGES:
        for folder, dirs, files in os.walk(root / "dmtool" / "engine" / package):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            found.extend(Path(folder) / f for f in files if f.endswith(suffix))
    return sorted(found)


def sources(root: Path = ROOT) -> list[Path]:
    """Every compiled source, sorted."""
    return _files(root, ".py")


def built_files(root: Path = ROOT) -> list[Path]:
    """The build's products on disk: each module's .so and the group's shared library."""
    shared = [p for p in root.iterdir() if p.name.startswith(GROUP) and p.suffix == ".so"]
    return sorted(shared + _files(root, ".so"))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _key(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def digests(root: Path = ROOT) -> dict[str, dict[str, object]]:
    """Each source's digest, size and modification time (the time only spares a digest)."""
    out: dict[str, dict[str, object]] = {}
    for path in sources(root):
        st = path.stat()
        out[_key(path, root)] = {"sha256": _digest(path), "size": st.st_size,
                           "mtime_ns": st.st_mtime_ns}
    return out


def write(files: dict[str, dict[str, object]], root: Path = ROOT) -> None:
    data = {"python": SUFFIX, "sources": files}
    (root / MANIFEST.relative_to(ROOT)).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def stale(root: Path = ROOT, built: list[Path] | None = None) -> list[str]:
    """Why the compiled engine must not run (empty: it is current, or there is none):
    each source changed, added or removed since the build, or the build's own problem.
    `built`: built_files(root), when the caller has it already."""
    if built is None:
        built = built_files(root)
    where = root / MANIFEST.relative_to(ROOT)
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ["compiled modules without a manifest"] if built else []
    except ValueError:
        return [f"{_key(where, root)} is unreadable"]
    if data.get("python") != SUFFIX:
        return [f"built for {data.get('python')}, this Python loads {SUFFIX}"]
    recorded: dict[str, dict[str, object]] = data.get("sources", {})
    why: list[str] = []
    now = sources(root)
    for path in now:
        key = _key(path, root)
        was = recorded.get(key)
        if was is None:
            why.append(f"{key} is new")
            continue
        st = path.stat()
        if st.st_size == was.get("size") and st.st_mtime_ns == was.get("mtime_ns"):
            continue
        if _digest(path) != was.get("sha256"):
            why.append(f"{key} changed")
    keys = {_key(p, root) for p in now}
    why.extend(f"{key} was removed" for key in sorted(recorded) if key not in keys)
    if not why and not any(p.name.startswith("__init__.") for p in built):
        why.append("the compiled modules are missing")
    return why


class SourceFinder:
    """On sys.meta_path: the compiled packages' modules from their .py files (the .so beside
    them passed over), as the path finder would find them without extension modules."""

    @staticmethod
    def find_spec(fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not any(fullname == n or fullname.startswith(n + ".") for n in NAMES):
            return None
        for entry in path or ():
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def guard() -> str:
    """Decide which engine this process runs, before any of its modules is imported:
    "compiled", or "pure: " and why."""
    built = built_files()
    if os.environ.get(ENV, "") == "pure":
        reason = f"{ENV}=pure"
    elif not built:
        reason = "not compiled (dmtool/engine/build.py, run by make check)"
    else:
        why = stale(built=built)
        if not why:
            return "compiled"
        reason = "the compiled engine is out of date: " + "; ".join(why[:3]) + (
            f" (and {len(why) - 3} more)" if len(why) > 3 else "")
        sys.stderr.write(f"dmtool: {reason}. Running the pure Python engine; `make check` "
                         "rebuilds it.\n")
    if built and SourceFinder not in sys.meta_path:
        sys.meta_path.insert(0, SourceFinder)
    return f"pure: {reason}"


def running() -> str:
    """'compiled' or 'pure': what the engine modules imported so far were loaded from."""
    loaded = [m for name, m in list(sys.modules.items())
              if any(name == n or name.startswith(n + ".") for n in NAMES)]
    if loaded and all(str(getattr(m, "__file__", "")).endswith(".so") for m in loaded):
        return "compiled"
    if any(str(getattr(m, "__file__", "")).endswith(".so") for m in loaded):
        return "mixed"
    return "pure"

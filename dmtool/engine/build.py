"""Compile the game engines (dmtool.engine.core, dawn_of_madness, and deep_madness, whose
context subclasses the core's) with mypyc, in place: a .so beside each .py, which Python
then imports instead of the source. About 2x the games per second of the pure-Python
engine (bench/play_bench.py says which engine it measured).

Usage: python dmtool/engine/build.py [--if-stale | --clean]

`make check`, `make test` and `make bench` run it with --if-stale: it builds only when the
build is missing or a compiled source was edited, added or removed since (by content: a
touched but unchanged file costs nothing). It writes
dmtool/engine/compiled.json last: the digest of every source it compiled. At import,
dmtool.engine compares the sources with it and, if one was edited since, runs the pure
Python engine and says so (dmtool/engine/__init__.py); the tests refuse a stale build
(tests/conftest.py). `--clean` removes every build product, leaving the pure engine.

Without a C compiler, or with DMTOOL_ENGINE=pure, it prints a note and exits 0: the pure
engine is the same engine, only slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository: dmtool/engine/build.py


def _load_manifest():  # type: ignore[no-untyped-def]
    """dmtool/engine/manifest.py by its path: importing the package would run its guard."""
    spec = importlib.util.spec_from_file_location("_engine_manifest",
                                                  ROOT / "dmtool" / "engine" / "manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


manifest = _load_manifest()

BUILD = ROOT / "build" / "mypyc"  # C sources and objects (never packaged)


def _compiler() -> str | None:
    """The C compiler setuptools will call, if there is one."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def clean() -> None:
    for path in manifest.built_files():
        path.unlink()
    manifest.MANIFEST.unlink(missing_ok=True)
    shutil.rmtree(BUILD, ignore_errors=True)


def build() -> int:
    if os.environ.get(manifest.ENV) == "pure":
        print(f"note: {manifest.ENV}=pure; the engine is not compiled")
        return 0
    if _compiler() is None:
        print("note: no C compiler found; the engine stays pure Python (slower games)")
        clean()
        return 0
    clean()  # never leave a half-built engine beside an old manifest
    sources = [str(p.relative_to(ROOT)) for p in manifest.sources()]
    digests = manifest.digests()
    start = time.monotonic()
    # setuptools is driven in a child process: its setup() reads this project's
    # pyproject.toml and must not share our sys.argv. -j 2: one C file per module.
    code = f"""
import sys
from setuptools import setup
from mypyc.build import mypycify
modules = mypycify({sources!r}, opt_level="3", multi_file=True,
                   group_name="dmtool_engine", target_dir={str(BUILD / "c")!r})
sys.argv[1:] = ["build_ext", "--inplace", "--parallel", "2",
                "--build-temp", {str(BUILD / "temp")!r}]
setup(name="dmtool-engine", ext_modules=modules, py_modules=[], packages=[])
"""
    env = {**os.environ, "MYPY_CACHE_DIR": str(BUILD / "mypy-cache")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=False,
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-6000:] + done.stderr[-6000:])
        print("error: compiling the engine with mypyc failed (above); "
              "`python dmtool/engine/build.py --clean` leaves the pure engine", file=sys.stderr)
        clean()
        return 1
    if manifest.digests() != digests:
        print("error: an engine source changed while it was compiled; run it again",
              file=sys.stderr)
        clean()
        return 1
    manifest.write(digests)
    print(f"compiled the engine with mypyc: {len(sources)} modules in "
          f"{time.monotonic() - start:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--if-stale", action="store_true",
                       help="build only if the build is missing or older than the sources")
    which.add_argument("--clean", action="store_true", help="remove the compiled engine")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        return 0
    why = manifest.stale()
    if args.if_stale and not why and manifest.built_files():
        return 0
    if why:
        print("the compiled engine is out of date: " + "; ".join(why[:5]))
    return build()


if __name__ == "__main__":
    sys.exit(main())

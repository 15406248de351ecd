"""The engine compiled with mypyc (dmtool/engine/build.py) plays exactly as its pure Python
sources, and a build older than the sources never runs (dmtool/engine/manifest.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dmtool.engine import manifest
from tests.golden_logs import DIGESTS

ROOT = Path(__file__).resolve().parents[1]
COMPILED = bool(manifest.built_files()) and not manifest.stale()
needs_build = pytest.mark.skipif(
    not COMPILED, reason="the engine is not compiled here (dmtool/engine/build.py needs a C "
    "compiler; `make test` builds it)")
SEEDS = 20  # per policy (random, first, greedy), besides every golden case


def _run(args: list[str], *, pure: bool, cwd: Path = ROOT,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != manifest.ENV}
    environ.update(env or {})
    if pure:
        environ[manifest.ENV] = "pure"
    return subprocess.run([sys.executable, *args], cwd=cwd, env=environ, capture_output=True,
                          text=True, check=False, timeout=600)


def _outputs(*, pure: bool) -> dict[str, Any]:
    done = _run(["-m", "tests.engine_outputs", str(SEEDS)], pure=pure)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


@needs_build
def test_compiled_and_pure_engines_play_the_same_games() -> None:
    compiled, pure = _outputs(pure=False), _outputs(pure=True)
    assert compiled.pop("engine") == {"decided": "compiled", "loaded": "compiled"}
    assert pure.pop("engine") == {"decided": "pure", "loaded": "pure"}
    assert compiled["golden"] == pure["golden"]
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))["cases"]
    assert compiled["golden"] == {name: case["sha256"] for name, case in recorded.items()}
    assert sorted(compiled["games"]) == sorted(pure["games"])
    for name, game in compiled["games"].items():
        for part in ("log", "record", "state", "stalled", "steps"):
            assert game[part] == pure["games"][name][part], f"{name}: the {part} differs"


# The staleness guard, on a copy of the tree (the suite's own sources are never edited).

def _copy_tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "dmtool", root / "dmtool", ignore=ignore)  # keeps the mtimes
    for lib in ROOT.glob(f"{manifest.GROUP}*.so"):
        shutil.copy2(lib, root / lib.name)
    return root


PROBE = ("import dmtool.engine as e, dmtool.engine.core.rng as rng; "
         "from dmtool.engine import manifest; "
         "print(e.ENGINE); print(manifest.running()); print(rng.__file__)")


def _probe(root: Path, *, pure: bool = False) -> tuple[list[str], str]:
    done = _run(["-c", PROBE], pure=pure, cwd=root,
                env={"PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr


@needs_build
def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    (decided, loaded, where), err = _probe(root)
    assert (decided, loaded, err) == ("compiled", "compiled", "")
    assert where.startswith(str(root)) and where.endswith(".so")


@needs_build
def test_an_edited_source_runs_pure_and_says_why(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    source = root / "dmtool" / "engine" / "core" / "rng.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    (decided, loaded, where), err = _probe(root)
    assert decided.startswith("pure: the compiled engine is out of date")
    assert "dmtool/engine/core/rng.py changed" in decided
    assert loaded == "pure" and where == str(source)
    assert "dmtool/engine/core/rng.py changed" in err and "make check" in err
    # The tests refuse it, with the way out.
    assert manifest.stale(root) == ["dmtool/engine/core/rng.py changed"]


@needs_build
def test_the_pure_engine_on_request(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    (decided, loaded, where), err = _probe(root, pure=True)
    assert (decided, loaded, err) == ("pure: DMTOOL_ENGINE=pure", "pure", "")
    assert where.endswith("rng.py")


def test_without_a_build_the_sources_run(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    for built in manifest.built_files(root):
        built.unlink()
    (root / "dmtool" / "engine" / "compiled.json").unlink(missing_ok=True)
    (decided, loaded, where), err = _probe(root)
    assert decided.startswith("pure: not compiled") and loaded == "pure" and err == ""
    assert where.endswith("rng.py")


def test_without_a_compiler_the_build_leaves_the_pure_engine(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    source = root / "dmtool" / "engine" / "core" / "rng.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    done = _run([str(root / "dmtool" / "engine" / "build.py"), "--if-stale"], pure=False,
                cwd=root, env={"CC": str(tmp_path / "no-such-cc")})
    assert done.returncode == 0, done.stderr
    assert "no C compiler found" in done.stdout
    assert manifest.built_files(root) == []
    (decided, loaded, _), err = _probe(root)
    assert decided.startswith("pure: not compiled") and loaded == "pure" and err == ""


# The manifest's judgement, on a tree of a few files.

def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "small"
    for package in manifest.PACKAGES:
        folder = root / "dmtool" / "engine" / package
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text('"""x"""\n', encoding="utf-8")
        (folder / f"__init__{manifest.SUFFIX}").write_bytes(b"")
    (root / "dmtool" / "engine" / "core" / "rng.py").write_text("A = 1\n", encoding="utf-8")
    manifest.write(manifest.digests(root), root)
    return root


def test_the_manifest_tells_each_kind_of_change(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    core = root / "dmtool" / "engine" / "core"
    assert manifest.stale(root) == []
    os.utime(core / "rng.py", ns=(1, 1))  # touched, same bytes: still current
    assert manifest.stale(root) == []
    (core / "rng.py").write_text("A = 2\n", encoding="utf-8")
    (core / "new.py").write_text("B = 1\n", encoding="utf-8")
    (root / "dmtool" / "engine" / "deep_madness" / "__init__.py").unlink()
    assert manifest.stale(root) == ["dmtool/engine/core/new.py is new",
                                    "dmtool/engine/core/rng.py changed",
                                    "dmtool/engine/deep_madness/__init__.py was removed"]


def test_the_manifest_refuses_a_foreign_or_missing_build(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    where = root / "dmtool" / "engine" / "compiled.json"
    data = json.loads(where.read_text(encoding="utf-8"))
    where.write_text(json.dumps({**data, "python": ".cpython-99.so"}), encoding="utf-8")
    assert manifest.stale(root) == [f"built for .cpython-99.so, this Python loads "
                                    f"{manifest.SUFFIX}"]
    where.unlink()
    assert manifest.stale(root) == ["compiled modules without a manifest"]
    for built in manifest.built_files(root):
        built.unlink()
    assert manifest.stale(root) == []  # nothing compiled: nothing stale

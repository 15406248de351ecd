"""The check cache owns its folder (issue 31): it writes only inside a folder it created
and tagged, refuses any other that is not empty, and deletes only what it wrote.

The reproductions: "`DMTOOL_CACHE_DIR=content/wanderers/hollis-brandt/codas dmtool check`
deleted a coda named `check-point.yaml`", and "`DMTOOL_CACHE_DIR=. dmtool check` in a
project root deleted `check-release.md`, and afterwards `git status` showed nothing".
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import dmtool

from dmtool.validation.cache import CACHE_ENV, CACHE_TAG, MAGIC

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root holding one broken case (DM202) under tests/cases."""
    folder = tmp_path / "tests" / "cases" / "case"
    shutil.copytree(ROOT / "tests" / "cases" / "DM202", folder)
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    (tmp_path / "check-release.md").write_text("# Release checklist\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


@pytest.fixture
def check(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
          ) -> Callable[[Path | str], tuple[int, str]]:
    """`dmtool check` of the case with the cache in the given folder: (exit code, output)."""
    def run(cache: Path | str) -> tuple[int, str]:
        monkeypatch.setenv(CACHE_ENV, str(cache))
        code, out, err = dmtool(capsys, monkeypatch, "check", "tests/cases/case", "--no-color",
                                "--no-daemon")
        return code, out + err
    return run


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def test_an_authors_folder_is_refused_and_left_as_it_was(
        tree: Path, check: Callable[[Path | str], tuple[int, str]]) -> None:
    codas = tree / "codas"
    codas.mkdir()
    (codas / "check-point.yaml").write_text("kind: coda\nid: check-point\n", encoding="utf-8")
    before = _files(codas)
    code, out = check(codas)
    assert code == 2
    assert f"will not keep the check cache in {codas.as_posix()}" in out
    assert "Traceback" not in out
    assert _files(codas) == before


def test_the_project_root_is_refused_and_nothing_is_ignored(
        tree: Path, check: Callable[[Path | str], tuple[int, str]]) -> None:
    before = _files(tree)
    code, out = check(".")
    assert code == 2 and "will not keep the check cache in ." in out
    assert _files(tree) == before  # check-release.md kept, and no .gitignore holding '*'
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                                cwd=tree, capture_output=True, text=True, check=True).stdout
        assert "check-release.md" in status


def test_a_missing_or_empty_folder_becomes_the_caches_own(
        tree: Path, check: Callable[[Path | str], tuple[int, str]]) -> None:
    for cache in (tree / "new" / "cache", tree / "empty"):
        if cache.name == "empty":
            cache.mkdir()
        assert check(cache)[0] == 1  # the DM202 finding
        names = sorted(p.name for p in cache.iterdir())
        assert names[:2] == [".gitignore", CACHE_TAG[0]] and len(names) == 3
        assert names[2].startswith("check-") and names[2].endswith(".cache")
        assert (cache / CACHE_TAG[0]).read_bytes() == CACHE_TAG[1]
        assert check(cache)[0] == 1  # its own folder now: used again


def test_in_its_own_folder_only_what_the_cache_wrote_is_deleted(
        tree: Path, check: Callable[[Path | str], tuple[int, str]]) -> None:
    cache = tree / "cache"
    assert check(cache)[0] == 1
    stale = cache / "check-0123abcd.cache"  # another version's cache file
    stale.write_bytes(MAGIC + b"\0" * 40)
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftover = cache / f".check-0123abcd.cache.{dead.pid}.tmp"  # killed before the journal
    leftover.write_bytes(MAGIC)
    alive = cache / f".check-0123abcd.cache.{os.getpid()}.tmp"  # a writer still at work
    alive.write_bytes(MAGIC)
    notes = {"check-notes.txt": b"mine\n", "check-0000.cache": b"not a cache\n",
             "keep.yaml": b"kind: coda\n"}
    for name, data in notes.items():
        (cache / name).write_bytes(data)
    # The tree changes, so the run saves the cache again and tidies its folder.
    (tree / "tests/cases/case/extra.yaml").write_text("kind: nothing-known\n", encoding="utf-8")
    check(cache)
    assert not stale.exists() and not leftover.exists() and alive.exists()
    assert {name: (cache / name).read_bytes() for name in notes} == notes

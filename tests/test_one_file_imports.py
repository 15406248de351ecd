"""A clean one-file check (a pre-commit hook run, P3) loads only what a clean file needs:
the modules that explain schema errors and print excerpts wait for a file that has some."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import loaded_by

ROOT = Path(__file__).resolve().parents[1]
CODA = ROOT / "content" / "wanderers" / "hollis-brandt" / "codas" / "a-boys-blueprint.yaml"
ONLY_FOR_FINDINGS = ("dmtool.validation.key_placement", "dmtool.reporters._excerpt")

def _loaded_by_a_check_of(path: Path) -> set[str]:
    return loaded_by(ONLY_FOR_FINDINGS, "check", "--no-cache", str(path), cwd=ROOT)


def test_a_clean_file_loads_neither() -> None:
    assert CODA.is_file()
    assert _loaded_by_a_check_of(CODA) == set()


@pytest.mark.parametrize("case", ["DM101", "DM104"])
def test_a_file_that_fails_its_schema_loads_both(case: str) -> None:
    assert _loaded_by_a_check_of(ROOT / "tests" / "cases" / case) == set(ONLY_FOR_FINDINGS)


# What a one-file check after an edit (P3: the cache warm, one file changed) leaves out
# for start-up cost: the modules only hints, excerpts and killing a child need are
# imported where they are used, and the regular expressions only some texts need are
# compiled when first used (dmtool/patterns.py).
NOT_IMPORTED_AFTER_AN_EDIT = ("difflib", "signal", "unicodedata", *ONLY_FOR_FINDINGS)
LAZY_PATTERNS = (
    "dmtool.config._SELECTOR", "dmtool.diagnostics.subjects._NOT_PLAIN",
    "dmtool.loading.scalars._FLOAT", "dmtool.loading.screen._UNPRINTABLE",
    "dmtool.loading.screen._COLON", "dmtool.loading.strict._GLUED_COMMENT",
    "dmtool.loading.syntax._KEY_LINE", "dmtool.validation.recovery._TOP_LEVEL_SCALAR",
    "dmtool.validation.rules.prose._RAW_HTML", "dmtool.validation.rules.prose._LINK",
    "dmtool.validation.suppressions._COMMENT",
)

_AFTER_AN_EDIT = """
import importlib, sys
from dmtool.cli import main
sys.argv = ["dmtool", "check", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
modules = [m for m in {modules!r} if m in sys.modules]
compiled = []
for name in {patterns!r}:
    module, _, attribute = name.rpartition(".")
    if getattr(importlib.import_module(module), attribute).compiled:
        compiled.append(name)
print(" ".join(modules) or "-", " ".join(compiled) or "-", sep="|", file=sys.stderr)
"""


def test_a_one_file_check_after_an_edit_leaves_them_out(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")  # the modelines name ../schemas
    coda = content / CODA.relative_to(ROOT / "content")
    env = {**os.environ, "DMTOOL_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-c", _AFTER_AN_EDIT.format(modules=(), patterns=()),
                    "content"], cwd=tmp_path, env=env, capture_output=True, check=False)
    coda.write_text(coda.read_text(encoding="utf-8").replace("title: ", "title: y", 1),
                    encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", _AFTER_AN_EDIT.format(modules=NOT_IMPORTED_AFTER_AN_EDIT,
                                                     patterns=LAZY_PATTERNS),
         str(coda.relative_to(tmp_path))],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "All checks passed (1 file)" in run.stdout
    imported, compiled = run.stderr.strip().splitlines()[-1].split("|")
    assert imported == "-" and compiled == "-"


def test_the_lazy_ones_are_there_when_needed() -> None:
    # A file with findings (a misspelt key, DM102) makes hints: difflib is imported then.
    probe = _AFTER_AN_EDIT.format(modules=("difflib",), patterns=())
    run = subprocess.run([sys.executable, "-c", probe, "--no-cache",
                          str(ROOT / "tests" / "cases" / "DM102")],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.stderr.strip().splitlines()[-1].split("|")[0] == "difflib"

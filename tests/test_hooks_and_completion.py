"""The pre-commit hooks run as pre-commit runs them, and click's shell completion works."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML

from tests.lsp_support import REPO, copy_workspace

CODA = "content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml"


def _hooks() -> dict[str, dict[str, object]]:
    hooks = YAML(typ="safe", pure=True).load((REPO / ".pre-commit-hooks.yaml").read_text())
    return {hook["id"]: hook for hook in hooks}


def _run_hook(hook: dict[str, object], workspace: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    """As pre-commit does: the entry, then the staged files that match `files`."""
    entry = shlex.split(str(hook["entry"]))
    script = Path(sys.executable).parent / entry[0]
    staged = [f for f in files if re.search(str(hook["files"]), f)]
    return subprocess.run([str(script), *entry[1:], *staged], cwd=workspace, capture_output=True,
                          text=True, check=False, env={**os.environ, "NO_COLOR": "1"})


def test_the_fmt_hook_formats_staged_files_and_fails_when_it_changed_one(tmp_path):
    hook = _hooks()["dmtool-fmt"]
    assert (hook["language"], hook["types"], hook["pass_filenames"]) == ("python", ["yaml"], True)
    workspace = copy_workspace(tmp_path)
    coda = workspace / CODA
    formatted = coda.read_text(encoding="utf-8")
    coda.write_text(formatted.replace("id: the-wheel-turned", "id:     the-wheel-turned"), encoding="utf-8")
    changed = _run_hook(hook, workspace, [CODA, "README.md"])
    assert changed.returncode == 0, changed.stderr
    assert coda.read_text(encoding="utf-8") == formatted
    again = _run_hook(hook, workspace, [CODA])
    assert again.returncode == 0 and coda.read_text(encoding="utf-8") == formatted


def test_the_check_hook_fails_on_a_broken_reference(tmp_path):
    workspace = copy_workspace(tmp_path)
    coda = workspace / CODA
    coda.write_text(coda.read_text(encoding="utf-8").replace("id: the-wheel-turned", "id: turnt"),
                    encoding="utf-8")
    result = _run_hook(_hooks()["dmtool-check"], workspace, [CODA, "content/wanderers/hollis-brandt/storybook.yaml"])
    assert result.returncode == 1
    assert "DM202" in result.stdout


def test_click_completes_commands_and_options():
    script = Path(sys.executable).parent / "dmtool"
    source = subprocess.run([str(script)], env={**os.environ, "_DMTOOL_COMPLETE": "bash_source"},
                            capture_output=True, text=True, check=True)
    assert "_dmtool_completion()" in source.stdout
    words = subprocess.run([str(script)], capture_output=True, text=True, check=True, env={
        **os.environ, "_DMTOOL_COMPLETE": "bash_complete", "COMP_WORDS": "dmtool check --wa",
        "COMP_CWORD": "2"})
    assert words.stdout.split() == ["plain,--watch"]

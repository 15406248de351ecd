"""The GitHub Action (action.yml), run step by step on this machine as a runner would.

Steps that `uses:` another action (setup-python, the SARIF upload) need GitHub; for them
the test checks what they are given. Every `run:` step runs for real with bash, with its
inputs, `env:` and `if:` evaluated as the runner does: dmtool is installed from this
checkout into a fresh environment, then checks a content repository with a broken
reference, writing annotations and a SARIF report.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.lsp_support import REPO, copy_workspace

ACTION = YAML(typ="safe", pure=True).load((REPO / "action.yml").read_text(encoding="utf-8"))
CODA = "content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Runner:
    """Just enough of the Actions runner for this composite action's expressions."""

    def __init__(self, inputs: dict[str, str], workspace: Path, python_bin: Path) -> None:
        declared = ACTION["inputs"]
        unknown = set(inputs) - set(declared)
        assert not unknown, f"not inputs of the action: {unknown}"
        self.inputs = {name: inputs.get(name, spec.get("default", "")) for name, spec in declared.items()}
        self.workspace = workspace
        self.path = f"{python_bin}{os.pathsep}{os.environ['PATH']}"
        self.outputs: dict[str, dict[str, str]] = {}
        self.failed = False

    def value(self, expression: str) -> Any:
        """The value of one expression: a context value, or a comparison of them."""
        python = expression.replace("&&", " and ").replace("||", " or ").replace("always()", "True")

        def context(match: re.Match[str]) -> str:
            name = match.group(0)
            if name.startswith("inputs."):
                return repr(self.inputs[name.split(".", 1)[1]])
            if name == "github.action_path":
                return repr(str(REPO))
            step, _, key = name.removeprefix("steps.").partition(".outputs.")
            return repr(self.outputs.get(step, {}).get(key, ""))

        python = re.sub(r"(?:inputs|steps|github)\.[\w.-]+", context, python)
        return eval(python, {"__builtins__": {}}, {"True": True})  # the action's own expressions

    def text(self, template: str) -> str:
        return _EXPRESSION.sub(lambda m: str(self.value(m.group(1))), str(template))

    def should_run(self, step: dict[str, Any]) -> bool:
        condition = step.get("if")
        if condition is None:
            return not self.failed  # success() is the default
        return bool(self.value(_EXPRESSION.sub(lambda m: m.group(1), str(condition))))

    def run(self, step: dict[str, Any], tmp: Path) -> subprocess.CompletedProcess[str]:
        assert step["shell"] == "bash"
        assert "${{" not in step["run"], "inputs reach scripts through env:, never pasted into them"
        output_file = tmp / f"output-{len(self.outputs)}"
        output_file.write_text("")
        env = {**os.environ, "PATH": self.path, "GITHUB_ACTIONS": "true",
               "GITHUB_OUTPUT": str(output_file), "PIP_NO_DEPS": "1",
               # The test's environment already holds dmtool's dependencies and build tools.
               "PIP_NO_BUILD_ISOLATION": "0", "NO_COLOR": "1",
               **{k: self.text(v) for k, v in step.get("env", {}).items()}}
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                cwd=self.workspace, env=env, capture_output=True, text=True, check=False)
        if "id" in step:
            lines = output_file.read_text().splitlines()
            self.outputs[step["id"]] = dict(line.split("=", 1) for line in lines if "=" in line)
        self.failed = self.failed or result.returncode != 0
        return result


@pytest.fixture(scope="module")
def python_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment (as setup-python gives) that sees this one's packages, not dmtool."""
    folder = tmp_path_factory.mktemp("runner-python")
    venv.EnvBuilder(with_pip=False).create(folder)
    site = next(folder.glob("lib/python*/site-packages"))
    (site / "dependencies.pth").write_text(
        "\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    return folder / "bin"


def _steps() -> list[dict[str, Any]]:
    return ACTION["runs"]["steps"]


def test_the_action_is_composite_and_documents_its_inputs():
    assert ACTION["runs"]["using"] == "composite"
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
    setup = _steps()[0]
    assert setup["uses"].startswith("actions/setup-python@")
    assert setup["with"]["python-version"] == "${{ inputs.python-version }}"
    workflow = (REPO / "docs/continuous-integration.md").read_text(encoding="utf-8")
    for name in ACTION["inputs"]:
        assert f"| `{name}` |" in workflow, f"input {name} is not documented"


def test_the_action_installs_dmtool_annotates_and_writes_sarif(tmp_path, python_bin):
    workspace = copy_workspace(tmp_path / "repo")
    coda = workspace / CODA
    coda.write_text(coda.read_text(encoding="utf-8").replace("id: the-wheel-turned", "id: turnt"),
                    encoding="utf-8")
    runner = Runner({"paths": "content", "sarif": "dmtool.sarif"}, workspace, python_bin)
    results: dict[str, subprocess.CompletedProcess[str]] = {}
    uploads = []
    for step in _steps()[1:]:
        if not runner.should_run(step):
            continue
        if "uses" in step:
            uploads.append({k: runner.text(v) for k, v in step["with"].items()})
            continue
        results[step["name"]] = runner.run(step, tmp_path)
    install = results["Install dmtool"]
    assert install.returncode == 0, install.stderr
    assert install.stdout.splitlines()[0].endswith("version 0.1.0")
    assert (python_bin / "dmtool").exists()
    check = results["Check content"]
    assert check.returncode == 1  # the job fails on errors
    assert "::error file=content/wanderers/hollis-brandt/storybook.yaml,line=68," in check.stdout
    assert "DM202" in check.stdout
    assert results["Write SARIF"].returncode == 0, results["Write SARIF"].stderr
    sarif = json.loads((workspace / "dmtool.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"DM202"}
    assert uploads == [{"sarif_file": "dmtool.sarif", "category": "dmtool"}]


def test_strict_and_extra_arguments_reach_the_check(tmp_path, python_bin):
    workspace = copy_workspace(tmp_path / "repo")
    # One warning to fail on: room 5 of Dimension Breach loses its note (DM222).
    chapter = workspace / "content/deep-madness/madness-reborn/chapters/1-dimension-breach.yaml"
    text = chapter.read_text(encoding="utf-8")
    start = text.index("  - room: 5\n")
    end = text.index("components:", start)
    chapter.write_text(text[:start] + text[end:], encoding="utf-8")
    check = next(s for s in _steps() if s.get("id") == "check")
    runner = Runner({"paths": "content", "strict": "true", "args": "--select DM222"},
                    workspace, python_bin)
    (python_bin / "dmtool").unlink(missing_ok=True)
    (python_bin / "dmtool").symlink_to(Path(sys.executable).parent / "dmtool")
    result = runner.run(check, tmp_path)
    # The copy has one DM222 warning and no error: only --strict makes the job fail on it.
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.count("::warning ") == 1 and "DM222" in result.stdout
    assert "DM211" not in result.stdout  # --select left the manifests' infos out
    relaxed = Runner({"paths": "content", "args": "--select DM222"}, workspace, python_bin)
    assert relaxed.run(check, tmp_path).returncode == 0
    skipped = Runner({}, workspace, python_bin)
    assert not skipped.should_run(next(s for s in _steps() if s.get("id") == "sarif"))

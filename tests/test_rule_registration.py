"""The rules written above validation (story graph, scenario fixtures) reach every check by
registration: validation never imports them, and every front end registers them first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dmtool.storygraph import rule as storygraph_rule
from dmtool.validation.rules import register_rule, rule_checks

CASES = Path(__file__).parent / "cases"
DMTOOL = Path(sys.executable).parent / "dmtool"


def _python(code: str, cwd: Path) -> str:
    """Run `code` in a fresh interpreter (nothing registered by this suite's conftest)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, check=True)
    return done.stdout


def test_registered_rules_run_in_name_order_with_the_rule_modules() -> None:
    names = [name for name, _ in rule_checks()]
    assert names == sorted(names)
    assert {"references", "scenarios", "storygraph"} <= set(names)
    assert ("storygraph", storygraph_rule.check) in rule_checks()


def test_a_rule_module_cannot_be_shadowed_by_a_registration() -> None:
    with pytest.raises(ValueError, match="references"):
        register_rule("references", lambda corpus: ())


def test_validation_alone_imports_neither_higher_layer(tmp_path: Path) -> None:
    loaded = _python(
        "import sys\n"
        "from dmtool.validation.pipeline import CheckOptions, run_check\n"
        "from dmtool.validation.rules import rule_checks\n"
        "print([n for n, _ in rule_checks()])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('dmtool.storygraph', "
        "'dmtool.scenarios'))))\n",
        tmp_path,
    ).splitlines()
    assert "storygraph" not in loaded[0] and "scenarios" not in loaded[0]
    assert loaded[1] == "[]"


def test_the_language_server_session_registers_them(tmp_path: Path) -> None:
    names = _python("import dmtool.lsp.session\nfrom dmtool.validation.rules import rule_checks\n"
                    "print([n for n, _ in rule_checks()])\n", tmp_path)
    assert "'scenarios'" in names and "'storygraph'" in names


@pytest.mark.parametrize(("case", "code"), [("DM301-goto", "DM301"), ("DM428", "DM428")])
def test_dmtool_check_runs_the_registered_rules(case: str, code: str, tmp_path: Path) -> None:
    done = subprocess.run([str(DMTOOL), "check", "--no-cache", "--format", "json", "."],
                          cwd=CASES / case, capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert code in {d["code"] for d in json.loads(done.stdout)["diagnostics"]}


def test_a_report_made_without_a_rule_is_not_replayed_into_a_run_with_it(tmp_path: Path) -> None:
    case = tmp_path / "case"
    shutil.copytree(CASES / "DM301-goto", case)
    env = {**os.environ, "DMTOOL_CACHE_DIR": str(tmp_path / "cache")}
    bare = subprocess.run(
        [sys.executable, "-c", "from pathlib import Path\n"
         "from dmtool.commands.check import check_options\n"  # the options `check .` uses
         "from dmtool.validation.pipeline import run_check\n"
         "report = run_check(check_options((Path('.'),)))\n"
         "print(sorted(d.code for d in report.diagnostics))\n"],
        cwd=case, env=env, capture_output=True, text=True, check=True)
    assert "DM301" not in bare.stdout  # no story graph rule registered in that process
    done = subprocess.run([str(DMTOOL), "check", "--format", "json", "."], cwd=case, env=env,
                          capture_output=True, text=True, check=False)
    assert "DM301" in {d["code"] for d in json.loads(done.stdout)["diagnostics"]}

"""The console script starts dmtool with the cycle collector paused (dmtool/console.py) and
start-up turns it back on; callers of the CLI in-process keep the collector as they had it."""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from dmtool import cli

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import gc, sys
import dmtool.console as console
paused_while_importing = not gc.isenabled()
sys.argv = {argv!r}
try:
    console.main()
except SystemExit:
    pass
print(paused_while_importing, gc.isenabled(), file=sys.stderr)
"""


def _probe(*argv: str) -> str:
    run = subprocess.run([sys.executable, "-c", _PROBE.format(argv=["dmtool", *argv])],
                         capture_output=True, text=True, check=False, cwd=ROOT)
    return run.stderr.strip().splitlines()[-1]


def test_the_console_script_is_the_module_that_pauses_the_collector() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert scripts["project"]["scripts"]["dmtool"] == "dmtool.console:main"


def test_start_up_runs_paused_and_a_command_runs_with_the_collector_on() -> None:
    # `explain` passes through the group's start-up like every command.
    assert _probe("explain", "DM202") == "True True"


def test_a_run_that_ends_before_any_command_still_ends_cleanly() -> None:
    # --version exits in the group's options: the collector is never resumed, and the
    # process ends as it would have.
    assert _probe("--version") == "True False"


@pytest.mark.parametrize("enabled", [True, False])
def test_in_process_callers_keep_the_collector_as_they_set_it(
        enabled: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli._StartUp, "resume_collector", False)
    cli._start_up_done.cache_clear()
    monkeypatch.setattr(sys, "argv", ["dmtool", "explain", "DM202"])
    was = gc.isenabled()
    try:
        if not enabled:
            gc.disable()
        with contextlib.suppress(SystemExit):
            cli.main()
        assert gc.isenabled() is enabled
    finally:
        if was:
            gc.enable()
    assert "DM202" in capsys.readouterr().out


def test_the_installed_console_script_starts_without_regular_expressions() -> None:
    """`make` installs with a pip whose console scripts do not import `re` (the Makefile):
    6-7 ms of every start, a third of a check the daemon answers. Nor does the console's
    own start, up to asking for a daemon (here there is none)."""
    script = Path(sys.executable).parent / "dmtool"
    if not script.is_file():
        pytest.skip("dmtool is not installed beside this Python (run the suite with make test)")
    probe = ("import sys; from dmtool.console import answer_check; "
             "assert answer_check(['check']) is None; print('re' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT,
                         env=dict(os.environ, DMTOOL_DAEMON_DIR=str(ROOT / "no-such-folder")))
    assert run.stdout.split() == ["False"]
    assert "import re\n" not in script.read_text(encoding="utf-8")

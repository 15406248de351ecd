"""Running the real command line in-process (exit code, standard output and standard error),
or in a fresh interpreter to see what it imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dmtool.cli import main


def dmtool(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
           *args: str) -> tuple[int, str, str]:
    """`dmtool ARGS` through the console entry point (the one that maps errors to exits)."""
    monkeypatch.setattr(sys, "argv", ["dmtool", *args])
    with pytest.raises(SystemExit) as ended:
        main()
    out, err = capsys.readouterr()
    return int(ended.value.code or 0), out, err


_PROBE = """
import sys
from dmtool.cli import main
sys.argv = ["dmtool", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(" ".join(m for m in {modules!r} if m in sys.modules) or "-", file=sys.stderr)
"""


def loaded_by(modules: tuple[str, ...], *args: str, cwd: Path,
              env: dict[str, str] | None = None) -> set[str]:
    """Which of `modules` `dmtool ARGS` imports, run in a fresh interpreter."""
    run = subprocess.run([sys.executable, "-c", _PROBE.format(modules=modules), *args],
                         capture_output=True, text=True, check=False, cwd=cwd, env=env)
    return set(run.stderr.strip().splitlines()[-1].split()) - {"-"}

"""Running the real command line in-process (exit code, standard output and standard error),
or in a fresh interpreter to see what it imports."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
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



@contextmanager
def children_hear_ctrl_c() -> Iterator[None]:
    """Children started inside hear SIGINT as a terminal's Ctrl-C. A suite started in the
    background of a shell without job control (`make test &`, nohup) ignores SIGINT, and an
    ignored signal stays ignored across exec, so a child told to stop by it would never
    hear; a handled one is reset to the default in the child."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)

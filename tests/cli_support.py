"""Running the real command line in-process: exit code, standard output and standard error."""

from __future__ import annotations

import sys

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

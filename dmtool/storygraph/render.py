"""Turning DOT into SVG or PNG with Graphviz's `dot`, when the machine has it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from dmtool.errors import DmtoolError

FORMATS = ("svg", "png", "dot")
INSTALL_HINT = (
    "Graphviz's 'dot' program was not found, so only the DOT file was written. "
    "Install Graphviz (e.g. 'apt-get install graphviz' or 'brew install graphviz') and "
    "run the command again, or turn the DOT file into SVG yourself with "
    "'dot -Tsvg {dot} -o {svg}'."
)
# A 150-entry storybook renders in well under a second; this only stops a runaway layout.
TIMEOUT_SECONDS = 300


class RenderError(DmtoolError):
    """Graphviz was found but failed to draw the graph."""


def find_dot() -> str | None:
    """The `dot` executable: $DMTOOL_DOT, then PATH, then next to this Python (a venv)."""
    configured = os.environ.get("DMTOOL_DOT")
    if configured:
        return configured if Path(configured).is_file() else None
    found = shutil.which("dot")
    if found:
        return found
    beside = Path(sys.executable).parent / "dot"
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def render(dot_text: str, fmt: str, dot: str) -> bytes:
    """Run `dot -T<fmt>` on the text; the text goes through standard input, never a shell."""
    try:
        done = subprocess.run(
            [dot, f"-T{fmt}"],
            input=dot_text.encode("utf-8"),
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RenderError(f"could not run Graphviz ({dot}): {exc}") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RenderError(
            f"Graphviz failed to draw the graph: {message[0] if message else 'no message'}"
        )
    return done.stdout

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
# Graphviz's dot takes time growing with about the square of a drawing's size. Measured on
# storybooks from bench/graph_bench.py's generator, on a shared 2-core machine: 3,500 nodes
# and edges laid out in 2 s, 7,100 in 10 s, 14,100 in 45 s; a 20,000-entry storybook
# (72,000) would take far longer than anyone waits. The real sample storybook has about 500.
# Beyond this size we do not ask dot at all (about 20 s here).
MAX_LAYOUT_SIZE = 10_000
# What a drawing under the limit may take before we stop waiting for it.
TIME_BUDGET_SECONDS = 60


class RenderError(DmtoolError):
    """Graphviz was found but failed to draw the graph (or was not asked: too large)."""


def too_large(nodes: int, edges: int) -> str | None:
    """Why dot is not asked to lay out a drawing of this size, or None when it can be."""
    if nodes + edges <= MAX_LAYOUT_SIZE:
        return None
    return (
        f"the drawing would hold {nodes:,} nodes and {edges:,} edges, more than the "
        f"{MAX_LAYOUT_SIZE:,} that Graphviz's dot lays out in reasonable time (its time grows "
        f"with the square of the size), so it was not drawn"
    )


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
            timeout=TIME_BUDGET_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RenderError(
            f"Graphviz's dot did not finish the layout within {TIME_BUDGET_SECONDS} s, so it "
            f"was stopped and nothing was drawn"
        ) from None
    except OSError as exc:
        raise RenderError(f"could not run Graphviz ({dot}): {exc}") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RenderError(
            f"Graphviz failed to draw the graph: {message[0] if message else 'no message'}"
        )
    return done.stdout

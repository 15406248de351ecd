"""Atomic writes of dmtool's own files (the check cache), through `dmtool.writing`."""

from __future__ import annotations

from pathlib import Path

from dmtool.writing.files import write_private


def write_text_atomic(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Replace `path` with `text` so readers see the old or the new file, never half of one."""
    write_private(path, text.encode(encoding))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    write_private(path, data)

"""The schema modeline a file the engine writes starts with, so editors check it."""

from __future__ import annotations

import os
from pathlib import Path

from dmtool.validation.schemas import default_schema_dir


def schema_modeline(kind: str, path: Path | None = None) -> str:
    """'# yaml-language-server: $schema=...' naming the kind's schema relative to the file
    (or as a URI when no relative path exists, e.g. on another drive)."""
    schema = default_schema_dir() / f"{kind}.schema.json"
    try:
        where = Path(os.path.relpath(schema, (path or Path("x")).resolve().parent)).as_posix()
    except ValueError:
        where = schema.as_uri()
    return f"# yaml-language-server: $schema={where}"

"""Which files the language server speaks about: content only.

An editor set up for YAML sends every YAML file (a CI workflow, a docker-compose file). The
server checks and formats a file only when it lies under a content tree of the workspace
or names a kind dmtool knows at the top of its text; any other file gets no diagnostics
and no formatting (a workflow's `on:` must not become `'on':`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from dmtool.patterns import lazy

# A top-level `kind:` line, as every content file has (quoted or not).
_KIND = lazy(r"""^kind:[ \t]*["']?([A-Za-z0-9][A-Za-z0-9-]*)["']?[ \t]*(?:#.*)?$""", 8)


def is_content(path: Path, text: str | None, roots: Iterable[Path],
               kinds: Collection[str]) -> bool:
    """Whether the server checks and formats `path` (its text as the editor has it)."""
    if any(path.is_relative_to(root) for root in roots):
        return True
    found = _KIND.search(text or "")
    return found is not None and found.group(1) in kinds

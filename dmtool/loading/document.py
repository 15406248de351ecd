"""SourceDocument: one YAML file as plain JSON data plus the positions of its nodes.

PROVISIONAL minimal implementation; the loading owner replaces the internals but keeps
this API: read_document(), SourceDocument.data / .locate() / .modeline / .text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, diagnose

PathParts = Sequence[str | int]


@dataclass
class SourceDocument:
    """A loaded document. `data` holds only dict, list, str, int, float, bool and None."""

    path: Path
    display: str
    text: str
    data: Any
    modeline: str | None = None
    # (parts) -> ((value line, value col), (key line, key col) or None); 1-based.
    _positions: dict[tuple[str | int, ...], tuple[tuple[int, int], tuple[int, int] | None]] = (
        field(default_factory=dict, repr=False)
    )

    def locate(self, parts: PathParts, *, key: bool = False) -> Location:
        """Location of the node at `parts` (or its key); falls back to the nearest ancestor."""
        path = tuple(parts)
        while True:
            found = self._positions.get(path)
            if found is not None:
                value_pos, key_pos = found
                line, col = key_pos if (key and key_pos) else value_pos
                return Location(self.display, line, col, _pointer(parts))
            if not path:
                return Location(self.display, 1, 1, _pointer(parts))
            path = path[:-1]


def _pointer(parts: PathParts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass
class LoadResult:
    document: SourceDocument | None
    diagnostics: list[Diagnostic]


def read_document(path: Path, display: str | None = None) -> LoadResult:
    """Read one YAML file; never raises for bad content, returns diagnostics instead."""
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    display = display or path.as_posix()
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return LoadResult(None, [diagnose("DM010", Location(display), f"cannot read file: {exc}")])
    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 2)
    try:
        node = yaml.compose(text)
    except Exception as exc:  # provisional: the real loader maps each error precisely
        return LoadResult(None, [diagnose("DM001", Location(display), str(exc).splitlines()[0])])
    if node is None:
        return LoadResult(None, [diagnose("DM006", Location(display), "the file is empty")])
    positions: dict[Any, Any] = {}

    def walk(n: Any, parts: tuple[Any, ...], key_pos: tuple[int, int] | None) -> Any:
        positions[parts] = ((n.start_mark.line + 1, n.start_mark.column + 1), key_pos)
        if isinstance(n, MappingNode):
            out = {}
            for k, v in n.value:
                kv = str(k.value)
                out[kv] = walk(v, parts + (kv,), (k.start_mark.line + 1, k.start_mark.column + 1))
            return out
        if isinstance(n, SequenceNode):
            return [walk(v, parts + (i,), None) for i, v in enumerate(n.value)]
        assert isinstance(n, ScalarNode)
        return yaml.constructor.construct_object(n, deep=True)

    data = walk(node, (), None)
    modeline = None
    for line in text.splitlines()[:5]:
        if line.startswith("# yaml-language-server:") and "$schema=" in line:
            modeline = line.split("$schema=", 1)[1].strip()
    return LoadResult(SourceDocument(path, display, text, data, modeline, positions), [])

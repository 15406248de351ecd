"""Canonical spelling of scalars: plain when safe, else single quotes, else double quotes.

A string stays plain only if it reads back as the same string under dmtool's own YAML 1.2
core schema, ruamel's YAML 1.2 resolver and YAML 1.1 (what many other tools still use), so
`no`, `on` and `2024-01-01` get quotes even though dmtool would read them as strings.
"""

from __future__ import annotations

import io
from functools import lru_cache

from ruamel.yaml.emitter import Emitter
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver

from dmtool.loading.scalars import resolve_plain

STR_TAG = "tag:yaml.org,2002:str"
_RESOLVERS = (VersionedResolver(version=(1, 2)), VersionedResolver(version=(1, 1)))
_ANALYZER = Emitter(io.StringIO(), allow_unicode=True)
# Without a dumper the emitter is its own serializer; YAML 1.1 rules are the stricter ones
# (a leading '?' or ':' needs quotes), which suits the libyaml parser dmtool reads with.
_ANALYZER.use_version = (1, 1)  # type: ignore[attr-defined]
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def scalar_text(node: ScalarNode, *, flow: bool) -> str:
    """The canonical text of a plain or quoted scalar node (never a block scalar)."""
    if node.style:  # quoted: always a string
        return string_text(node.value, flow=flow)
    value = resolve_plain(node.value)  # what dmtool reads a plain scalar as
    if isinstance(value, str):
        return string_text(value, flow=flow)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null" if node.value or flow else ""
    return str(node.value)  # numbers keep their spelling


@lru_cache(maxsize=4096)
def string_text(value: str, *, flow: bool) -> str:
    """How a string is written: plain if that is unambiguous, quoted otherwise."""
    if _plain_ok(value, flow=flow):
        return value
    if _needs_escapes(value):
        return _double(value)
    if "'" in value and '"' not in value and "\\" not in value:
        return '"' + value + '"'
    return "'" + value.replace("'", "''") + "'"


def _plain_ok(value: str, *, flow: bool) -> bool:
    if not value or value != value.strip():
        return False
    analysis = _ANALYZER.analyze_scalar(value)
    allowed = analysis.allow_flow_plain if flow else analysis.allow_block_plain
    if analysis.multiline or not allowed:
        return False
    resolved = resolve_plain(value)
    if not isinstance(resolved, str) or resolved != value:
        return False
    return all(
        str(resolver.resolve(ScalarNode, value, (True, False))) == STR_TAG
        for resolver in _RESOLVERS
    )


def _needs_escapes(value: str) -> bool:
    return any(_special(ch) for ch in value)


def _special(ch: str) -> bool:
    code = ord(ch)
    return (
        code < 0x20 or 0x7F <= code <= 0x9F or ch in "\u2028\u2029\ufeff"
        or 0xD800 <= code <= 0xDFFF
    )


def _double(value: str) -> str:
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _special(ch):
            code = ord(ch)
            out.append(f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'

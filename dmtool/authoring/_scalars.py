"""Canonical spelling of scalars: plain when safe, else single quotes, else double quotes.

A string stays plain only if it reads back as the same string under dmtool's own YAML 1.2
core schema, ruamel's YAML 1.2 resolver and YAML 1.1 (what many other tools still use), so
`no`, `on` and `2024-01-01` get quotes even though dmtool would read them as strings.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache

from ruamel.yaml.emitter import Emitter
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver

from dmtool.authoring._scan import ScalarNode as _Scalar
from dmtool.loading.scalars import resolve_plain

STR_TAG = "tag:yaml.org,2002:str"
_RESOLVERS = (VersionedResolver(version=(1, 2)), VersionedResolver(version=(1, 1)))
_ANALYZER = Emitter(io.StringIO(), allow_unicode=True)
# Without a dumper the emitter is its own serializer; YAML 1.1 rules are the stricter ones
# (a leading '?' or ':' needs quotes), which suits the libyaml parser dmtool reads with.
_ANALYZER.use_version = (1, 1)  # type: ignore[attr-defined]
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


# A file repeats its keys and many values thousands of times; spellings are remembered
# (up to a bound, so a long-running process does not grow without end).
_SPELLINGS: dict[tuple[str, bool, bool], str] = {}
_SPELLINGS_KEPT = 200_000


def scalar_text(node: _Scalar, *, flow: bool) -> str:
    """The canonical text of a plain or quoted scalar node (never a block scalar)."""
    key = (node.value, not node.style, flow)
    text = _SPELLINGS.get(key)
    if text is None:
        text = _spelling(node, flow=flow)
        if len(_SPELLINGS) < _SPELLINGS_KEPT:
            _SPELLINGS[key] = text
    return text


def _spelling(node: _Scalar, *, flow: bool) -> str:
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


# Prose that starts with a letter and holds only letters, digits, spaces and a few marks
# is plain under every resolver, unless it is one of YAML 1.1's boolean or null words; the
# full analysis below (slow: about 0.2 ms a string) decides the rest. A test checks that
# everything this shortcut lets through, the full analysis lets through too.
_SIMPLE_BLOCK = re.compile(r"[A-Za-z](?:[A-Za-z0-9 ,.'()-]*[A-Za-z0-9.)])?")
_SIMPLE_FLOW = re.compile(r"[A-Za-z](?:[A-Za-z0-9 .'()-]*[A-Za-z0-9.)])?")
_WORDS_1_1 = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})


# Strings no plain scalar can spell, whatever the context: a line break, a special
# character, ': ' or ' #' inside, or an indicator first. Rejected without the analysis.
_NEVER_PLAIN = re.compile(
    "[\n\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]|: | #|:$"
    "|^[,\\[\\]{}#&*!|>'\"%@`]")


def _plain_ok(value: str, *, flow: bool) -> bool:
    simple = (_SIMPLE_FLOW if flow else _SIMPLE_BLOCK).fullmatch(value)
    if simple and value.lower() not in _WORDS_1_1:
        return True
    if _NEVER_PLAIN.search(value):
        return False
    return analysed_plain_ok(value, flow=flow)


def analysed_plain_ok(value: str, *, flow: bool) -> bool:
    """Whether `value` may be written plain, by the emitter's analysis and every resolver."""
    if not value or value != value.strip():
        return False
    if flow and ":" in value:
        return False  # libyaml, which dmtool reads with, refuses `{k: 0:0}` and the like
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


# What only double quotes can spell (as escapes), and what must be escaped inside them.
_SPECIAL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]")
_TO_ESCAPE = re.compile('[\\\\"\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]')


def _needs_escapes(value: str) -> bool:
    return _SPECIAL.search(value) is not None


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    known = _ESCAPES.get(ch)
    if known is not None:
        return known
    code = ord(ch)
    return f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}"


def _double(value: str) -> str:
    return '"' + _TO_ESCAPE.sub(_escape, value) + '"'

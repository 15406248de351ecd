"""YAML 1.2 core-schema resolution of plain scalars into JSON values.

Only plain (unquoted, untagged) scalars are resolved; quoted and block scalars are
always strings. The rules are the core schema of YAML 1.2.2 (section 10.3), nothing
more: `yes`/`no`/`on`/`off` and dates stay strings, `1_000` stays a string, `0o17` and
`0x1F` are integers. NaN, the infinities, floats that overflow and integers too long
for Python to parse resolve to UNREPRESENTABLE so that the caller can refuse them:
JSON cannot carry them faithfully.
"""

from __future__ import annotations

import math
from typing import Any

from dmtool.patterns import lazy

# Exact words of the core schema's null and bool tags; the empty plain scalar is null.
WORDS: dict[str, Any] = {
    "": None, "~": None, "null": None, "Null": None, "NULL": None,
    "true": True, "True": True, "TRUE": True,
    "false": False, "False": False, "FALSE": False,
}
_NUMBER_START = frozenset("0123456789+-.")
_DECIMAL = lazy(r"[-+]?[0-9]+\Z")
_OCTAL = lazy(r"0o[0-7]+\Z")
_HEX = lazy(r"0x[0-9a-fA-F]+\Z")
_FLOAT = lazy(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INFINITY = lazy(r"[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = lazy(r"\.(?:nan|NaN|NAN)\Z")
_MISSING = object()
# Python refuses to parse longer decimal integers (sys.get_int_max_str_digits()).
_MAX_DECIMAL_DIGITS = 4000


class _Unrepresentable:
    """The type of UNREPRESENTABLE, a value with no faithful JSON equivalent."""

    def __repr__(self) -> str:
        return "UNREPRESENTABLE"


UNREPRESENTABLE: Any = _Unrepresentable()


def resolve_plain(text: str) -> Any:
    """The JSON value of a plain scalar under the YAML 1.2 core schema."""
    word = WORDS.get(text, _MISSING)
    if word is not _MISSING:
        return word
    if text[0] not in _NUMBER_START:
        return text
    # str.isdigit() also accepts non-ASCII digits, so the regular expressions decide.
    if _DECIMAL.match(text):
        return int(text) if len(text) <= _MAX_DECIMAL_DIGITS else UNREPRESENTABLE
    if _OCTAL.match(text):
        return int(text[2:], 8)
    if _HEX.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        number = float(text)
        return number if math.isfinite(number) else UNREPRESENTABLE
    if _INFINITY.match(text) or _NAN.match(text):
        return UNREPRESENTABLE
    return text

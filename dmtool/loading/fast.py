"""The fast path: a plain file's data from yaml-rs, a YAML 1.2 parser written in Rust.

libyaml's events become Python objects one by one, which is most of what loading costs;
yaml-rs builds the data in Rust, several times faster. It is used only where it cannot
change an answer, and everything else takes the libyaml path (document.py), which also
gives positions and every diagnostic:
- a screen of the text sends away anything a rule of the libyaml path looks at: anchors,
  aliases, tags, directives, document markers, tabs, explicit keys, what the strict pass
  would examine, and what yaml-rs reads differently or too leniently (`1_000`, `0b1`, a
  last line without its line break, control characters, plain text starting with an
  indicator);
- yaml-rs must parse the text (it refuses duplicate keys itself);
- the data must be what the libyaml path builds: mapping keys text or integers (made
  text), no number JSON cannot hold, at most MAX_DEPTH levels deep.
tests/test_loading_fast.py proves the two paths give the same data and the same
refusals over content/, tests/cases/, the YAML test suite and generated documents.
"""

from __future__ import annotations

import math
import re
from typing import Any

from dmtool.loading.builder import MAX_DEPTH
from dmtool.loading.strict import needs_strict_pass

try:
    import yaml_rs
except ImportError:  # pragma: no cover - yaml-rs is a dependency; without it, libyaml only
    yaml_rs = None

ENABLED = yaml_rs is not None
# Characters that start a node property or alias (&anchor, *alias, !tag) when they follow
# a blank, a flow indicator or the start of the text; '?' and ':' there start explicit keys.
_PROPERTY_STARTS = "&*!"
_AFTER = " \t\n\r[{,"
# ':' right before a flow indicator (`{a:, b}`: a key in YAML 1.2, refused as S6), or
# ':' or '?' after a blank or a flow indicator and glued to what follows (`{:0: x}`,
# `{range: ?2}`: plain text to YAML 1.2, which libyaml refuses).
_ODD_COLON = re.compile(r":[,\[\]{}]|[ \n\[{,][:?][^ \t\r\n]")
# Characters no plain text may start with (YAML 1.2 reserves '@' and '`'; '|', '>' and
# '%' start plain text nowhere, and '|' or '>' glued to a letter is no block scalar
# header either), where yaml-rs is more lenient.
_RESERVED_START = re.compile(r"[\s\[{,][@`%]|[\[{,][ \t]*[|>]|[ \t][|>][-+0-9]*[ \t]*[^\s#]")
# Characters YAML does not allow in a file (libyaml refuses them; yaml-rs does not).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
# Starts with a line break, so the search jumps from line to line.
_EXPLICIT_KEY = re.compile(r"\n[ -]*[?:](?:[ \r\n]|\Z)")
# A float or integer this long is beyond what the libyaml path resolves the same way.
_MAX_INT_BITS = 10_000
_SKIP: Any = object()


def fast_data(text: str) -> tuple[bool, Any]:
    """(True, data) when yaml-rs reads `text` exactly as the libyaml path would; else
    (False, None), and the caller takes the libyaml path."""
    if not ENABLED or _needs_libyaml(text):
        return False, None
    try:
        data = yaml_rs.loads(text, parse_datetime=False)
    except Exception:
        return False, None
    if data is None or data.__class__ not in (dict, list):
        return False, None  # empty files and bare scalars: rare, and the libyaml path's
    return _plain(data)


def _needs_libyaml(text: str) -> bool:
    """The screen of the module docstring; false positives only cost speed."""
    if not text.endswith("\n") or "\r" in text or _UNPRINTABLE.search(text) is not None:
        return True  # a last line without its break, CR line ends, control characters
    if "\t" in text or ("_" in text and _underscore_number(text)) or "0b" in text:
        return True
    for character in _PROPERTY_STARTS:
        if _after_blank(text, character):
            return True
    if text.startswith(("%", "---", "...", "?", ":")) or "\n%" in text:
        return True
    if "\n---" in text or "\n..." in text or _explicit_key(text):
        return True
    if _ODD_COLON.search(text) is not None or _multiline_flow(text):
        return True
    if _RESERVED_START.search(text) is not None or text.startswith(("@", "`")):
        return True
    return needs_strict_pass(text)


def _multiline_flow(text: str) -> bool:
    """A line that opens more '[' and '{' than it closes (a flow collection over lines:
    libyaml refuses some such forms YAML 1.2 allows, and the strict pass checks others)."""
    for opener in "[{":
        index = text.find(opener)
        while index >= 0:
            start = text.rfind("\n", 0, index) + 1
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            line = text[start:end]
            if line.count("[") + line.count("{") != line.count("]") + line.count("}"):
                return True
            index = text.find(opener, end)
    return False


def _after_blank(text: str, character: str) -> bool:
    index = text.find(character)
    while index >= 0:
        if index == 0 or text[index - 1] in _AFTER:
            return True
        index = text.find(character, index + 1)
    return False


def _underscore_number(text: str) -> bool:
    """'_' next to a digit: `1_000` is text to YAML 1.2 and a number to yaml-rs."""
    index = text.find("_")
    while index >= 0:
        if text[index + 1:index + 2].isdigit() or (index and text[index - 1].isdigit()):
            return True
        index = text.find("_", index + 1)
    return False


def _explicit_key(text: str) -> bool:
    """'?' or ':' then a blank, first on a line (after indentation or '- '): explicit keys."""
    return _EXPLICIT_KEY.search(text) is not None


def _plain(data: Any) -> tuple[bool, Any]:
    """Check the data as the libyaml path would build it, turning integer keys into text."""
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_DEPTH:
            return False, None
        if item.__class__ is dict:
            if not all(key.__class__ is str for key in item) and not _text_keys(item):
                return False, None
            pending.extend((value, depth + 1) for value in item.values()
                           if value.__class__ in (dict, list, float, int))
        elif item.__class__ is list:
            pending.extend((value, depth + 1) for value in item
                           if value.__class__ in (dict, list, float, int))
        elif item.__class__ is float:
            if not math.isfinite(item):
                return False, None
        elif item.__class__ is int and item.bit_length() > _MAX_INT_BITS:
            return False, None
    return True, data


def _text_keys(mapping: dict[Any, Any]) -> bool:
    """Rewrite integer keys as text in place (`4: x` means the key "4"); False when a key
    is of another kind or two keys become the same text."""
    if not all(key.__class__ in (str, int) for key in mapping):
        return False
    items = [(str(key), value) for key, value in mapping.items()]
    if len({key for key, _ in items}) != len(items):
        return False
    mapping.clear()
    mapping.update(items)
    return True

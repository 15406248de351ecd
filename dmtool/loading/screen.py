"""Screens of a text for the fast path (fast.py): cheap searches, no parse.

`needs_libyaml` is true for anything the libyaml path judges (anchors, aliases, tags,
directives, document markers, tabs, explicit and complex keys, what strict.py examines)
or that yaml-rs reads differently or too leniently (`1_000`, `0b1`, a last line without
its break, control characters, plain text starting with an indicator, a flow collection
over several lines). What can be judged on the data instead (key types, empty and complex
keys, numbers JSON cannot hold, depth) is checked by fast.py's walk.

Each search starts from a rare character or a line break rather than testing every
position of the text; false positives only cost speed. A regular expression that starts
with a literal character is found faster than the same two characters by `in` (the
engine skips to that character in C), so two-character searches are written as such;
quantifiers that can never give back a character usefully are possessive (`*+`), so a
failed match does not retry shorter runs of indentation.
"""

from __future__ import annotations

import re

from dmtool.loading.strict import needs_strict_pass

# &anchor, *alias, !tag count after a blank, a flow indicator or the start of the text.
_PROPERTY_STARTS = "&*!"
_BEFORE_NODE = " \t\n\r[{,"
# Characters YAML does not allow in a file (libyaml refuses them; yaml-rs does not). An
# ASCII text is checked by deleting every allowed byte of it: what is left is not allowed.
_ALLOWED_ASCII = bytes(range(32, 127)) + b"\t\n\r"
# A byte order mark is one too: yaml-rs reads a leading one as part of the first key.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff]")
# '?' or ':' then a blank, first on a line (after indentation or '- '): explicit keys.
_EXPLICIT_KEY = re.compile(r"\n[ -]*+[?:](?:[ \r\n]|\Z)")
# A directive or document marker at the start of a line ('%' is searched for first).
_MARKER_LINE = re.compile(r"\n(?:---|\.\.\.)")
_BINARY_NUMBER = re.compile("0b")
# Every screen of a ':', in one scan: right before a flow indicator (`{a:, b}`: a key in
# YAML 1.2, refused as S6); glued to what follows, after a blank or a flow indicator
# (`{:0: x}`: plain text to YAML 1.2, refused by libyaml); or, after a line break, a
# blank or '-', followed by a blank (`line_start`: what an explicit ':' key needs; the
# whole of _EXPLICIT_KEY decides). A ':' that starts the text is screened before.
_COLON = re.compile(
    r":(?:[,\[\]{}]|(?<=[ \t\n\r\[{,]:)\S|(?P<line_start>(?<=[\n -]:)(?:[ \r\n]|\Z)))")
# '?' glued to what follows, after a blank or a flow indicator (`{range: ?2}`).
_GLUED_QUESTION = re.compile(r"\?(?<=[ \t\n\r\[{,]\?)\S")
# Of the UTF-8 text, every ASCII byte but brackets and line breaks is deleted; the bytes
# of other characters (0x80 and up) become 'x' and stay, as the characters themselves
# did when this worked on text: they keep apart the brackets around them.
_NOT_BRACKETS = bytes(c for c in range(128) if chr(c) not in "[]{}\n")
_OTHERS_KEPT = bytes(range(128)) + b"x" * 128
# '@', '`' and '%' cannot start plain text (YAML 1.2 reserves the first two).
_RESERVED = re.compile(r"(?:(?<=[\s\[{,])|\A)[@`%]")


def needs_libyaml(text: str) -> bool:
    """True when only the libyaml path may read `text` (see the module docstring)."""
    if not text.endswith("\n") or "\r" in text or "\t" in text:
        return True
    if _BINARY_NUMBER.search(text) is not None:
        return True
    if text.startswith(("%", "---", "...", "?", ":", "@", "`")):
        return True
    if ("%" in text and "\n%" in text) or _MARKER_LINE.search(text) is not None:
        return True
    if _not_allowed(text):
        return True
    if _colon(text) or ("?" in text and _question(text)):
        return True
    if "_" in text and _underscore_number(text):
        return True
    if ("@" in text or "`" in text or "%" in text) and _RESERVED.search(text) is not None:
        return True
    if _property(text) or _odd_block_indicator(text):
        return True
    return _flow_lines(text) or needs_strict_pass(text)


def _not_allowed(text: str) -> bool:
    """Whether the text holds a character YAML does not allow in a file."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _ALLOWED_ASCII))
    return _UNPRINTABLE.search(text) is not None


def _colon(text: str) -> bool:
    """Whether a ':' needs the libyaml path (see _COLON)."""
    explicit_key_ruled_out = False
    for found in _COLON.finditer(text):
        if found.lastgroup != "line_start":
            return True
        if not explicit_key_ruled_out:
            if _EXPLICIT_KEY.search(text) is not None:
                return True
            explicit_key_ruled_out = True
    return False


def _question(text: str) -> bool:
    """Whether a '?' needs the libyaml path: an explicit key, or glued to what follows."""
    return (_EXPLICIT_KEY.search(text) is not None
            or _GLUED_QUESTION.search(text) is not None)


def _property(text: str) -> bool:
    for character in _PROPERTY_STARTS:
        index = text.find(character)
        while index >= 0:
            if index == 0 or text[index - 1] in _BEFORE_NODE:
                return True
            index = text.find(character, index + 1)
    return False


def _underscore_number(text: str) -> bool:
    """A digit next to '_': `1_000` is text to YAML 1.2 and a number to yaml-rs."""
    index = text.find("_")
    while index >= 0:
        if text[index + 1:index + 2].isdigit() or (index and text[index - 1].isdigit()):
            return True
        index = text.find("_", index + 1)
    return False


def _odd_block_indicator(text: str) -> bool:
    """'|' or '>' where they cannot start a block scalar: inside a flow collection (after
    '[', '{' or ','), or glued to text (`title: |Set`, `shard: |2}`)."""
    for indicator in "|>":
        index = text.find(indicator)
        while index >= 0:
            before = index - 1
            while before >= 0 and text[before] in " \t":
                before -= 1
            if before >= 0 and text[before] in "[{,":
                return True
            if before < index - 1:  # a blank before it: it may be a block scalar header
                after = index + 1
                while after < len(text) and text[after] in "-+0123456789":
                    after += 1
                while after < len(text) and text[after] in " \t":
                    after += 1
                if after < len(text) and text[after] not in "\n#":
                    return True
            index = text.find(indicator, index + 1)
    return False


def _flow_lines(text: str) -> bool:
    """A flow collection over several lines (libyaml refuses some such forms YAML 1.2
    allows, and the strict pass checks others), or brackets that do not pair up on a line.

    Only the brackets and line breaks are kept; pairs `[]` and `{}` are removed until
    none is left: any bracket that remains did not close on its own line.
    """
    kept = text.encode("utf-8", "surrogatepass").translate(_OTHERS_KEPT, _NOT_BRACKETS)
    while True:
        shorter = kept.replace(b"[]", b"").replace(b"{}", b"")
        if shorter == kept:
            return b"[" in kept or b"{" in kept or b"]" in kept or b"}" in kept
        kept = shorter

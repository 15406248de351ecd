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
failed match does not retry shorter runs of indentation. A pattern that would stop at
every line break is replaced by `in` on the longer literals it needs. The brackets,
line breaks and unallowed characters are all found in one translation of the text
(`_skeleton`), the one pass over every byte.
"""

from __future__ import annotations

import re

from dmtool.loading.strict import needs_strict_pass, spaced_blank_after_header
from dmtool.patterns import lazy

# &anchor, *alias, !tag count after a blank, a flow indicator or the start of the text.
_PROPERTY_STARTS = "&*!"
_BEFORE_NODE = " \t\n\r[{,"
# Characters YAML does not allow in a file (libyaml refuses them; yaml-rs does not): in
# an ASCII text, the bytes below that become '!' in the skeleton.
_NOT_ALLOWED_ASCII = bytes(c for c in range(128) if not (32 <= c < 127 or chr(c) in "\t\n\r"))
# A byte order mark is one too: yaml-rs reads a leading one as part of the first key.
_UNPRINTABLE = lazy("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff]")
# '?' or ':' then a blank, first on a line (after indentation or '- '): explicit keys.
_EXPLICIT_KEY = lazy(r"\n[ -]*+[?:](?:[ \r\n]|\Z)")
_BINARY_NUMBER = re.compile("0b")
# Every screen of a ':', in one scan: right before a flow indicator (`{a:, b}`: a key in
# YAML 1.2, refused as S6); glued to what follows, after a blank or a flow indicator
# (`{:0: x}`: plain text to YAML 1.2, refused by libyaml); or, after a line break, a
# blank or '-', followed by a blank (`line_start`: what an explicit ':' key needs; the
# whole of _EXPLICIT_KEY decides). A ':' that starts the text is screened before.
_COLON = lazy(
    r":(?:[,\[\]{}]|(?<=[ \t\n\r\[{,]:)\S|(?P<line_start>(?<=[\n -]:)(?:[ \r\n]|\Z)))")
# Every ':' _COLON can match, and a few more: one test of a character on each side, where
# _COLON tries three alternatives at every ':' (most texts have no such ':' at all).
_NEAR_COLON = re.compile(r":(?:[,\[\]{}]|(?<=[ \t\n\r\[{,-]:))")
# '?' glued to what follows, after a blank or a flow indicator (`{range: ?2}`).
_GLUED_QUESTION = lazy(r"\?(?<=[ \t\n\r\[{,]\?)\S")
# The skeleton of a text: of its UTF-8 bytes, brackets and line breaks stay; an ASCII
# character YAML does not allow becomes '!'; the bytes of other characters (0x80 and up)
# become 'x' and stay, as the characters themselves did when this worked on text: they
# keep apart the brackets around them. Every other byte is deleted.
_SKELETON_DELETED = bytes(c for c in range(128)
                          if chr(c) not in "[]{}\n" and c not in _NOT_ALLOWED_ASCII)
_SKELETON_TABLE = bytes(ord("!") if c in _NOT_ALLOWED_ASCII else c for c in range(128)) + (
    b"x" * 128)
# What may follow a block scalar's '|' or '>' on its line: indentation and chomping
# indicators, blanks, then a comment, the line break or the end of the text.
_HEADER_END = lazy(r"[-+0-9]*+[ \t]*+(?:[\n#]|\Z)")
# Levels of brackets on one line _flow_lines takes apart before it gives up (see there).
# Real content nests flow collections two or three levels deep.
_FLOW_PASSES = 16
# '@', '`' and '%' cannot start plain text (YAML 1.2 reserves the first two).
_RESERVED = lazy(r"(?:(?<=[\s\[{,])|\A)[@`%]")


def needs_libyaml(text: str) -> bool:
    """True when only the libyaml path may read `text` (see the module docstring)."""
    if not text.endswith("\n") or "\r" in text or "\t" in text:
        return True
    if _BINARY_NUMBER.search(text) is not None:
        return True
    if text.startswith(("%", "---", "...", "?", ":", "@", "`")):
        return True
    # A directive or document marker at the start of a line.
    if ("%" in text and "\n%" in text) or "\n---" in text or "\n..." in text:
        return True
    skeleton = _skeleton(text)
    if _not_allowed(text, skeleton):
        return True
    if _colon(text) or ("?" in text and _question(text)):
        return True
    if "_" in text and _underscore_number(text):
        return True
    if ("@" in text or "`" in text or "%" in text) and _RESERVED.search(text) is not None:
        return True
    if _property(text) or _odd_block_indicator(text):
        return True
    return _flow_lines(skeleton) or needs_strict_pass(text)


def part_needs_libyaml(window: str) -> bool:
    """needs_libyaml for some whole lines of a text whose rest passed it (as it was before
    an edit of those lines), taken with the line break before them: true whenever the
    whole text would fail it.

    Each search looks at a character or two on either side of what it finds, within a
    line or from the line break before it, so what it finds in the edited text is in
    those lines or was in the text before. Two searches judge the whole text rather than
    a spot: an explicit key's ':' is looked for only once some ':' starts a line, which
    that key's ':' itself does; and a line of spaces after a block scalar's header counts
    only where a line of spaces is found, which that match holds. The rest of the text
    had neither, so here the latter is asked of the lines alone.
    """
    return needs_libyaml(window) or spaced_blank_after_header(window)


def _skeleton(text: str) -> bytes:
    """The text's brackets, line breaks, unallowed ASCII characters ('!') and the bytes
    of its other characters ('x'), in order (see _SKELETON_TABLE)."""
    return text.encode("utf-8", "surrogatepass").translate(_SKELETON_TABLE, _SKELETON_DELETED)


def _not_allowed(text: str, skeleton: bytes) -> bool:
    """Whether the text holds a character YAML does not allow in a file."""
    if text.isascii():
        return b"!" in skeleton
    return _UNPRINTABLE.search(text) is not None


def _colon(text: str) -> bool:
    """Whether a ':' needs the libyaml path (see _COLON)."""
    if _NEAR_COLON.search(text) is None:
        return False
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
            # hot path: most are a header as most are written (`text: |` at a line's end)
            if not text.startswith(indicator + "\n", index) or text[index - 2:index] != ": ":
                before = index - 1
                while before >= 0 and text[before] in " \t":
                    before -= 1
                if before >= 0 and text[before] in "[{,":
                    return True
                # A blank before it: it may be a block scalar header, which ends its line.
                if before < index - 1 and _HEADER_END.match(text, index + 1) is None:
                    return True
            index = text.find(indicator, index + 1)
    return False


def _flow_lines(skeleton: bytes) -> bool:
    """A flow collection over several lines (libyaml refuses some such forms YAML 1.2
    allows, and the strict pass checks others), or brackets that do not pair up on a line.

    In the text's skeleton, pairs `[]` and `{}` are removed until none is left: any
    bracket that remains did not close on its own line. Each pass removes one level of
    nesting, so after _FLOW_PASSES passes whatever still changes nests deeper than any
    content does and is sent to the libyaml path unexamined (which refuses it as too
    deep): the passes stay a fixed number over the text, whatever its nesting.
    """
    kept = skeleton
    for _ in range(_FLOW_PASSES):
        shorter = kept.replace(b"[]", b"").replace(b"{}", b"")
        if shorter == kept:
            return b"[" in kept or b"{" in kept or b"]" in kept or b"}" in kept
        kept = shorter
    return True

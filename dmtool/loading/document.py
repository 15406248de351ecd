"""SourceDocument: one YAML file as plain JSON data, its modeline, and node positions.

Loading is fast-path first: a clean file is parsed once into data only. Positions are
computed when somebody first asks for one (a second parse of that file alone), and a
file with problems is parsed again with positions so every diagnostic is located.
Both passes run the same parser and builder, so they always agree on the data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.diagnostics.subjects import where
from dmtool.loading.builder import BuildResult, NeedsPositions, build
from dmtool.loading.fast import ENABLED as FAST_ENABLED
from dmtool.loading.fast import LARGEST, fast_data
from dmtool.loading.positions import PathParts, PositionTree, find_position
from dmtool.loading.reading import MAX_BYTES, read_text
from dmtool.loading.screen import needs_libyaml
from dmtool.loading.splice import (
    EDITED_LIST,
    EntriesEdit,
    Spliced,
    edited_part,
    entry_offsets,
    spliced_data,
    top_level_block,
)
from dmtool.loading.strict import needs_strict_pass, strict_problems

_MODELINE = re.compile(r"#\s*yaml-language-server\s*:.*?\$schema=(\S+)")


# Longest text the pure Python parser is given when libyaml refuses one. It reads some
# YAML 1.2 forms libyaml refuses (`{url: http://x}`), in time linear in the text but
# slowly: about 6 microseconds a character inside [...] or {...}, and a text it reads
# is parsed by it up to three times (data, strict pass, positions): 256 KiB of flow
# collections cost about 5 s. A longer text keeps libyaml's refusal, found in
# milliseconds. The largest real storybook is under half of this.
PURE_PARSER_LIMIT = 256 * 1024
_PURE_PARSER_SKIPPED = (
    "Files over 256 KiB are read by libyaml alone, which follows YAML 1.1 and refuses "
    "some forms YAML 1.2 allows (such as ':' unquoted inside [...] or {...}): quote such "
    "text, or split the file.")

_UNSET: Any = object()
T = TypeVar("T")
# The memo of locations found: JSON pointer (plus "#key") -> (line, column, subject).
_LOCATIONS = "locations:1"


class SourceDocument:
    """A loaded document. `data` holds only dict, list, str, int, float, bool and None.

    Text and data may be deferred: a document rebuilt from the check cache reads its
    text from disk, and unpacks its data, only when something asks for them. `memo`
    keeps values derived from the document (a rule's extracted references, a storybook's
    analysis) so that the cache can store them with the file and skip the work next time.
    """

    def __init__(
        self, path: Path, display: str, text: str | None = None, data: Any = None,
        modeline: str | None = None, *, read_text: Callable[[], str] | None = None,
        read_data: Callable[[], Any] | None = None, kind: Any = _UNSET, doc_id: Any = _UNSET,
        memos: dict[str, Any] | None = None, content_key: str | None = None,
    ) -> None:
        self.path = path
        self.display = display
        self.modeline = modeline
        self._text = text
        self._read_text = read_text
        self._reread_text: Callable[[], str] | None = None  # see defer_text
        self._data = data
        self._read_data = read_data if data is None else None
        # Builds the data again after let_go_of_data (None: the data is never let go).
        self._reload: Callable[[], Any] | None = None
        self._kind = kind
        self._doc_id = doc_id
        # Stored memos (from the cache) and the keys used in this run.
        self.memos: dict[str, Any] = memos if memos is not None else {}
        self.memos_used: set[str] = set()
        # Keys whose value was computed in this process or has passed its check: a memo
        # read many times a run (a document's top-level fields) is checked once.
        self._sound: set[str] = set()
        self.memos_changed = False
        # Read with the pure Python parser (libyaml refused it): positions come from it too.
        self.pure_parser = False
        # The data is the fast path's reading of the whole text (fast.py), as it was built:
        # an edit of the text may then be loaded by parsing the edited part (splice.py).
        self.fast_path = False
        # When the data was spliced from the document the file gave before (splice.py):
        # what the edit changed, and that document's memos, which a reader of the book
        # may keep where the edit changed nothing it reads (the story graph's findings).
        self.edit: EntriesEdit | None = None
        # For a document recovered from a text that did not load, or read as its author
        # meant it: the last one the fast path loaded, which the next edit is spliced
        # from (typing on until the text loads again).
        self.last_good: SourceDocument | None = None
        self.memos_before_edit: dict[str, Any] = {}
        # A hash of the file's bytes, when known: memos of other documents that depend on
        # this one name it in their keys.
        self.content_key = content_key
        # The position index, built on the first locate() call; see positions.py.
        self._positions: PositionTree | None = None
        self._indexed = False
        # Until then, positions inside single entries (see _locate_in_entry).
        self._entry_offsets: list[int] | None = None
        self._entry_trees: dict[int, tuple[int, PositionTree]] = {}
        # The 0-based line each entry starts on, counted once for them all (counted per
        # entry from the top, locating in every entry of a long book was quadratic).
        self._entry_first_lines: list[int] | None = None
        # And of the other top-level keys' lines (see _locate_in_block).
        self._block_trees: dict[str, tuple[int, int, PositionTree]] = {}
        # The document whose text this one reads as other data (read_as), whose positions
        # these are.
        self._positions_of: SourceDocument | None = None

    def __repr__(self) -> str:
        return f"SourceDocument({self.display!r})"

    @property
    def text(self) -> str:
        if self._text is None:
            if self._reread_text is not None:
                return self._reread_text()  # deferred: read again, and not kept
            self._text = self._read_text() if self._read_text is not None else ""
            self._read_text = None
        return self._text

    def defer_text(self, read: Callable[[], str]) -> None:
        """Let go of the text for good: `read` gives it again each time it is asked for,
        and it is not kept. A large file's text is as big as the file, and once the data
        is built it is needed only by a memo or two and by the excerpts of the file's
        diagnostics; kept, a check would end holding every file's. Whoever needs it
        several times holds it."""
        self._text = None
        self._read_text = None
        self._reread_text = read

    @property
    def data(self) -> Any:
        if self._read_data is not None:
            self._data = self._read_data()
            self._read_data = None
        return self._data

    def let_go_of_data(self, reload: Callable[[], Any] | None = None) -> None:
        """Drop the data until it is asked for again, when it can be built again: `reload`
        builds it (and is kept for later calls). A large document's data is several
        times its text; a check holds only the one it is working on."""
        if reload is not None:
            self._reload = reload
        if self._reload is None or self._read_data is not None:
            return
        _ = self.kind, self.doc_id  # known without the data from now on
        self._data = None
        self._read_data = self._reload

    @property
    def data_loaded(self) -> bool:
        """Whether `data` is in memory (False while deferred)."""
        return self._read_data is None

    @property
    def kind(self) -> Any:
        """The document's `kind:` value (None when absent), without unpacking deferred data."""
        if self._kind is _UNSET:
            self._kind = self.data.get("kind") if isinstance(self.data, dict) else None
        return self._kind

    @property
    def doc_id(self) -> Any:
        """The document's `id:` value (None when absent), without unpacking deferred data."""
        if self._doc_id is _UNSET:
            self._doc_id = self.data.get("id") if isinstance(self.data, dict) else None
        return self._doc_id

    def memo(self, key: str, compute: Callable[[SourceDocument], T],
             check: Callable[[Any], bool] | None = None) -> T:
        """`compute(self)`, remembered under `key` with this document's content.

        The value must be plain data (what marshal stores: tuples, lists, dicts, str,
        int, float, bool, None); `check` verifies a stored value's shape before it is
        trusted (a value that fails is computed again). The key must name everything
        besides this document that the value depends on.
        """
        self.memos_used.add(key)
        if key in self.memos:
            stored = self.memos[key]
            if key in self._sound:
                return stored  # type: ignore[no-any-return]
            if check is None or check(stored):
                self._sound.add(key)
                return stored  # type: ignore[no-any-return]
        value = compute(self)
        self.memos[key] = value
        self.memos_changed = True
        self._sound.add(key)
        return value

    def read_as(self, data: Any) -> SourceDocument:
        """The same file read as `data` (say, as its author meant it): same text and positions.

        Memos are not shared: what is derived from `data` is not derived from the file alone.
        """
        twin = SourceDocument(self.path, self.display, data=data, modeline=self.modeline,
                              read_text=lambda: self.text)
        if self._reread_text is not None:
            twin.defer_text(self._reread_text)
        if self._indexed:
            twin._positions, twin._indexed = self._positions, True
        # Its nodes stand where this document's do: found from single entries' and keys'
        # lines as this one's are (see _locate_in_entry), not from a parse of the whole.
        twin._positions_of = self._positions_of or self
        twin.last_good = self if self.fast_path else self.last_good  # the next edit's base
        return twin

    def locate(self, parts: PathParts, *, key: bool = False) -> Location:
        """Location of the node at `parts` (or its key); falls back to the nearest ancestor.

        Locations found are remembered with the document (a memo, so the check cache keeps
        them too): a finding repeated on every run costs no second parse of its file.
        """
        spot = pointer(parts) + ("#key" if key else "")
        known = self.memos.get(_LOCATIONS)
        hit = known.get(spot) if type(known) is dict else None
        if (type(hit) is tuple and len(hit) == 3 and type(hit[0]) is int
                and type(hit[1]) is int and type(hit[2]) is str):
            self.memos_used.add(_LOCATIONS)
            return Location(self.display, hit[0], hit[1], pointer(parts), subject=hit[2])
        found = self._locate(parts, key=key)
        if type(known) is not dict:
            known = self.memos[_LOCATIONS] = {}
        known[spot] = (found.line, found.column, found.subject)
        self.memos_used.add(_LOCATIONS)
        self.memos_changed = True
        return found

    def _locate(self, parts: PathParts, *, key: bool) -> Location:
        line, column = self.line_column(parts, key=key)
        return Location(self.display, line, column, pointer(parts), subject=where(self.data, parts))

    def line_column(self, parts: PathParts, *, key: bool = False) -> tuple[int, int]:
        """1-based (line, column) of the node at `parts` (or its key), as locate() finds
        it, without a Location's subject or the memo: for a caller that places most nodes
        of a document at once (the language server's semantic tokens)."""
        if not self._indexed:
            source = self._positions_of or self
            found = source._locate_in_entry(parts, key=key) or source._locate_in_block(parts, key=key)
            if found is not None:
                return found
            text = _parser_text(self.text)
            built = build(text, display=self.display, positions=True, pure=self.pure_parser)
            if built.parse_failed and not self.pure_parser and len(text) <= PURE_PARSER_LIMIT:
                # Loaded from the cache, where the parser it needed is not recorded.
                built = build(text, display=self.display, positions=True, pure=True)
            self._positions = built.positions
            self._indexed = True
        return find_position(self._positions, parts, key=key)

    def _locate_in_entry(self, parts: PathParts, *, key: bool) -> tuple[int, int] | None:
        """(line, column) of a node inside one entry of a book in dmtool's layout, from
        the positions of that entry's lines alone (a finding in one entry of a long book
        does not parse the whole book again); None for any other node or layout."""
        if not self.fast_path or len(parts) < 2 or parts[0] != EDITED_LIST:
            return None
        entries = self.data.get(EDITED_LIST) if type(self.data) is dict else None
        index = parts[1]
        if type(entries) is not list or type(index) is not int or not 0 <= index < len(entries):
            return None
        if self._entry_offsets is None:
            self._entry_offsets = entry_offsets(self.text, len(entries)) or []
        if not self._entry_offsets:
            return None
        tree = self._entry_trees.get(index)
        if tree is None:
            start, end = self._entry_offsets[index], self._entry_offsets[index + 1]
            built = build(self.text[start:end], display=self.display, positions=True)
            if built.parse_failed or built.positions is None or len(built.positions) != 3:
                return None
            tree = self._entry_trees[index] = (self._entry_line(index), built.positions[2][0])
        line, column = find_position(tree[1], parts[2:], key=key)
        return line + tree[0], column

    def _entry_line(self, index: int) -> int:
        """The 0-based line entry `index` starts on (its offset's line)."""
        offsets = self._entry_offsets
        assert offsets
        if self._entry_first_lines is None:
            text, lines, line, previous = self.text, [], 0, 0
            for offset in offsets:
                line += text.count("\n", previous, offset)
                lines.append(line)
                previous = offset
            self._entry_first_lines = lines
        return self._entry_first_lines[index]

    def _locate_in_block(self, parts: PathParts, *, key: bool) -> tuple[int, int] | None:
        """(line, column) of a node under a top-level key other than the entries (a
        book's endings, its title), from that key's lines alone: the outline names each
        ending's group at its key, and a long book was parsed whole again, with
        positions, for every version typed. None for any other node or layout."""
        if (not self.fast_path or not parts or parts[0].__class__ is not str
                or type(self.data) is not dict or parts[0] not in self.data):
            return None
        if len(parts) > 1 and parts[0] == EDITED_LIST:
            return None  # an entry's node: see _locate_in_entry
        block = top_level_block(self.text, parts[0])
        if block is None:
            return None
        start, end = block
        if len(parts) == 1 and key:  # the key itself starts its first line
            return self.text.count("\n", 0, start) + 1, 1
        if parts[0] == EDITED_LIST:
            return None
        trees = self._block_trees.get(parts[0])
        if trees is None or trees[0] != start:
            built = build(self.text[start:end], display=self.display, positions=True)
            tree = built.positions
            if built.parse_failed or tree is None or len(tree) != 3 or tree[2].__class__ is not dict \
                    or list(tree[2]) != [parts[0]]:
                return None
            trees = self._block_trees[parts[0]] = (start, self.text.count("\n", 0, start), tree)
        line, column = find_position(trees[2], parts, key=key)
        return line + trees[1], column

    @property
    def modeline_line(self) -> int | None:
        """1-based line of the schema modeline comment, if the file has one."""
        return _find_modeline(self.text)[1]


@dataclass(slots=True)
class LoadResult:
    """A document, or None with the diagnostics that explain why there is none."""

    document: SourceDocument | None
    diagnostics: list[Diagnostic]
    # A text that failed in the entries an edit touched: the last document that loaded,
    # whose data stands for the rest (see _broken_edit).
    recovered: SourceDocument | None = None


def read_document(
    path: Path, display: str | None = None, *, max_bytes: int | None = None
) -> LoadResult:
    """Read one YAML file; never raises for bad content, returns diagnostics instead.

    `max_bytes` overrides the size limit (the max-file-size setting); None keeps
    reading.MAX_BYTES.
    """
    shown = display or path.as_posix()
    text, problems = read_text(path, shown, max_bytes=max_bytes or MAX_BYTES)
    if text is None:
        return LoadResult(None, problems)
    return load_text(text, path=path, display=shown)


def load_text(text: str, *, path: Path | None = None, display: str = "<text>",
              previous: SourceDocument | None = None, pure: bool = True) -> LoadResult:
    """Load already-decoded YAML text as one content document.

    `previous`: the document the same file gave before (a long-lived session's); when the
    fast path built it, only the part of the text that changed may be parsed. `pure`
    False keeps libyaml's refusal without asking the pure Python parser (for a reader
    that only guesses, and may try many texts: validation/recovery.py)."""
    odd_break = _first_odd_break(text)
    if odd_break >= 0:
        return LoadResult(None, [_odd_break(text, odd_break, display)])
    if previous is not None and not previous.fast_path and previous.last_good is not None:
        previous = previous.last_good  # typing on in a text that does not load yet
    spliced = _spliced(previous, text) if previous is not None else None
    if spliced is None and previous is not None:
        broken = _broken_edit(previous, text, display)
        if broken is not None:
            return broken
    fast, data = (True, spliced.data) if spliced is not None else fast_data(text)
    if fast:
        document = SourceDocument(path or Path(display), display, text, data,
                                  _find_modeline(text)[0])
        document.fast_path = True
        if spliced is not None and previous is not None:
            document.edit, document.memos_before_edit = spliced.edit, previous.memos
        return LoadResult(document, [])
    parsed = _parser_text(text)
    result, pure = _build(parsed, display, PURE_PARSER_LIMIT if pure else -1)
    problems = result.diagnostics
    if not problems and (pure or result.needs_strict or needs_strict_pass(parsed)):
        problems = strict_problems(parsed, display, pure=pure)
    if problems:
        return LoadResult(None, problems)
    if result.empty:
        return LoadResult(None, [diagnose(
            "DM006", Location(display, 1, 1),
            "The file holds no YAML document (it is empty or only comments). Add the "
            "content or delete the file.")])
    modeline = _find_modeline(text)[0]
    document = SourceDocument(path or Path(display), display, text, result.data, modeline)
    document.pure_parser = pure
    if not pure and len(text) > LARGEST and FAST_ENABLED and not needs_libyaml(text):
        # Too large for yaml-rs whole (its memory), but what the fast path would read had
        # it been given it: libyaml's data is that reading, so an edit of this book may be
        # spliced (splice.py parses only the entries it touched, whatever the book's size).
        # Without this a 10,000-entry book was parsed whole for every keystroke, and a
        # half-typed line recovered by parsing it whole up to eight times more.
        document.fast_path = True
    if result.positions is not None:
        document._positions, document._indexed = result.positions, True
    return LoadResult(document, [])


def _spliced(previous: SourceDocument, text: str) -> Spliced | None:
    """The data of `text` from the fast path's data of the text before it, or None."""
    if not previous.fast_path or previous._text is None or not previous.data_loaded:
        return None  # only what is in memory: reading it back would cost what it saves
    return spliced_data(previous._text, previous.data, text)


def _broken_edit(previous: SourceDocument, text: str, display: str) -> LoadResult | None:
    """The syntax error of an edit confined to a few entries whose lines no longer parse
    (an author half way through typing), found by parsing those lines alone; None when the
    edit is not of that kind. A long book is then never parsed whole while the author types
    (the pure Python parser, which libyaml's refusal calls on, takes seconds on it), and
    the last good data stands for the text (recovery reads nothing more of it)."""
    if not previous.fast_path or previous._text is None or not previous.data_loaded:
        return None
    found = edited_part(previous._text, previous.data, text)
    if found is None:
        return None
    first_line, part = found
    result = load_text(part, display=display)
    if result.document is not None or not result.diagnostics:
        return None
    return LoadResult(None, [_moved_down(d, first_line - 1) for d in result.diagnostics],
                      recovered=previous)


def _moved_down(diagnostic: Diagnostic, lines: int) -> Diagnostic:
    """A diagnostic found in a part of a text, located in the whole text."""
    def place(location: Location) -> Location:
        end = location.end_line + lines if location.end_line is not None else None
        return replace(location, line=location.line + lines, end_line=end)
    return replace(diagnostic, location=place(diagnostic.location),
                   related=tuple(place(r) for r in diagnostic.related))


def _build(parsed: str, display: str, pure_limit: int) -> tuple[BuildResult, bool]:
    """Parse with libyaml; if libyaml refuses the text, with the pure Python parser.

    libyaml follows YAML 1.1 where YAML 1.2 allows more: inside [...] and {...} it
    refuses ':' within plain text (`{url: http://x}`) and a few other forms. The pure
    parser reads those as YAML 1.2 does; it is slower, so it only gets the files libyaml
    refused, and a file it also refuses keeps libyaml's message. Returns the result and
    whether it came from the pure parser (positions must then come from it too).
    """
    try:
        result = build(parsed, display=display, positions=False)
    except NeedsPositions:
        result = build(parsed, display=display, positions=True)
    if not result.parse_failed:
        return result, False
    if len(parsed) > pure_limit:
        return (_beyond_pure_parser(result) if pure_limit >= 0 else result), False
    try:
        second = build(parsed, display=display, positions=False, pure=True)
    except NeedsPositions:
        second = build(parsed, display=display, positions=True, pure=True)
    if second.parse_failed:
        return result, False
    return second, True


def _beyond_pure_parser(result: BuildResult) -> BuildResult:
    """libyaml's refusal of a text too long for the pure parser, saying why it stands."""
    refusal = result.diagnostics[-1]  # the parser's own, added when it gave up
    hint = f"{refusal.hint} " if refusal.hint else ""
    result.diagnostics[-1] = replace(refusal, hint=hint + _PURE_PARSER_SKIPPED)
    return result


def _first_odd_break(text: str) -> int:
    """Index of the first U+0085, U+2028 or U+2029, or -1 (three searches: far cheaper than
    a regular expression). Line breaks to YAML 1.1 and libyaml, ordinary characters to
    YAML 1.2: the parser would fold or split text at them where the spec does not (DM020)."""
    found = [i for i in (text.find(c) for c in "\x85\u2028\u2029") if i >= 0]
    return min(found) if found else -1


def _odd_break(text: str, index: int, display: str) -> Diagnostic:
    line_start = text.rfind("\n", 0, index) + 1
    name = {"\x85": "next line", "\u2028": "line separator", "\u2029": "paragraph separator"}
    return diagnose(
        "DM020", Location(display, text.count("\n", 0, index) + 1, index - line_start + 1),
        f"This invisible character U+{ord(text[index]):04X} ({name[text[index]]}) is a line "
        "break to dmtool's parser but ordinary text to YAML 1.2, so the file would be read "
        "differently by different tools. Replace it with a plain line break or a space.")


def _parser_text(text: str) -> str:
    """The text as handed to the parser: a last line of only blanks gets its line break.

    libyaml drops such a line from a block scalar that ends the file, where YAML 1.2
    keeps it (YAML test suite L24T/01, JEF9/02). The added break changes nothing else,
    and it comes after every position, so positions still match the file.
    """
    tail = text[text.rfind("\n") + 1:]
    if tail and not tail.strip(" \t"):
        return text + "\n"
    return text


def pointer(parts: PathParts) -> str:
    """The JSON pointer (RFC 6901) for a path of keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _find_modeline(text: str) -> tuple[str | None, int | None]:
    """The modeline's $schema value among the leading comment lines, and its line."""
    start, number = 0, 0
    # Walk line by line without splitting the whole (possibly large) text.
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        number += 1
        stripped = text[start:end].strip()
        if stripped and not stripped.startswith("#"):
            break
        found = _MODELINE.match(stripped)
        if found:
            return found.group(1), number
        start = end + 1
    return None, None

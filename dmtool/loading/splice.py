"""An edited storybook's data from its last text and data: only the changed entries parsed.

A long-lived session (the daemon, watch mode, the language server) sees a book again
after one edit. Most of what loading the new text costs is parsing the unchanged
entries again: `spliced_data` finds the entries the edit touched, parses those alone
with yaml-rs and puts them in place of the old ones, and gives the data fast.py would
give for the whole text, or None (the caller then loads the whole text as usual).

It works only on the layout dmtool writes, and only where it can tell the answer is the
same (tests/test_loading_splice.py compares it with the whole parse over edits of every
storybook in content/ and tests/cases/, and generated ones):
- the old text took the fast path itself, and its data is the parse of it;
- its entries are a block sequence at two spaces under a top-level `entries:` line, and
  each of its lines that starts with `  -` starts an entry (they are as many as the
  entries, and each is `  - `); so each such line is an entry's first line;
- the edit lies within the entries, and the lines from the first touched entry's first
  line to the next entry's first line (or the end of the entries) are the part parsed;
- that part is whole entries as well: only entry lines, lines indented further, blank
  lines and comments, its own `  -` lines as many as the entries it parses into. So it
  cannot end the sequence, nor reach into the text after it (an open quote or
  bracket fails its own parse; a block scalar ends at the next entry's line);
- the screen fast.py applies to the whole text passes on the part, taken with the line
  break before it (a part of a text passes only what the whole text would);
- the old text's part parses into exactly the old entries it replaces (a check that the
  part was found where it is).

Besides the data, a splice tells what the edit changed (EntriesEdit): where the part parsed
again lies in both texts, so that what was found at the lines around it can be moved to
where those lines are now, and which keys of the entries it replaced changed value, so that
a reader of the book that reads none of them (the story graph reads no entry's prose) can
keep what it found before the edit.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from dmtool.loading.fast import ENABLED, LARGEST, parsed_part
from dmtool.loading.screen import part_needs_libyaml
from dmtool.patterns import lazy

# The top-level list a splice edits (EntriesEdit tells what changed in its items).
EDITED_LIST = "entries"
# dmtool's layout of a storybook's entries: the `entries:` line at the margin, and each
# entry's first line from the line break before it (the language server reads them too).
ENTRIES_LINE = f"\n{EDITED_LIST}:\n"
ENTRY_LINE = "\n  - "
_ITEM_DASH = "\n  -"
# After `entries:`, the first line at the margin that is not a comment or blank ends the
# sequence (the next top-level key).
_BLOCK_END = lazy(r"\n(?=[^ \n#])")
# After any other top-level key, the same, except that a sequence's items may stand at the
# margin too (`endings:` then `- ending: A`): they belong to the key above.
_KEY_BLOCK_END = lazy(r"\n(?=[^ \n#-]|-[^ \n])")
# A line a part may not hold: not an entry's first line, not indented further, not blank
# and not a comment.
OUTSIDE_AN_ENTRY = lazy(r"\n(?!  - |   | *+(?:#|\n|\Z))")
# Texts are compared this many characters at a time to find where they first differ.
_STRIDE = 4096


class EntriesEdit(NamedTuple):
    """What an edit spliced in changed: the lines of the part parsed again (1-based; the
    part starts on the same line in both texts and ends before `old_end` in the old text,
    before `new_end` in the new one), the keys whose values differ between the entries
    it replaced and those it put in their place, taken pairwise (None when it added or
    removed entries, or an entry is not a mapping), and which entries those are: from
    index `first_entry`, `replaced` of the old list and `added` of the new one."""

    first_line: int
    old_end: int
    new_end: int
    changed_keys: frozenset[str] | None
    first_entry: int
    replaced: int
    added: int

    def moved(self, line: int) -> int | None:
        """Where a line of the old text is in the new one; None for a line of the part
        parsed again (what was there may have moved within it, or be gone)."""
        if line < self.first_line:
            return line
        if line >= self.old_end:
            return line + self.new_end - self.old_end
        return None


class Spliced(NamedTuple):
    """The data of an edited text, and what the edit changed."""

    data: Any
    edit: EntriesEdit


class _Region(NamedTuple):
    """The entries an edit touched: offsets of their lines in the new text (`first` to
    `end`), the same lines' end in the old text, and the index of the first of them."""

    first: int
    end: int
    old_end: int
    index: int


def spliced_data(old_text: str, old_data: Any, text: str) -> Spliced | None:
    """The data of `text`, an edit of `old_text` whose fast-path data is `old_data`, with
    only the touched entries parsed, and what the edit changed; None where that cannot be
    told safe (see above)."""
    region = _edited_region(old_text, old_data, text)
    if region is None:
        return None
    first, end, old_end, index = region
    entries = old_data[EDITED_LIST]
    old_part, part = old_text[first:old_end], text[first:end]
    replaced = _entries_of(old_part)
    added = _entries_of(part)
    if replaced is None or added is None:
        return None
    if entries[index:index + len(replaced)] != replaced:
        return None
    spliced = dict(old_data)
    spliced[EDITED_LIST] = [*entries[:index], *added, *entries[index + len(replaced):]]
    first_line = text.count("\n", 0, first) + 1
    edit = EntriesEdit(first_line, first_line + old_part.count("\n"),
                       first_line + part.count("\n"), _changed_keys(replaced, added),
                       index, len(replaced), len(added))
    return Spliced(spliced, edit)


def edited_part(old_text: str, old_data: Any, text: str) -> tuple[int, str] | None:
    """(the 1-based line it starts on, the part) for the lines of the entries an edit of
    `old_text` (whose fast-path data is `old_data`) touched, when they are entry lines
    only; None where the edit is not within the entries as a splice finds them. A part
    that does not parse on its own holds the text's syntax error: its lines are whole
    entries, so the rest of the text is read as it was (see above)."""
    region = _edited_region(old_text, old_data, text)
    if region is None:
        return None
    part = text[region.first:region.end]
    if not part.startswith("  - ") or OUTSIDE_AN_ENTRY.search(part) is not None:
        return None
    return text.count("\n", 0, region.first) + 1, part


def _edited_region(old_text: str, old_data: Any, text: str) -> _Region | None:
    """Where the entries an edit touched lie, when the old text has the layout a splice
    works on and the edit is within its entries (see above); else None."""
    if not ENABLED or old_data.__class__ is not dict:
        return None
    entries = old_data.get(EDITED_LIST)
    if entries.__class__ is not list or not entries:
        return None
    start = _common_prefix(old_text, text)
    if start == len(old_text) == len(text):
        return None  # nothing changed: the caller keeps what it has
    shift = len(text) - len(old_text)
    suffix = _common_suffix(old_text, text, min(len(old_text), len(text)) - start)
    block = entries_block(old_text, len(entries))
    if block is None:
        return None
    block_start, old_end = block
    new_end = old_end + shift
    changed_end = len(text) - suffix  # the first index of the common suffix in `text`
    if changed_end > new_end:
        return None  # the edit reaches past the entries (the part's lines are checked below)
    first = text.rfind(ENTRY_LINE, block_start - 1, start) + 1
    if first == 0:
        return None  # the edit is before the first entry's line
    following = text.find(ENTRY_LINE, changed_end, new_end)
    end = following + 1 if following >= 0 else new_end
    if end - first > LARGEST:
        return None  # the part alone is beyond what yaml-rs is given (fast.py)
    return _Region(first, end, end - shift, old_text.count(ENTRY_LINE, block_start - 1, first))


def entry_offsets(text: str, entries: int) -> list[int] | None:
    """Where each of the `entries` entries' lines start in `text`, and where the last
    one's end, when the text has the layout a splice works on (see entries_block); else
    None. The language server's outline and a document's positions read it."""
    block = entries_block(text, entries)
    if block is None:
        return None
    at, end = block
    starts = [at]
    while True:
        following = text.find(ENTRY_LINE, at, end)
        if following < 0:
            return [*starts, end]
        at = following + 1
        starts.append(at)


def top_level_block(text: str, key: str) -> tuple[int, int] | None:
    """Where the lines of a top-level `key:` start and end in `text` (the next line at
    the margin that is not a comment or blank ends them), when the key starts a line once;
    else None. Its lines are then a document of their own, `{key: ...}`, as in the text."""
    head = f"\n{key}:"
    at = text.find(head)
    if at < 0 or text.find(head, at + 1) >= 0 or text.startswith(head[1:]):
        return None
    after = at + len(head)
    if after < len(text) and text[after] not in " \n":
        return None  # a longer key that starts with this one
    found = _KEY_BLOCK_END.search(text, after)
    return at + 1, (found.start() + 1 if found is not None else len(text))


def _changed_keys(replaced: list[Any], added: list[Any]) -> frozenset[str] | None:
    """The keys whose values differ between each replaced entry and the entry in its place
    (a key one of them lacks counts as changed); None when the entries are not as many,
    or one is not a mapping."""
    if len(replaced) != len(added):
        return None
    changed: set[str] = set()
    for old, new in zip(replaced, added, strict=True):
        if old.__class__ is not dict or new.__class__ is not dict:
            return None
        changed.update(key for key in old.keys() | new.keys()
                       if key not in old or key not in new or not _same(old[key], new[key]))
        if [key for key in old if key in new] != [key for key in new if key in old]:
            changed.update(old.keys() & new.keys())  # the keys are in another order
    return frozenset(changed)


def _same(one: Any, other: Any) -> bool:
    """Whether two pieces of data are the same, types and the order of keys included
    (1, 1.0 and True are equal in Python, and differ to the rules)."""
    if one.__class__ is not other.__class__:
        return False
    if one.__class__ is dict:
        return list(one) == list(other) and all(_same(value, other[key])
                                                 for key, value in one.items())
    if one.__class__ is list:
        return len(one) == len(other) and all(map(_same, one, other))
    return bool(one == other)


def entries_block(text: str, entries: int) -> tuple[int, int] | None:
    """Where the lines of the `entries` entries start and end in `text` (a text the fast
    path took), when each of its lines starting with `  -` starts an entry; else None.

    Each entry's first line starts with `  -`, as every item of a block sequence two
    spaces in does; so when such lines are as many as the entries, and each is `  - `,
    no other line is one."""
    at = text.find(ENTRIES_LINE)
    if at < 0 or text.find(ENTRIES_LINE, at + 1) >= 0:
        return None
    block_start = at + len(ENTRIES_LINE)
    found = _BLOCK_END.search(text, block_start - 1)
    end = found.start() + 1 if found is not None else len(text)
    items = text.count(ENTRY_LINE, block_start - 1, end)
    if items != entries or text.count(_ITEM_DASH, block_start - 1, end) != items:
        return None
    return block_start, end


def _entries_of(part: str) -> list[Any] | None:
    """The entries a part of the entries' lines parses into, when it is whole entries and
    passes the fast path's screen and walk; else None."""
    if not part.startswith("  - ") or not part.endswith("\n"):
        return None
    if OUTSIDE_AN_ENTRY.search(part) is not None:
        return None
    window = "\n" + part
    if part_needs_libyaml(window):
        return None
    entries = parsed_part(part, depth=2)
    if entries.__class__ is not list:
        return None
    lines = part.count(ENTRY_LINE) + 1
    if len(entries) != lines or part.count(_ITEM_DASH) + 1 != lines:
        return None
    return entries


def _common_prefix(one: str, other: str) -> int:
    """The length of the longest common prefix of two texts (compared block by block in
    C, then halved down to the character)."""
    limit = min(len(one), len(other))
    at = 0
    while at < limit and one[at:at + _STRIDE] == other[at:at + _STRIDE]:
        at += _STRIDE
    low, high = at, min(at + _STRIDE, limit)
    while low < high:  # one[:low] == other[:low], and they differ before `high` (or end)
        middle = (low + high + 1) // 2
        if one[low:middle] == other[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(one: str, other: str, limit: int) -> int:
    """The length of the longest common suffix of two texts, at most `limit`."""
    at = 0
    while at < limit:
        size = min(_STRIDE, limit - at)
        if one[len(one) - at - size:len(one) - at] != other[len(other) - at - size:len(other) - at]:
            break
        at += size
    else:
        return limit
    low, high = at, at + min(_STRIDE, limit - at)
    while low < high:
        middle = (low + high + 1) // 2
        if (one[len(one) - middle:len(one) - low]
                == other[len(other) - middle:len(other) - low]):
            low = middle
        else:
            high = middle - 1
    return low

"""Loading an edited storybook by parsing only the entries the edit touched (splice.py)
gives exactly the fast path's data of the whole text, or declines.

Every storybook of content/ and tests/ is edited in the ways authors edit (prose, a new
entry, a deleted one, a renumbered one) and in the ways that change how the text around
an edit reads (an open quote, a key at the margin, a tab, an anchor, an explicit key, a
line of spaces after a block scalar's header, ...), and generated edits are made at
random places; each result must equal fast_data of the whole edited text, with types
(1, 1.0 and True differ), or be None. The plain edits must be spliced, not declined.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmtool.loading import fast, load_text
from dmtool.loading.splice import EntriesEdit, spliced_data, top_level_block

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = settings(max_examples=int(os.environ.get("DMTOOL_HYPOTHESIS_EXAMPLES", "300")),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])

pytestmark = pytest.mark.skipif(not fast.ENABLED, reason="yaml-rs is not installed")


def _books() -> list[Path]:
    found = []
    for path in sorted(p for p in [*(ROOT / "content").rglob("*.yaml"),
                                   *(ROOT / "tests").rglob("*.yaml")] if p.is_file()):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "\nentries:\n  - " in text and fast.fast_data(text)[0]:
            found.append(path)
    return found


BOOKS = _books()
HOLLIS = ROOT / "content" / "wanderers" / "hollis-brandt" / "storybook.yaml"


def _typed(data: Any) -> str:
    return json.dumps(data, sort_keys=False)


def _agrees(old: str, new: str) -> bool:
    """Whether the splice of `new` agrees with the whole parse, and tells truly what the
    edit changed; True when it spliced."""
    took, data = fast.fast_data(old)
    assert took
    spliced = spliced_data(old, data, new)
    if spliced is None:
        return False
    whole, expected = fast.fast_data(new)
    assert whole, "spliced a text the fast path refuses"
    assert _typed(spliced.data) == _typed(expected)
    _tells_the_edit(old, new, spliced.edit)
    assert spliced.edit.changed_keys == _changed_keys(data["entries"], expected["entries"])
    return True


def _tells_the_edit(old: str, new: str, edit: EntriesEdit) -> None:
    """The lines outside the part parsed again are the same text, where edit.moved says."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    assert 1 <= edit.first_line <= edit.old_end and edit.first_line <= edit.new_end
    assert old_lines[:edit.first_line - 1] == new_lines[:edit.first_line - 1]
    assert old_lines[edit.old_end - 1:] == new_lines[edit.new_end - 1:]
    for line in (1, edit.first_line - 1, edit.old_end, len(old_lines)):
        if 1 <= line < edit.first_line or edit.old_end <= line <= len(old_lines):
            moved = edit.moved(line)
            assert moved is not None and old_lines[line - 1] == new_lines[moved - 1]
    assert all(edit.moved(line) is None for line in range(edit.first_line, edit.old_end))


def _changed_keys(old: list[Any], new: list[Any]) -> frozenset[str] | None:
    """The keys whose values differ, types included, between the entries at the same place
    (all the keys two entries share when they are written in another order); None when
    the entries are not as many."""
    if len(old) != len(new):
        return None
    changed: set[str] = set()
    for before, after in zip(old, new, strict=True):
        changed.update(key for key in {*before, *after}
                       if _typed(before.get(key, "absent")) != _typed(after.get(key, "absent"))
                       or (key in before) != (key in after))
        if [k for k in before if k in after] != [k for k in after if k in before]:
            changed.update(set(before) & set(after))
    return frozenset(changed)


def _entry_lines(text: str) -> tuple[list[int], int]:
    """Where the entries' first lines start, and where the entries end (the next key)."""
    begin = text.index("\nentries:\n")
    after = re.compile(r"\n[^ \n#]").search(text, begin + 1)
    end = after.start() + 1 if after is not None else len(text)
    return [found.start() + 1 for found in re.finditer(r"\n  - ", text[:end])
            if found.start() > begin], end


def _authors_edits(text: str) -> list[tuple[str, bool]]:
    """Edits of the kinds authors make, at the first, a middle and the last entry, each
    with whether it must be spliced (all must, but a text added after an entry written
    in flow style on one line: that makes YAML no parser reads)."""
    starts, end = _entry_lines(text)
    edits = []
    for number in sorted({0, len(starts) // 2, len(starts) - 1}):
        at = starts[number]
        following = starts[number + 1] if number + 1 < len(starts) else end
        entry = text[at:following]
        line_end = text.index("\n", at)
        block = "{" not in text[at:line_end]
        edits += [
            (text[:line_end] + "0" + text[line_end:], block),              # the entry's number
            (text[:at] + entry + text[at:], True),                         # the entry twice
            (text[:at] + text[following:], True),                          # the entry deleted
            (text[:at] + "  - entry: 9999\n    kind: event\n" + text[at:], True),  # a new one
            (text[:line_end] + "\n    note: a word" + text[line_end:], block),  # a new field
        ]
        if "\n    title: " in entry:
            prose = text.index("\n    title: ", at) + len("\n    title: ")
            edits.append((text[:prose] + "Rain, then " + text[prose:], True))
    return edits


_BREAKING = [
    "\nfoo: 1", "\n  foo: 1", "\n - x", '\n    title: "open', "\n    title: 'open",
    "\n    t: [1,\n      2]", "\n    t: {a: 1", "\t", "\n    t: &a x", "\n    t: *a",
    "\n    ? x\n    : y", "\n    t: !!str 1", "\n    t: |\n   \n      x", "\n---\n",
    "\n...\n", "\n    t: 0b1", "\n    t: 1_000", "\n    t: @x", "\n    t: a#b", "\x07",
    "\n    t: >\n  - entry: 2", "\n  -\n    entry: 3", "\n  -   entry: 4", "\r",
    "\n    entry: 7", "\n    t: 2001-01-01", "\n    1: x", "\n    t: .inf", "\n    t: 1e400",
    "\n    t: |\n      x\n  - y", "\n    t: -x", "\n    t: ''", "\n# a comment",
    "\n    t: a\n     b", "\n    t: [a, b]", "\n    t: {a: b}", "\n    t: ~",
]


@pytest.mark.parametrize("path", BOOKS, ids=[str(p.relative_to(ROOT)) for p in BOOKS])
def test_authors_edits_are_spliced_as_the_whole_text_reads(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for edited, spliced in _authors_edits(text):
        assert _agrees(text, edited) or not spliced


@pytest.mark.parametrize("insert", _BREAKING)
def test_edits_that_change_how_the_text_reads_agree_or_are_declined(insert: str) -> None:
    text = HOLLIS.read_text(encoding="utf-8")
    for at in _entry_lines(text)[0][::7]:
        line_end = text.index("\n", at)
        for where in (at + 4, line_end):
            _agrees(text, text[:where] + insert + text[where:])


def test_edits_outside_the_entries_and_no_edit_at_all_are_declined() -> None:
    text = HOLLIS.read_text(encoding="utf-8")
    data = fast.fast_data(text)[1]
    assert spliced_data(text, data, text) is None
    assert spliced_data(text, data, text.replace("title: ", "title: A ", 1)) is None
    assert spliced_data(text, data, text.replace("\nendings:", "\nendings:  ", 1)) is None
    assert spliced_data(text, data, text + "# the end\n") is None
    edited = text.replace("\n    title: ", "\n    title: Rain. ", 1)
    assert spliced_data(text, data, edited) is not None
    # Data that is not what the text reads as (fewer entries than its entries' lines):
    # the text's lines no longer tell where each entry starts.
    assert spliced_data(text, {**data, "entries": data["entries"][1:]}, edited) is None
    # Entries whose lines the splice does not read: an entry's dash on a line of its own,
    # and an `entries:` line with more on it.
    for layout in (text.replace("\n  - ", "\n  -\n    ", 1),
                   text.replace("\nentries:\n", "\nentries:  # the story\n")):
        took, read = fast.fast_data(layout)
        assert took
        assert spliced_data(layout, read, layout.replace(
            "\n    title: ", "\n    title: Rain. ", 1)) is None


def test_a_splice_of_a_splice_still_reads_as_the_whole_text() -> None:
    text = HOLLIS.read_text(encoding="utf-8")
    first = load_text(text).document
    assert first is not None and first.fast_path
    for number in range(3, 40, 6):
        at = _entry_lines(text)[0][number]
        edited = text[:at + 4] + f"note: edit {number}\n    " + text[at + 4:]
        document = load_text(edited, previous=first).document
        assert document is not None and document.fast_path
        assert _typed(document.data) == _typed(fast.fast_data(edited)[1])
        assert document.data["entries"][0] is first.data["entries"][0]  # reused, not parsed
        first, text = document, edited


def test_only_a_document_the_fast_path_built_is_spliced() -> None:
    plain = HOLLIS.read_text(encoding="utf-8")
    tabbed = plain + "# a comment\twith a tab, which only the libyaml path reads\n"
    for text in (tabbed, plain):
        previous = load_text(text).document
        assert previous is not None
        edited = text.replace("\n    title: ", "\n    title: Rain. ", 1)
        document = load_text(edited, previous=previous).document
        assert document is not None
        assert _typed(document.data) == _typed(load_text(edited).document.data)
        reused = document.data["entries"][-1] is previous.data["entries"][-1]
        assert reused == previous.fast_path == (text is plain)


_SNIPPETS = st.sampled_from([
    "\n", "\n  - ", "\n    ", "  ", " ", "-", ":", ": ", "#", " #", "'", '"', "|", ">",
    "[", "]", "{", "}", ",", "&", "*", "!", "?", "%", "@", "`", "\t", "0", "1", "_", "a",
    "entry: 5", "text: x", "\nendings:", "\n  -\n", "é", "\\",
])


@SETTINGS
@given(st.sampled_from(BOOKS), st.integers(0, 10**9), st.integers(0, 12),
       st.lists(_SNIPPETS, max_size=6))
def test_generated_edits_agree_or_are_declined(path: Path, where: int, cut: int,
                                               pieces: list[str]) -> None:
    text = path.read_text(encoding="utf-8")
    starts = _entry_lines(text)[0]
    index = starts[where % len(starts)] + (where // len(starts)) % 200
    index = min(index, len(text))
    _agrees(text, text[:index] + "".join(pieces) + text[index + cut:])


def test_a_splice_tells_which_keys_of_the_entries_changed() -> None:
    text = HOLLIS.read_text(encoding="utf-8")
    data = fast.fast_data(text)[1]

    def changed(edited: str) -> frozenset[str] | None:
        spliced = spliced_data(text, data, edited)
        assert spliced is not None
        return spliced.edit.changed_keys

    assert changed(text.replace("      Somewhere beneath", "      Far beneath", 1)) == {"text"}
    assert changed(text.replace("    title: The Bell", "    title: A Bell", 1)) == {"title"}
    assert changed(text.replace("            - goto: 11\n", "            - goto: 12\n", 1)) == {
        "effects"}
    assert changed(text.replace("\n  - entry: 2\n", "\n  - entry: 2.0\n", 1)) == {"entry"}
    assert changed(text.replace("count: 1, shard", "count: true, shard", 1)) == {"effects"}
    assert changed(text.replace("\n    kind: event\n    title: The Bell",
                                "\n    title: The Bell", 1)) == {"kind"}
    new_entry = "  - entry: 998\n    kind: event\n    title: Lost\n    text: x\n"
    assert changed(text.replace("\n  - entry: 2\n", "\n" + new_entry + "  - entry: 2\n", 1)) is None


def test_an_edit_moves_the_lines_after_it_and_only_those() -> None:
    text = HOLLIS.read_text(encoding="utf-8")
    data = fast.fast_data(text)[1]
    edited = text.replace("      the soles of your feet", "      the soles\n      of your feet", 1)
    spliced = spliced_data(text, data, edited)
    assert spliced is not None
    edit = spliced.edit
    entry_one = text.splitlines().index("  - entry: 1") + 1
    entry_two = text.splitlines().index("  - entry: 2") + 1
    assert (edit.first_line, edit.old_end, edit.new_end) == (entry_one, entry_two, entry_two + 1)
    assert edit.moved(entry_one - 1) == entry_one - 1
    assert edit.moved(entry_one) is None and edit.moved(entry_two - 1) is None
    assert edit.moved(entry_two) == entry_two + 1
    _tells_the_edit(text, edited, edit)


@pytest.mark.parametrize("layout", ["  - ending: A\n    title: A\n", "- ending: A\n  title: A\n"])
def test_a_top_level_key_keeps_the_sequence_items_at_the_margin_below_it(layout: str) -> None:
    text = f"kind: storybook\nendings:\n{layout}- ending: B\n  start: 2\n# a note\ntitle: T\n"
    if layout.startswith("  "):
        text = text.replace("- ending: B\n  start: 2", "  - ending: B\n    start: 2")
    block = top_level_block(text, "endings")
    assert block is not None
    start, end = block
    assert text[start:end].startswith("endings:\n") and "ending: B" in text[start:end]
    assert text[end:] == "title: T\n"

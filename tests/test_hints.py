"""'Did you mean' hints that know the story: entry numbers by block and nearness, ids by title."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.diagnostics.hints import closest_entry, closest_id, entry_hint, id_hint
from tests.test_one_mistake import Workspace, _key

BOOK = "wanderers/hollis-brandt/storybook.yaml"
ENTRIES = {1, 2, 11, 12, 100, 101, 160, 161, 162, 166, 167, 168, 172, 173, 330, 331, 433}


def test_a_neighbour_in_the_same_block_beats_shared_digits() -> None:
    # 433 shares two digits with 332, but 331 is the entry next door, in the same ending.
    assert closest_entry(332, ENTRIES, block={330, 331}) == 331
    assert entry_hint(332, ENTRIES, {330, 331}) == "did you mean entry 331?"


def test_a_digit_slip_prefers_the_nearest_number() -> None:
    # 11 is one deleted digit away from 171 and from 101, but 172 and 100 are nearer.
    assert closest_entry(171, ENTRIES) == 172
    assert closest_entry(102, ENTRIES) == 101
    assert closest_entry(102, ENTRIES, block={100, 101}) == 101


def test_swapped_digits_count_as_one_slip() -> None:
    assert closest_entry(313, {331, 500}) == 331


def test_nothing_close_means_no_hint() -> None:
    assert closest_entry(999, ENTRIES) is None
    assert entry_hint("x", ENTRIES) is None
    # A block neighbour too far away is no better a guess than any other entry.
    assert closest_entry(250, {100, 300}, block={100}) is None


def test_ids_are_matched_by_title_too() -> None:
    titles = {"the-sluice-key": "The Sluice Key", "marens-shawl": "Maren's Shawl",
              "hallam-valve-house": "The Valve House", "ledger": "The Evacuation Ledger"}
    # The id was shortened from the title; the author wrote the title's words.
    assert closest_id("evacuation-ledger", titles, titles) == "ledger"
    assert closest_id("the-valve-house", titles, titles) == "hallam-valve-house"
    assert closest_id("Maren's Shawl", titles, titles) == "marens-shawl"
    assert closest_id("sluice-key", titles, titles) == "the-sluice-key"
    assert id_hint("the-sluice-kye", titles, titles) == "did you mean 'the-sluice-key'?"
    assert id_hint("nothing-like-it", titles, titles) is None


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    import os

    root = tmp_path_factory.mktemp("hints")
    here = os.getcwd()
    os.chdir(root)
    try:
        yield Workspace(root)
    finally:
        os.chdir(here)


@pytest.mark.parametrize(("old", "new", "meant"), [
    ("- goto: 331\n", "- goto: 332\n", 331),  # the issue: it suggested 433, ending D's
    ("- goto: 102\n", "- goto: 103\n", 102),
    ("- goto: 101\n", "- goto: 105\n", 101),
])
def test_the_sample_storybook_hints_the_neighbour(workspace, old: str, new: str, meant: int) -> None:  # type: ignore[no-untyped-def]
    original = (workspace.root / "content" / BOOK).read_text(encoding="utf-8")
    try:
        workspace.edit(BOOK, original.replace(old, new, 1))
        found = [d for d in workspace.check() if _key(d) not in workspace.baseline]
    finally:
        workspace.edit(BOOK, original)
    [broken] = [d for d in found if d.code == "DM301"]
    assert broken.hint == f"did you mean entry {meant}?", broken.message


def test_a_misspelt_card_is_one_diagnostic_with_its_hint(workspace) -> None:  # type: ignore[no-untyped-def]
    original = (workspace.root / "content" / BOOK).read_text(encoding="utf-8")
    old = "{card: the-evacuation-ledger,"
    try:
        workspace.edit(BOOK, original.replace(old, "{card: evacuation-ledger,", 1))
        found = [d for d in workspace.check() if _key(d) not in workspace.baseline]
    finally:
        workspace.edit(BOOK, original)
    assert [(d.code, d.hint) for d in found] == [
        ("DM202", "did you mean 'the-evacuation-ledger'?")]
    assert Path(found[0].location.path).name == "storybook.yaml"

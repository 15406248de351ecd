"""The outline and the entries' extents of an edited book, made from the last version's
(extents.py, outline.py), are what they would be made afresh from the text.

Edits are loaded as the language server loads them (load_text with the document the
file gave before, so an edit inside the entries is spliced), in chains, and after each
one the index-made extents are checked against the position index's (another way of
finding them) and the outline against one written from a fresh load of the same text.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.protocol import default_converter

from dmtool.loading import SourceDocument, fast, load_text
from dmtool.lsp.extents import _located, entry_extents, entry_lines
from dmtool.lsp.outline import folding_ranges, outline
from dmtool.lsp.targets import Book
from tests.storybook_edits import edit, entry_starts

ROOT = Path(__file__).resolve().parents[1]
HOLLIS = ROOT / "content" / "wanderers" / "hollis-brandt" / "storybook.yaml"
SETTINGS = settings(max_examples=int(os.environ.get("DMTOOL_HYPOTHESIS_EXAMPLES", "300")) // 6,
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])

pytestmark = pytest.mark.skipif(not fast.ENABLED, reason="yaml-rs is not installed")


EDITS = ["title", "comment line", "blank lines after", "deleted", "copied", "kind", "emoji",
         "ending title"]


def _symbols(text: str) -> list[types.DocumentSymbol]:
    return default_converter().structure(json.loads(text), list[types.DocumentSymbol])


def _fresh_outline(document: SourceDocument, scratch: Path) -> Any:
    """The outline of the same text loaded afresh, under a path of its own (so it shares
    nothing the edited one kept)."""
    loaded = load_text(document.text, path=scratch, display=document.display)
    assert loaded.document is not None
    return json.loads(outline(loaded.document))


def _check(document: SourceDocument, scratch: Path) -> None:
    book = Book(document, ())
    assert entry_extents(document, book) == _located(document, book)
    assert json.loads(outline(document)) == _fresh_outline(document, scratch)
    extents = _located(document, book).values()
    assert [(f.start_line, f.end_line) for f in folding_ranges(document)] == [
        (e.first, e.last) for e in extents if e.last > e.first]


def _chain(edits: list[tuple[str, float]], scratch: Path) -> int:
    """Loads each edit after the last as the server does and checks it; returns how many
    were spliced with the last version's index kept in part."""
    loaded = load_text(HOLLIS.read_text(encoding="utf-8"), path=HOLLIS, display="storybook.yaml")
    document = loaded.document
    assert document is not None
    _check(document, scratch)
    kept = 0
    for kind, where in edits:
        loaded = load_text(edit(document.text, kind, where), path=HOLLIS,
                           display="storybook.yaml", previous=document)
        assert loaded.document is not None, (kind, loaded.diagnostics)
        document = loaded.document
        lines = entry_lines(document)
        assert lines is not None
        kept += lines.base is not None
        _check(document, scratch)
    return kept


def test_every_edit_kind_in_a_row_agrees_with_a_fresh_outline(tmp_path):
    edits = [(kind, where) for where in (0.0, 0.5, 0.999) for kind in EDITS]
    kept = _chain(edits, tmp_path / "fresh.yaml")
    # All but the ending's title (and the edit after it) were spliced: the index was
    # made from the last one, which is what this test is about.
    assert kept >= len(edits) - 2 * 3


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(EDITS), st.floats(0, 1)), min_size=1, max_size=6))
def test_random_chains_of_edits_agree_with_a_fresh_outline(tmp_path_factory, edits):
    _chain(edits, tmp_path_factory.mktemp("outline") / "fresh.yaml")


def test_the_outline_is_a_list_of_document_symbols_covering_their_entries():
    loaded = load_text(HOLLIS.read_text(encoding="utf-8"), path=HOLLIS, display="storybook.yaml")
    assert loaded.document is not None
    symbols = _symbols(outline(loaded.document))
    names = [s.name for s in symbols]
    assert names[:3] == ["Round events", "Encounters", "Reality shards"]
    # Without the corpus, the finale entries reached only from shards have no ending.
    assert names[3:] == ["Ending A", "Ending B", "Ending C", "Ending D", "Finale (no ending reaches it)"]
    text = loaded.document.text.split("\n")
    entries = [child for group in symbols for child in group.children or []]
    assert len(entries) == 153
    # An entry's kind is said beside its name where its group does not say it already.
    assert all(child.detail is None for group in symbols[:3] for child in group.children or [])
    assert {child.detail for group in symbols[3:] for child in group.children or []} <= {
        "finale", "conclusion"}
    for child in entries:
        assert text[child.range.start.line].startswith("  - entry: ")
        assert child.name.startswith(text[child.range.start.line][len("  - entry: "):])
        assert text[child.selection_range.start.line][4:9] == "entry"


def test_an_entry_whose_last_line_holds_an_emoji_ends_where_utf16_counts():
    text = HOLLIS.read_text(encoding="utf-8")
    at = random.Random(3).choice(entry_starts(text)[1:-2])  # an entry's first line
    text = text[:at] + '    aside: "\U0001f56f"\n' + text[at:]  # the last line of the entry before
    loaded = load_text(text, path=HOLLIS, display="storybook.yaml")
    assert loaded.document is not None
    entries = [c for group in _symbols(outline(loaded.document)) for c in group.children or []]
    line = text[:at].count("\n")
    ending = next(c for c in entries if c.range.end.line == line)
    assert ending.range.end.character == len('    aside: "\U0001f56f"') + 1  # the candle is two units

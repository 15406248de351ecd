"""The references of an edited storybook, kept from the last version where the edit left
its entries and walked for in the entries it parsed again (facts.facts_after_edit), are
the references a walk of the whole edited book finds, in the same order.

Edits are checked as a long-lived session checks them (check_text with the document the
file gave before, so an edit inside the entries is spliced), in chains, on the sample
storybook and on a generated one whose every entry links on.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.corpus import story_entries
from dmtool.loading import SourceDocument, fast
from dmtool.validation import facts
from dmtool.validation.facts import facts_of, walker_for
from dmtool.validation.filecheck import check_text
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from tests.storybook_edits import edit

ROOT = Path(__file__).resolve().parents[1]
HOLLIS = ROOT / "content" / "wanderers" / "hollis-brandt" / "storybook.yaml"
SCHEMAS = SchemaSet(default_schema_dir())
WALKER = walker_for(SCHEMAS)
SETTINGS = settings(max_examples=int(os.environ.get("DMTOOL_HYPOTHESIS_EXAMPLES", "300")) // 10,
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])

pytestmark = pytest.mark.skipif(not fast.ENABLED, reason="yaml-rs is not installed")


def _generated() -> str:
    """The sample book with a generated story of 120 entries after its own (tests, choices
    and gotos in every entry: edits of them change references)."""
    text = HOLLIS.read_text(encoding="utf-8")
    at = text.index("\nendings:") + 1
    return text[:at] + story_entries(count=120, seed=7) + text[at:]


BOOKS = {"sample": HOLLIS.read_text(encoding="utf-8"), "generated": _generated()}


EDITS = ["goto", "goto added", "coda awarded", "title", "deleted", "copied"]


def _references(document: SourceDocument) -> list[tuple[object, ...]]:
    found = facts_of(document, WALKER)
    assert found is not None
    return [(r.path, r.kinds, r.value) for r in found.references]


def _walked(document: SourceDocument) -> list[tuple[object, ...]]:
    return [(r.path, r.kinds, r.value) for r in WALKER.references("storybook", document.data)]


def _chain(text: str, edits: list[tuple[str, float]]) -> int:
    """Checks each edit after the last; returns how many kept references from before."""
    result = check_text(text, HOLLIS, "storybook.yaml", SCHEMAS)
    document = result.document
    assert document is not None
    kept = 0
    for kind, where in edits:
        result = check_text(edit(document.text, kind, where), HOLLIS, "storybook.yaml", SCHEMAS,
                            previous=document)
        assert result.document is not None, (kind, result.diagnostics)
        document = result.document
        walked = _walked(document)
        assert _references(document) == walked, (kind, where)  # as the check remembered them
        after = facts.facts_after_edit(document, WALKER)
        if after is not None:
            kept += 1
            assert [(r.path, r.kinds, r.value) for r in after.references] == walked, (kind, where)
    return kept


@pytest.mark.parametrize("book", BOOKS)
def test_every_edit_kind_in_a_row_keeps_the_references_a_whole_walk_finds(book):
    edits = [(kind, where) for where in (0.0, 0.4, 0.999) for kind in EDITS]
    kept = _chain(BOOKS[book], edits)
    assert kept >= len(edits) - 3  # the references were kept, not walked for again, mostly


@SETTINGS
@given(st.sampled_from(list(BOOKS)),
       st.lists(st.tuples(st.sampled_from(EDITS), st.floats(0, 1)), min_size=1, max_size=5))
def test_random_chains_of_edits_keep_the_references_a_whole_walk_finds(book, edits):
    _chain(BOOKS[book], edits)

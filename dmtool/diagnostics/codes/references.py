"""Diagnostic codes of the reference stage (DM20x): ids and links across the corpus."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM201", "duplicate-id", "Duplicate id", E,
             "Two documents of the same kind share an id; references to it would be ambiguous.",
             "kind: coda\nid: the-voice-below   # also used by another coda file\n"),
    CodeInfo("DM202", "unresolved-reference", "Reference to something that does not exist", E,
             "A field names a card, entry, wanderer, storybook, abomination, family, chapter "
             "or room that the corpus does not contain.",
             "effects:\n  - gain_coda: the-voice-belwo\n"),
    CodeInfo("DM203", "duplicate-entry-number", "Duplicate entry number", E,
             "Two entries of one storybook share a number.", "- entry: 12\n- entry: 12\n"),
)

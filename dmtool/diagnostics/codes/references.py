"""Diagnostic codes of the reference stage (DM20x): ids and links across the corpus."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM201", "duplicate-id", "Duplicate id", E,
             "Two documents of the same kind share an id; references to it would be ambiguous.",
             'id: twice\nicons: [blue]\n',
             fixed='id: the-second-of-two\nicons: [blue]\n'),
    CodeInfo("DM202", "unresolved-reference", "Reference to something that does not exist", E,
             "A field names a card, entry, wanderer, storybook, abomination, family, chapter "
             "or room that the corpus does not contain.",
             '  - gain_coda: a-coda-nobody-wrote\n',
             fixed='  - lose_health: 1\n'),
    CodeInfo("DM203", "duplicate-entry-number", "Duplicate entry number", E,
             "Two entries of one storybook share a number.", '  - entry: 2\n    kind: conclusion\n    title: Evening\n',
                                                             fixed='  - entry: 3\n    kind: conclusion\n    title: Evening\n'),
)

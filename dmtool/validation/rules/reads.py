"""A rule's findings remembered with what the rule read, for a session asked again.

A rule learns of the content only through the corpus it is given: while it runs, the
corpus records every read (Corpus.recording: the whole corpus, one kind's documents, the
ids defined, the files asked about, the schemas). Its findings are a function of what
those reads saw, so after an edit they are reused while every read sees the same value
in the new corpus (Corpus.value_of: each document as its path, content key, standing and
what was read as meant), and the rule runs again as soon as one differs. Nothing is
declared by hand, so no declaration can fall behind a rule; a read the corpus cannot
record (a rule keeping documents between runs, or reaching around the corpus) is what
tests/test_rule_reads.py looks for: every rule, run over a corpus holding only what it
recorded, must find what it finds over the whole.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.validation.corpus import Corpus, Read


@dataclass(frozen=True, slots=True)
class RuleRun:
    """One run of a rule: what each of its reads saw, and what it found."""

    seen: dict[Read, Any]
    findings: list[Diagnostic]

    def holds_in(self, corpus: Corpus) -> bool:
        """Whether every read of the run sees the same in `corpus` (the findings hold)."""
        return all(corpus.value_of(read) == value for read, value in self.seen.items())


def run_recorded(rule: Any, corpus: Corpus) -> RuleRun:
    """Run `rule` over `corpus`, recording what it reads."""
    with corpus.recording() as reads:
        found: Iterable[Diagnostic] = rule(corpus)
        findings = list(found)  # a generator reads as it goes: drained while recording
    return RuleRun({read: corpus.value_of(read) for read in reads}, findings)

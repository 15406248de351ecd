"""The story graph analyses (DM3xx) as a `dmtool check` rule, one storybook at a time."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator

from dmtool.diagnostics import Diagnostic
from dmtool.validation.corpus import Corpus

# Findings about a wanderer's cards rather than one storybook: a card nothing spawns or a
# coda nothing awards is an orphan only if no storybook of that wanderer uses it.
CARD_CODES = frozenset({"DM308", "DM309"})


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    storybooks = corpus.of_kind("storybook")
    if not storybooks:
        return  # nothing to analyse: keep `dmtool check` of other content free of graph imports
    from dmtool.model.storybook import Storybook
    from dmtool.storygraph.analysis import analyse
    from dmtool.storygraph.context import context_for

    by_wanderer: dict[str, int] = Counter()
    card_findings: dict[str, Counter[tuple[str, str, int, int]]] = defaultdict(Counter)
    first_seen: dict[tuple[str, str, int, int], Diagnostic] = {}
    for document in storybooks:
        storybook = Storybook.from_document(document)
        by_wanderer[storybook.wanderer] += 1
        for diagnostic in analyse(storybook, context_for(corpus, storybook.wanderer)).diagnostics:
            if diagnostic.code not in CARD_CODES:
                yield diagnostic
                continue
            loc = diagnostic.location
            key = (diagnostic.code, loc.path, loc.line, loc.column)
            card_findings[storybook.wanderer][key] += 1
            first_seen.setdefault(key, diagnostic)
    for wanderer, found in card_findings.items():
        for key, count in found.items():
            if count == by_wanderer[wanderer]:
                yield first_seen[key]

"""The story graph analyses (DM3xx) as a `dmtool check` rule, one storybook at a time."""

from __future__ import annotations

from collections.abc import Iterator

from dmtool.diagnostics import Diagnostic
from dmtool.validation.corpus import Corpus


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    storybooks = corpus.of_kind("storybook")
    if not storybooks:
        return  # nothing to analyse: keep `dmtool check` of other content free of graph imports
    from dmtool.model.storybook import Storybook
    from dmtool.storygraph.analysis import analyse
    from dmtool.storygraph.context import context_for

    for document in storybooks:
        storybook = Storybook.from_document(document)
        yield from analyse(storybook, context_for(corpus, storybook.wanderer)).diagnostics

"""Storybooks as `dmtool check` sees them, for `graph` and `odds`: one run of the check's own
pipeline (same rules, cache and configuration) over the paths named, the storybooks among
them, and their analyses over the corpus that run built."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dmtool.errors import UsageError
from dmtool.loading import SourceDocument
from dmtool.storygraph.rule import analysis_of, keeping_analyses
from dmtool.validation.cache import default_directory
from dmtool.validation.pipeline import CheckOptions, CheckResult, check_and_load

if TYPE_CHECKING:
    from dmtool.storygraph.analysis import Analysis
    from dmtool.validation.corpus import Corpus


@dataclass
class CheckedStorybooks:
    """The check of the named paths, and the storybook files among them (display paths)."""

    result: CheckResult
    storybooks: list[str] = field(default_factory=list)
    # The analyses the check's story graph rule made, by storybook (keeping_analyses).
    kept: dict[SourceDocument, tuple[Corpus, Analysis]] = field(default_factory=dict)

    def analyses(self) -> list[Analysis]:
        """Each named storybook that passed its schema, analysed in its content tree: the
        analyses the check's story graph rule made in this run, made now only if the rule
        answered from its memo (or the whole report was replayed)."""
        corpus = self.result.full_corpus()
        found = []
        for document in corpus.of_kind("storybook"):
            if document.display in self.storybooks:
                analysis = analysis_of(corpus, document, self.kept)
                if analysis is not None:
                    found.append(analysis)
        return found


def check_storybooks(paths: Sequence[Path], check: CheckOptions | None = None) -> CheckedStorybooks:
    """Run the check on `paths` (with the configuration's options when given, otherwise the
    defaults and the check cache) and find the storybooks among the files named.

    A path that holds no storybook and no problem is a usage error (exit code 2)."""
    options = check or CheckOptions(paths=tuple(paths), cache_dir=default_directory())
    with keeping_analyses() as kept:  # the analyses the check makes are the ones shown
        result = check_and_load(options)
    storybooks = sorted(
        state.display
        for state in (result.session.files.values() if result.session is not None else ())
        if state.display in result.checked and _is_storybook(state.result.document)
    )
    if not storybooks and not result.report.diagnostics:
        shown = ", ".join(p.as_posix() for p in paths)
        raise UsageError(
            f"no storybook found in {shown}; give a storybook.yaml file or a folder holding one"
        )
    return CheckedStorybooks(result, storybooks, kept)


def _is_storybook(document: SourceDocument | None) -> bool:
    return document is not None and document.kind == "storybook"

"""Loading the storybooks a graph command names, with the content tree around them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dmtool.diagnostics import Diagnostic, Severity
from dmtool.loading import SourceDocument, discover
from dmtool.loading.discovery import content_roots
from dmtool.validation.corpus import Corpus


def load_storybooks(paths: Sequence[Path]) -> tuple[Corpus, list[SourceDocument], list[Diagnostic]]:
    """(corpus of schema-valid documents, the storybooks among `paths`, their load problems).

    Only documents that pass their schema enter the corpus, so the analyses can trust their
    shape; a named storybook that fails reports why, as `dmtool check` would.
    """
    from dmtool.validation.pipeline import check_file, display_path
    from dmtool.validation.schemas import SchemaSet, default_schema_dir

    schemas = SchemaSet(default_schema_dir())
    named, problems = discover(list(paths))
    around, _ = discover(content_roots(list(paths)))
    named_set = set(named)
    corpus = Corpus(schemas=schemas)
    storybooks: list[SourceDocument] = []
    for path in sorted(named_set | set(around), key=display_path):
        # The same per-file step as `dmtool check`: load, pick the schema, validate.
        diagnostics, document = check_file(path, display_path(path), schemas, None)
        errors = [d for d in diagnostics if d.severity is Severity.ERROR]
        if path in named_set:
            problems += errors
        if document is None or errors:
            continue
        corpus.add(document)
        if path in named_set and document.data.get("kind") == "storybook":
            storybooks.append(document)
    # Read as meant (a misspelt reference names the id it resembles), as `dmtool check` does.
    corpus.settle()
    storybooks = [d for d in corpus.documents if d.path in named_set and d.kind == "storybook"]
    return corpus, storybooks, problems

"""Loading the storybooks a graph command names, with the content tree around them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.loading import SourceDocument, discover, read_document
from dmtool.loading.discovery import content_roots
from dmtool.validation.corpus import Corpus

def load_storybooks(paths: Sequence[Path]) -> tuple[Corpus, list[SourceDocument], list[Diagnostic]]:
    """(corpus of schema-valid documents, the storybooks among `paths`, their load problems).

    Only documents that pass their schema enter the corpus, so the analyses can trust their
    shape; a named storybook that fails reports why, as `dmtool check` would.
    """
    from dmtool.validation.pipeline import display_path
    from dmtool.validation.schema_errors import schema_diagnostics
    from dmtool.validation.schemas import SchemaSet, default_schema_dir

    schemas = SchemaSet(default_schema_dir())
    named, problems = discover(list(paths))
    around, _ = discover(content_roots(list(paths)))
    named_set = set(named)
    corpus = Corpus(schemas=schemas)
    storybooks: list[SourceDocument] = []
    for path in sorted(named_set | set(around), key=display_path):
        result = read_document(path, display_path(path))
        document = result.document
        data: Any = document.data if document is not None else None
        is_named_storybook = (
            path in named_set and isinstance(data, dict) and data.get("kind") == "storybook"
        )
        if document is None or not isinstance(data, dict) or data.get("kind") not in schemas.kinds:
            if path in named_set and result.diagnostics:
                problems += result.diagnostics
            continue
        errors = schemas.errors(data["kind"], data)
        if errors:
            if is_named_storybook:
                problems += schema_diagnostics(document, errors)
            continue
        corpus.add(document)
        if is_named_storybook:
            storybooks.append(document)
    return corpus, storybooks, problems

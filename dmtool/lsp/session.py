"""The live check behind the language server and `check --watch`: the pipeline's own session.

This module is the one place the live tools meet the check: `CheckSession` (in
dmtool.validation.session) is the in-process core that `dmtool check` itself runs
through, re-checking one file at a time and re-running the corpus rules on what changed.
The two helpers name what the live tools read from it.
"""

from __future__ import annotations

from dmtool.commands.rules import register_rules
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.session import CheckSession, FileState, display_path

__all__ = ["CheckSession", "FileState", "corpus_of", "display_path", "document_of"]

# The live tools' sessions run the same rules as `dmtool check` (the story graph and the
# scenario fixture rules live above validation and are registered with it).
register_rules()


def document_of(state: FileState) -> SourceDocument | None:
    """The file's document when the file parsed (valid or not); None when it did not.

    A document pieced together from a file that does not parse is good for the check's
    findings but not for navigation, which keeps the last document that did parse.
    """
    return state.result.document if state.result.loaded else None


def corpus_of(session: CheckSession) -> Corpus:
    """The corpus the last rules run saw (built now if there was none)."""
    return session.corpus if session.corpus is not None else session.build_corpus()

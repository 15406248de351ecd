"""The live check behind the language server and `check --watch`: one file re-checked at a time.

This module is the one place the live tools meet the check pipeline. It shapes the
pipeline's per-file step and its corpus rules as an in-process session (the API of the
incremental `CheckSession` that the check cache is growing), so the server and watch
mode never hold a checker of their own. When that session lands in
dmtool.validation.session, this module becomes a re-export of it.

    session = CheckSession()
    session.load([Path("content")])        # every file of the tree, from disk
    session.update(path, unsaved_text)     # an editor's buffer, not saved
    session.read(path)                     # back to what the disk holds
    session.remove(path)                   # the file is gone
    by_file = session.diagnostics()        # {display path: [Diagnostic, ...]}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dmtool.diagnostics import Diagnostic, Report, Severity
from dmtool.loading import SourceDocument, discover, load_text
from dmtool.loading.discovery import content_roots
from dmtool.loading.reading import MAX_BYTES, read_text
from dmtool.validation.corpus import Corpus
from dmtool.validation.pipeline import _check_modeline, _kind, display_path
from dmtool.validation.rules import rule_checks
from dmtool.validation.schema_errors import schema_diagnostics
from dmtool.validation.schemas import SchemaSet, default_schema_dir


@dataclass
class FileState:
    """One file as checked on its own: its findings and, when it loaded, its document."""

    path: Path
    display: str
    own: list[Diagnostic]
    document: SourceDocument | None

    @property
    def valid(self) -> bool:
        """Whether the document joins the corpus (loaded, known kind, no error of its own)."""
        return self.document is not None and not any(
            d.severity is Severity.ERROR for d in self.own)


@dataclass
class CheckSession:
    """The files of a content tree, checked one by one, and the corpus rules over them all."""

    schemas: SchemaSet = field(default_factory=lambda: SchemaSet(default_schema_dir()))
    max_file_size: int | None = None
    files: dict[Path, FileState] = field(default_factory=dict)
    # Findings that belong to no file of the tree (a path that does not exist).
    problems: list[Diagnostic] = field(default_factory=list)
    _corpus: Corpus | None = None

    def load(self, paths: Iterable[Path], *, whole_corpus: bool = True) -> list[Path]:
        """Check every YAML file under `paths` (and the content tree around them) from disk."""
        named, problems = discover(list(paths))
        self.problems = problems
        around: list[Path] = []
        if whole_corpus:
            around, _ = discover(content_roots(list(paths)))
        for path in {*named, *around}:
            self.read(path)
        return named

    def read(self, path: Path) -> None:
        """(Re)check one file as the disk holds it."""
        name = display_path(path)
        text, problems = read_text(path, name, max_bytes=self.max_file_size or MAX_BYTES)
        if text is None:
            self._put(FileState(path, name, problems, None))
            return
        self.update(path, text)

    def update(self, path: Path, text: str) -> None:
        """Check `path` as if it held `text`; nothing is read from disk."""
        name = display_path(path)
        loaded = load_text(text, path=path, display=name)
        document = loaded.document
        own = list(loaded.diagnostics)
        if document is not None:
            kind = _kind(document, self.schemas, own)
            if kind is None:
                document = None
            else:
                _check_modeline(document, kind, own)
                own.extend(schema_diagnostics(document, self.schemas.errors(kind, document.data)))
        self._put(FileState(path, name, own, document))

    def remove(self, path: Path) -> None:
        """Forget a file (deleted, or no longer part of the tree)."""
        if self.files.pop(path, None) is not None:
            self._corpus = None

    def document(self, path: Path) -> SourceDocument | None:
        """The file's loaded document, when it has one (whether or not it is valid)."""
        state = self.files.get(path)
        return None if state is None else state.document

    @property
    def corpus(self) -> Corpus:
        """The documents without errors of their own, in display-path order."""
        if self._corpus is None:
            corpus = Corpus(schemas=self.schemas)
            for state in sorted(self.files.values(), key=lambda s: s.display):
                if state.valid:
                    assert state.document is not None
                    corpus.add(state.document)
            self._corpus = corpus
        return self._corpus

    def report(self, *, select: frozenset[str] = frozenset(),
               ignore: frozenset[str] = frozenset()) -> Report:
        """Every file's findings, its own and the corpus rules', as one Report."""
        report = Report(select=select, ignore=ignore)
        report.extend(self.problems)
        for state in self.files.values():
            report.extend(state.own)
        corpus = self.corpus
        for _name, rule in rule_checks():
            for diagnostic in rule(corpus):
                report.add(diagnostic)
        report.files_checked = len(self.files)
        return report

    def diagnostics(self) -> dict[str, list[Diagnostic]]:
        """Findings by display path, sorted; every file of the session is a key (clean: [])."""
        by_file: dict[str, list[Diagnostic]] = {s.display: [] for s in self.files.values()}
        for diagnostic in self.report().sorted():
            by_file.setdefault(diagnostic.location.path, []).append(diagnostic)
        return by_file

    def _put(self, state: FileState) -> None:
        self.files[state.path] = state
        self._corpus = None

"""CheckSession: an in-process, incremental `dmtool check` for watch mode and the language server.

A session holds every file of a content tree as checked on its own (loading, kind,
schema, modeline) and runs the cross-file rules over the documents on demand. Updating a
file re-checks that file alone; unchanged documents keep their memos (see
SourceDocument.memo) and their extracted facts, and the corpus is rebuilt from the last
one. A rule runs again only if something it read through the corpus last time reads
differently now (rules/reads.py); the others' findings are reused as they were. So an
edit redoes the changed file's own extraction and analysis, and the joins across files
that read it. Nothing is read from disk that did not change. Suppressions and the
configuration's ignores are applied to the findings afresh on every report. `dmtool
check` itself runs through a session, filled from the on-disk cache instead of from the
editor.

    session = CheckSession()
    session.load([Path("content")])          # read the tree once
    session.update(path, unsaved_text)       # an editor change, not saved yet
    session.remove(path)                     # a deleted file
    by_file = session.diagnostics()          # {display path: [Diagnostic, ...]}
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dmtool.diagnostics import Diagnostic, Report
from dmtool.loading import SourceDocument, discover
from dmtool.loading.collector import collector_paused
from dmtool.loading.discovery import content_roots
from dmtool.loading.reading import MAX_BYTES, decode, read_bytes
from dmtool.validation.corpus import Corpus
from dmtool.validation.facts import DocumentFacts, facts_of, walker_for
from dmtool.validation.filecheck import FileResult, check_decoded, check_text
from dmtool.validation.filekeys import digest
from dmtool.validation.parallel import start_ahead
from dmtool.validation.rules import (
    RuleCheck,
    rule_checks,
    rule_report_kinds,
    rule_tasks,
    rules_with_tasks,
)
from dmtool.validation.rules.reads import RuleRun, run_recorded
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.validation.suppressions import IgnoreSettings, apply, comments_of, from_config

# Rule findings still reported inside a document that failed its schema or did not parse.
OWN_CODES = frozenset({"DM202"})
# Results of texts an edited file held a moment ago, kept for an edit that comes back to
# one of them (an undo); only for texts up to this many characters (a large book's data
# is large).
RECENT_RESULTS = 8
RECENT_TEXT_LIMIT = 2 * 1024 * 1024


class AnalysisStopped(Exception):
    """Raised by a session's analysis when `stop` says its texts are stale (the language
    server: the author typed on), so the rest of its rules do not run at all."""


def display_path(path: Path) -> str:
    """Paths as the user reads them: relative to the working directory when inside it."""
    cwd = os.getcwd()
    absolute = os.path.normpath(os.path.join(cwd, path))  # abspath, without a second getcwd
    if absolute == cwd:
        return "."
    if absolute.startswith(cwd + os.sep):
        # hot path (every file of every run): what relpath gives for a normalised path
        # below cwd, without relpath's own abspath calls and a path object
        return absolute[len(cwd) + 1:].replace(os.sep, "/")
    return Path(absolute).as_posix()


def _needless_rules(corpus: Corpus) -> set[str]:
    """Rules none of whose findings could be reported in this run: the files asked about
    are of none of the kinds their findings are located in (see rule_report_kinds)."""
    checked = corpus.checked
    if checked is None:
        return set()
    kinds = {document.kind for document in (*corpus.documents, *corpus.partial)
             if document.display in checked}
    return {name for name, located_in in rule_report_kinds().items()
            if located_in.isdisjoint(kinds)}


@dataclass(slots=True)
class FileState:
    """One file of the session: its own findings and, when it loaded, its document."""

    path: Path
    display: str
    result: FileResult
    # DM016-DM018: they depend on other files, so None means "look again when asked".
    modeline: list[Diagnostic] | None = None

    @property
    def own(self) -> list[Diagnostic]:
        if self.modeline is None:
            self.modeline = self.result.modeline_diagnostics()
        return self.result.diagnostics + self.modeline


@dataclass(slots=True)
class CheckSession:
    """The files of a content tree, checked on their own, and the corpus rules over them."""

    schemas: SchemaSet = field(default_factory=lambda: SchemaSet(default_schema_dir()))
    max_file_size: int | None = None
    # The max-nesting setting (None: the loader's own limit alone).
    max_nesting: int | None = None
    files: dict[Path, FileState] = field(default_factory=dict)
    # Diagnostics that belong to no file (a path that does not exist, for instance).
    problems: list[Diagnostic] = field(default_factory=list)
    corpus: Corpus | None = None
    # Processes the rules' costly work may be spread over (the pipeline's --jobs).
    jobs: int = 1
    # Whether the session will be asked again (watch mode, the language server): then each
    # rule's run is recorded, to be reused after an edit. A one-shot check (the pipeline)
    # reports once, and recording would only cost it time and memory (P1, P3, P5).
    asked_again: bool = True
    # What it keeps for itself, below: made by `__init__` alone, and left out of its
    # equality and repr.
    # (display name, digest, length) of the text each edited file was last given by update.
    _buffers: dict[Path, tuple[str, str, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # Results of texts edited files held a moment ago, oldest first (see update).
    _recent: dict[tuple[Path, tuple[str, str, int]], FileResult] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # The corpus built last (kept when a change sets `corpus` to None: the next one is
    # built from it), and the facts of each file's document in it.
    _built: Corpus | None = field(default=None, init=False, repr=False, compare=False)
    _facts: dict[Path, tuple[SourceDocument, DocumentFacts | None]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # Each rule's last run: its findings, reused while nothing it read has changed.
    _runs: dict[str, RuleRun] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # Asked between the rules of an analysis: True stops it (AnalysisStopped).
    stop: Callable[[], bool] | None = field(default=None, init=False, repr=False,
                                            compare=False)

    # -- filling the session

    def load(self, paths: Iterable[Path], *, whole_corpus: bool = True) -> list[Path]:
        """Read and check every YAML file under `paths` (and, by default, the content tree
        around them) from disk; returns the files found under `paths` themselves."""
        named, problems = discover(list(paths))
        self.problems.extend(problems)
        around: list[Path] = []
        if whole_corpus:
            around, _ = discover(content_roots(list(paths)))
        with collector_paused():  # files build many containers and no cycles (collector.py)
            for path in {*named, *around}:
                self.read(path)
        return named

    def read(self, path: Path) -> None:
        """(Re)check one file from disk."""
        name = display_path(path)
        self.read_from(path, name, *read_bytes(path, name, self._limit()))

    def read_from(self, path: Path, name: str, raw: bytes | None,
                  problem: Diagnostic | None, content: str | None = None) -> None:
        """(Re)check one file from what read_bytes just gave for it (its bytes, or why
        not), and the digest of those bytes when the caller took it already."""
        if raw is None:
            assert problem is not None
            self.put(path, name, FileResult([problem], None))
            return
        if content is None:
            content = digest(raw)
        text, problems = decode(raw, name)
        del raw
        result = check_decoded(text, problems, path, name, self.schemas, self.max_file_size,
                               keep_text=True, previous=self._document_of(path),
                               max_nesting=self.max_nesting)
        if result.document is not None:
            result.document.content_key = content
        self.put(path, name, result)

    def update(self, path: Path, text: str) -> None:
        """Check `path` as if it held `text` (an editor's buffer); nothing is read from disk.

        A text the file was given a moment ago (an undo, an edit put back) is not checked
        again: its earlier result comes back with its memos, so the rules reuse what they
        derived from it (a result depends only on the text, the path and the schemas).
        """
        name = display_path(path)
        text_key = (name, digest(text.encode("utf-8", "surrogatepass")), len(text))
        current = self._buffers.get(path)
        if current == text_key and path in self.files:
            return  # the same text again: nothing changed
        result = self._recent.pop((path, text_key), None)
        if result is None:
            result = check_text(text, path, name, self.schemas, previous=self._document_of(path),
                                max_nesting=self.max_nesting)
            if result.document is not None:
                result.document.content_key = text_key[1]
        if current is not None and path in self.files and current[2] <= RECENT_TEXT_LIMIT:
            self._recent[(path, current)] = self.files[path].result
            while len(self._recent) > RECENT_RESULTS:
                del self._recent[next(iter(self._recent))]
        self.put(path, name, result)
        self._buffers[path] = text_key

    def remove(self, path: Path) -> None:
        """Forget a file (it was deleted or closed)."""
        self._buffers.pop(path, None)
        if self.files.pop(path, None) is not None:
            self.corpus = None

    def put(self, path: Path, name: str, result: FileResult,
            modeline: list[Diagnostic] | None = None) -> None:
        """Install a checked file (the pipeline uses this for files rebuilt from the cache)."""
        self._buffers.pop(path, None)
        self.files[path] = FileState(path, name, result, modeline)
        self.corpus = None

    def _document_of(self, path: Path) -> SourceDocument | None:
        """The document `path` gave last (its edit may be loaded from it: see load_text)."""
        state = self.files.get(path)
        return state.result.document if state is not None else None

    def _limit(self) -> int:
        return self.max_file_size or MAX_BYTES

    # -- asking

    def ordered(self) -> list[FileState]:
        """Files in display-path order (the order rules see documents in)."""
        return sorted(self.files.values(), key=lambda state: state.display)

    def build_corpus(self) -> Corpus:
        """The corpus of every document that could be read, in path order, read as meant.

        Documents with a mistake of their own enter as partial (see Corpus); `settle`
        then reads misspelt references as the ids they resemble. A document the corpus
        built last also held keeps its facts, and settle looks again only at what an
        edit may have changed (see Corpus.settle): a new corpus each time (a snapshot
        of the language server keeps the one it was made with), cheaply.
        """
        corpus = Corpus(schemas=self.schemas)
        walker = walker_for(self.schemas)
        previous = self._built if self._built is not None and self._built.schemas is self.schemas else None
        if previous is None:
            # Other schemas judge every file anew: nothing found under the old ones is kept.
            self._runs.clear()
        known = self._facts if previous is not None else {}
        facts_now: dict[Path, tuple[SourceDocument, DocumentFacts | None]] = {}
        for state in self.ordered():
            document = state.result.document
            if document is None:
                continue
            kept = known.get(state.path)
            if kept is not None and kept[0] is document:
                facts = kept[1]
            else:
                document.memos_used.clear()
                facts = facts_of(document, walker)
            facts_now[state.path] = (document, facts)
            if facts is not None:
                corpus.add(document, facts)
        corpus.settle(previous)
        self.corpus = self._built = corpus
        self._facts = facts_now
        return corpus

    def rule_diagnostics(self) -> list[Diagnostic]:
        """Every cross-file and domain rule's findings over the current corpus.

        A document with a mistake of its own reports that mistake: what rules conclude
        from its partly read content would only repeat it, so their findings located in
        it are dropped, except a reference to nothing (a mistake of its own, OWN_CODES).
        """
        corpus = self.corpus if self.corpus is not None else self.build_corpus()
        # The rules with tasks find their work done ahead in their memos; the others run
        # here while the tasks run on the other cores.
        ahead = start_ahead(rule_tasks(corpus), corpus.documents + corpus.partial,
                            self.jobs) if self.jobs > 1 else None
        partial = {document.display for document in corpus.partial}
        needless = _needless_rules(corpus)
        rules = [(name, rule) for name, rule in rule_checks() if name not in needless]
        waiting = rules_with_tasks() if ahead is not None else frozenset()
        findings: dict[str, list[Diagnostic]] = {}
        try:
            for name, rule in rules:
                self._stop_if_stale()
                if name not in waiting:
                    findings[name] = self._findings(name, rule, corpus)
        except BaseException:
            if ahead is not None:
                ahead.close()
            raise
        if ahead is not None:
            ahead.finish()
        for name, rule in rules:
            if name in waiting:
                self._stop_if_stale()
                findings[name] = self._findings(name, rule, corpus)
        return [d for name, _ in rules for d in findings[name]
                if d.location.path not in partial or d.code in OWN_CODES]

    def _stop_if_stale(self) -> None:
        if self.stop is not None and self.stop():
            raise AnalysisStopped

    def _findings(self, name: str, rule: RuleCheck, corpus: Corpus) -> list[Diagnostic]:
        """A rule's findings: those of its last run while all it read then is unchanged
        (see rules/reads.py), else found now."""
        if not self.asked_again:
            return list(rule(corpus))
        last = self._runs.get(name)
        if last is not None and last.holds_in(corpus):
            return last.findings
        run = run_recorded(rule, corpus)
        self._runs[name] = run
        return run.findings

    def refresh_modelines(self) -> None:
        """Look again at the schema files the modelines name (the disk may have changed)."""
        for state in self.files.values():
            state.modeline = None
        self.corpus = None

    def report(self, checked: set[str] | None = None, *, select: frozenset[str] = frozenset(),
               ignore: frozenset[str] = frozenset(),
               ignores: IgnoreSettings | None = None) -> Report:
        """A Report of the files named in `checked` (display paths; None: every file), with
        what suppression comments and the configuration's per-file `ignores` silence taken out."""
        report = Report(select=select, ignore=ignore)
        report.extend(self.problems)
        corpus = self.corpus if self.corpus is not None else self.build_corpus()
        wanted = [s for s in self.ordered() if checked is None or s.display in checked]
        for state in wanted:
            report.extend(state.own)
        # Rules may skip work whose findings could only be located in files not asked about.
        corpus.checked = frozenset(checked) if checked is not None else None
        try:
            rule_findings = self.rule_diagnostics()
        finally:
            corpus.checked = None
        for diagnostic in rule_findings:
            if checked is None or diagnostic.location.path in checked:
                report.add(diagnostic)
        found = [c for s in wanted if s.result.document is not None
                 for c in comments_of(s.result.document)]
        if ignores is not None and ignores.entries:
            source = display_path(ignores.source) if ignores.source is not None else "dmtool.toml"
            found += from_config(ignores.entries, ignores.source, source,
                                 [(s.path, s.display) for s in wanted], ignores.matches)
        apply(report, found, lambda path: checked is None or path in checked)
        report.files_checked = len(self.files) if checked is None else len(checked)
        return report

    def diagnostics(self) -> dict[str, list[Diagnostic]]:
        """Every file's diagnostics (own and cross-file) by display path; clean files map to []."""
        by_file: dict[str, list[Diagnostic]] = {state.display: [] for state in self.files.values()}
        for diagnostic in self.report().sorted():
            by_file.setdefault(diagnostic.location.path, []).append(diagnostic)
        return by_file

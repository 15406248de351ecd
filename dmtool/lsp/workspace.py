"""The editor's view of a content tree: open buffers over the files on disk, checked live.

A LiveWorkspace feeds the check session with the editor's unsaved text, and after each
analysis hands out a Snapshot: every file's diagnostics and the documents to navigate.
When a buffer does not load (half typed), its last good document stays in the snapshot
for navigation while its diagnostics say what is wrong now.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dmtool.config import Config, load_config
from dmtool.diagnostics import Diagnostic, Report
from dmtool.loading import SourceDocument
from dmtool.loading.discovery import content_roots, is_yaml_name
from dmtool.lsp.scope import is_content
from dmtool.lsp.session import CheckSession, corpus_of, document_of
from dmtool.packaged import games_underneath
from dmtool.validation.corpus import Corpus

DEFAULT_CONTENT = "content"


@dataclass(frozen=True)
class Snapshot:
    """One analysis of the workspace: diagnostics by file and what navigation reads."""

    generation: int
    diagnostics: Mapping[Path, tuple[Diagnostic, ...]]
    # The document of every file that loaded, or its last good one if it no longer does.
    documents: Mapping[Path, SourceDocument]
    corpus: Corpus
    paths_by_display: Mapping[str, Path]

    def path_of(self, display: str) -> Path | None:
        return self.paths_by_display.get(display)


EMPTY = Snapshot(0, {}, {}, Corpus(), {})


@dataclass
class LiveWorkspace:
    """Content roots under the editor's folders, the open buffers, and the last snapshot."""

    config: Config = field(default_factory=Config)
    session: CheckSession = field(default_factory=CheckSession)
    roots: list[Path] = field(default_factory=list)
    buffers: dict[Path, str] = field(default_factory=dict)
    snapshot: Snapshot = EMPTY
    _last_good: dict[Path, SourceDocument] = field(default_factory=dict)

    @classmethod
    def for_folders(cls, folders: Iterable[Path]) -> LiveWorkspace:
        """A workspace over the content trees of the editor's folders (dmtool.toml honoured)."""
        folders = [Path(os.path.abspath(f)) for f in folders]
        config = load_config(folders[0]) if folders else Config()
        workspace = cls(config=config, session=CheckSession(
            max_file_size=config.max_file_size, max_nesting=config.max_nesting))
        for folder in folders:
            workspace.roots.extend(r for r in _roots_of(folder, config) if r not in workspace.roots)
        # The games dmtool ships, where the trees lack them, as `dmtool check` reads them.
        workspace.roots.extend(games_underneath(workspace.roots))
        return workspace

    def load(self) -> None:
        """Read every content file of the roots from disk."""
        if self.roots:
            self.session.load(self.roots)
        self._drop_excluded()

    def open(self, path: Path, text: str) -> None:
        """An editor opened (or changed) a buffer: check its text instead of the disk's.
        A file that is not content (scope.py) is left alone."""
        path = _absolute(path)
        if not self.is_content(path, text):
            self.buffers.pop(path, None)
            if path in self.session.files:
                self.session.remove(path)  # it named a kind before this edit
            return
        if path not in self.session.files and not self._covered(path):
            # A file outside the known trees brings its own content tree along.
            extra = content_roots([path])
            self.roots.extend(r for r in extra if r not in self.roots)
            if extra:
                self.session.load(extra)
                self._drop_excluded()
        self.buffers[path] = text
        self.session.update(path, text)

    change = open

    def close(self, path: Path) -> None:
        """The buffer closed: the file is what the disk holds again (or gone)."""
        path = _absolute(path)
        self.buffers.pop(path, None)
        self.disk_changed(path)

    def disk_changed(self, path: Path) -> None:
        """A file changed, appeared or vanished on disk; open buffers keep their text."""
        path = _absolute(path)
        if path in self.buffers:
            return
        if not path.exists() or not is_yaml_name(path.name) or not self._covered(path):
            if path in self.session.files and not path.exists():
                self.session.remove(path)
                self._last_good.pop(path, None)
            elif path in self.session.files and not self._covered(path):
                self.session.remove(path)
            return
        if self.config.exclude and self.config.is_excluded(path):
            return
        self.session.read(path)

    def analyse(self) -> Snapshot:
        """Run the corpus rules over the current texts and keep the result as the snapshot."""
        report = Report(select=frozenset(self.config.select),
                        ignore=frozenset(self.config.ignore))
        by_display = self.session.diagnostics()
        paths = {state.display: path for path, state in self.session.files.items()}
        diagnostics: dict[Path, tuple[Diagnostic, ...]] = {}
        for display, found in by_display.items():
            path = paths.get(display)
            if path is not None:
                diagnostics[path] = tuple(d for d in found if report.wants(d.code))
        for path, state in self.session.files.items():
            document = document_of(state)
            if document is not None:
                self._last_good[path] = document
        documents = {p: d for p, d in self._last_good.items() if p in self.session.files}
        self.snapshot = Snapshot(self.snapshot.generation + 1, diagnostics, documents,
                                 corpus_of(self.session), paths)
        return self.snapshot

    def text(self, path: Path) -> str | None:
        """The text the editor shows for `path`, or the disk's when it is not open."""
        path = _absolute(path)
        if path in self.buffers:
            return self.buffers[path]
        document = self.snapshot.documents.get(path)
        if document is not None:
            return document.text
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def is_content(self, path: Path, text: str | None = None) -> bool:
        """Whether the server checks and formats this file (dmtool/lsp/scope.py)."""
        return is_content(_absolute(path), text, self.roots, self.session.schemas.kinds)

    def _covered(self, path: Path) -> bool:
        return any(path.is_relative_to(root) for root in self.roots)

    def _drop_excluded(self) -> None:
        if not self.config.exclude:
            return
        for path in [p for p in self.session.files if self.config.is_excluded(p)]:
            self.session.remove(path)


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def _roots_of(folder: Path, config: Config) -> list[Path]:
    """The content trees an editor folder holds: the configured paths, else the configured
    content, else content/ (as `dmtool check` finds them), else the content/ around it."""
    if config.paths or config.content:
        configured = [_absolute(p) for p in config.paths or (config.content,) if p.exists()]
        return [p for p in configured if p.is_relative_to(folder) or folder.is_relative_to(p)]
    inside = folder / DEFAULT_CONTENT
    if inside.is_dir():
        return [inside]
    around = content_roots([folder])
    return around


def changed_files(before: Snapshot, after: Snapshot) -> dict[Path, tuple[Diagnostic, ...]]:
    """Files whose diagnostics differ between two snapshots (gone files map to ())."""
    changed: dict[Path, tuple[Diagnostic, ...]] = {}
    for path in before.diagnostics.keys() | after.diagnostics.keys():
        old = before.diagnostics.get(path, ())
        new = after.diagnostics.get(path, ())
        if old != new:
            changed[path] = new
    return changed

"""`dmtool check --watch`: re-check on every change and print only what changed since.

The first run prints the whole report, as `dmtool check` does; then each batch of file
changes re-checks the changed files in the live session (the other files keep their
results) and prints the diagnostics that appeared and those that went away, under a
summary of where the content stands. On a terminal the screen is cleared first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from watchfiles import watch

from dmtool.commands.check import DEFAULT_PATHS, CheckRequest
from dmtool.config import Config, load_config
from dmtool.diagnostics import Diagnostic, Report
from dmtool.errors import UsageError
from dmtool.loading.collector import settle_lasting_state
from dmtool.loading.discovery import content_roots, is_yaml_name
from dmtool.lsp.session import CheckSession, display_path, document_of
from dmtool.reporters.text import render_blocks, summary_line

# A diagnostic is the same finding across runs when these agree: its line may move when
# lines are added above it, and that is not news.
Identity = tuple[str, str, str, str, str]


def identity(diagnostic: Diagnostic) -> Identity:
    loc = diagnostic.location
    where = loc.pointer or f"{loc.line}:{loc.column}"
    return (loc.path, diagnostic.code, diagnostic.severity.value, diagnostic.message, where)


@dataclass
class WatchRun:
    """What one run found: the report of the files asked about, and what changed."""

    report: Report
    new: list[Diagnostic] = field(default_factory=list)
    fixed: list[Diagnostic] = field(default_factory=list)
    first: bool = False


@dataclass
class Watcher:
    """The live session over the watched paths and the findings of the previous run."""

    paths: tuple[Path, ...]
    config: Config = field(default_factory=Config)
    session: CheckSession = field(default_factory=CheckSession)
    _checked: set[str] = field(default_factory=set)
    _previous: dict[Identity, Diagnostic] | None = None

    def __post_init__(self) -> None:
        self.paths = tuple(Path(os.path.abspath(p)) for p in self.paths)

    def start(self) -> WatchRun:
        named = self.session.load(self.paths)
        self._excluded_out()
        self._checked = {self.session.files[p].display for p in named if p in self.session.files}
        return self._run()

    def changed(self, paths: Iterable[Path]) -> WatchRun:
        """Re-check files that changed, appeared or vanished, then report what changed."""
        for path in (Path(os.path.abspath(p)) for p in paths):
            if not is_yaml_name(path.name) or self._is_excluded(path):
                continue
            if path.exists():
                self.session.read(path)
                if self._asked_about(path):
                    self._checked.add(self.session.files[path].display)
            else:
                state = self.session.files.get(path)
                self.session.remove(path)
                if state is not None:
                    self._checked.discard(state.display)
        return self._run()

    def roots(self) -> list[Path]:
        """The folders to watch: the content trees around the paths (cross-file findings)."""
        roots = content_roots(list(self.paths))
        for path in self.paths:
            folder = path if path.is_dir() else path.parent
            if not any(_within(folder, r) for r in roots):
                roots.append(folder)
        return roots

    def _run(self) -> WatchRun:
        report = Report(select=frozenset(self.config.select), ignore=frozenset(self.config.ignore))
        for diagnostic in self.session.report().diagnostics:
            if diagnostic.location.path in self._checked or not diagnostic.location.path:
                report.add(diagnostic)
        report.files_checked = len(self._checked)
        report.sources = {state.display: document.text for state in self.session.files.values()
                          if (document := document_of(state)) is not None}
        now = {identity(d): d for d in report.sorted()}
        run = WatchRun(report, first=self._previous is None)
        if self._previous is None:
            run.new = list(now.values())
        else:
            run.new = [d for key, d in now.items() if key not in self._previous]
            run.fixed = [d for key, d in self._previous.items() if key not in now]
        self._previous = now
        return run

    def _asked_about(self, path: Path) -> bool:
        absolute = os.path.abspath(path)
        return any(_within(Path(absolute), p) for p in self.paths)

    def _is_excluded(self, path: Path) -> bool:
        return bool(self.config.exclude) and self.config.is_excluded(path)

    def _excluded_out(self) -> None:
        for path in [p for p in self.session.files if self._is_excluded(p)]:
            self.session.remove(path)


def _within(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or inside it."""
    inside, outside = os.path.abspath(path), os.path.abspath(folder)
    return inside == outside or inside.startswith(outside + os.sep)


def render_run(run: WatchRun, *, color: bool) -> str:
    """New diagnostics in full, fixed ones one per line, then the standing summary."""
    parts: list[str] = []
    if run.new:
        shown = Report(diagnostics=run.new, sources=run.report.sources)
        parts.append(("" if run.first else f"{len(run.new)} new:\n\n") + render_blocks(shown, color=color))
    if run.fixed:
        parts.append(f"{len(run.fixed)} fixed:\n" + "\n".join(
            f"  {d.location}: {d.severity.value} {d.code} {d.message.splitlines()[0]}"
            for d in sorted(run.fixed, key=Diagnostic.sort_key)))
    if not run.first and not run.new and not run.fixed:
        parts.append("No change in the diagnostics.")
    parts.append(summary_line(run.report, color=color))
    return "\n\n".join(parts) + "\n"


def watch_changes(roots: list[Path], *, debounce_ms: int = 50,
                  stop: Callable[[], bool] | None = None) -> Iterator[set[Path]]:
    """Batches of changed YAML files under `roots`, until interrupted.

    The first batch is empty and comes as soon as the watcher is in place (so nothing
    saved after it can be missed); later empty batches are not passed on.
    """
    ready = False
    for changes in watch(*roots, debounce=debounce_ms, step=20, raise_interrupt=False,
                         rust_timeout=500, yield_on_timeout=True,
                         watch_filter=lambda _change, name: is_yaml_name(name)):
        if changes or not ready:
            ready = True
            yield {Path(name) for _change, name in changes}
        if stop is not None and stop():
            return


def run_watch(request: CheckRequest, *, emit: Callable[[str], None], clear: Callable[[], None],
              color: bool, stop: Callable[[], bool] | None = None) -> int:
    """Check, print, then re-check and print what changed on every change until interrupted."""
    if request.fmt not in (None, "text") or request.output is not None or request.statistics:
        raise UsageError("--watch prints text to the terminal; drop --format, --output and "
                         "--statistics")
    config = load_config(Path.cwd()).merged(select=tuple(request.select),
                                            ignore=tuple(request.ignore), paths=request.paths)
    paths = tuple(Path(os.path.abspath(p)) for p in config.paths or DEFAULT_PATHS)
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(p.as_posix() for p in missing)}")
    watcher = Watcher(paths, config, CheckSession(max_file_size=config.max_file_size,
                                                  max_nesting=config.max_nesting))
    run = watcher.start()
    settle_lasting_state()  # the session lives until Ctrl-C: see collector.py
    roots = watcher.roots()
    where = ", ".join(display_path(r) + "/" for r in roots)
    footer = f"Watching {where} for changes (Ctrl-C to stop)."
    clear()
    emit(render_run(run, color=color))
    try:
        for changed in watch_changes(roots, stop=stop):
            if changed:
                run = watcher.changed(changed)
                clear()
                emit(render_run(run, color=color))
            emit(footer + "\n")
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a watch ends
    return 0

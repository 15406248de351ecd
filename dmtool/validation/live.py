"""LiveCheck: `dmtool check` run again and again by one long-lived process (the daemon).

It keeps one CheckSession, and each run looks at the disk afresh before it reports: every
file under the paths and the tree around them is stat'ed, and read again unless its stat
is the very one seen when its bytes were last read, trusted on the cache's terms
(filekeys.py: size, times, inode, device and mode, and not taken in a racy moment). A file
whose bytes come back the same keeps its result; a changed one is checked again, and the
session re-runs only the rules that read what changed (rules/reads.py). Readability, the
modelines' schema files, the configuration, the schema folder and the paths asked about
are looked at on every run, as the check cache's run key does, so a run's report is the
report `dmtool check --no-cache` would give of the same tree at that moment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from dmtool.diagnostics import Report
from dmtool.loading.collector import collector_paused
from dmtool.loading.discovery import Walked, content_roots
from dmtool.loading.reading import MAX_BYTES, read_bytes
from dmtool.validation.filekeys import (
    Stat,
    digest,
    readable,
    schema_files,
    stat_of,
    trustworthy,
)
from dmtool.validation.pipeline import (
    CheckOptions,
    FilesToCheck,
    attach_sources,
    nothing_checked,
)
from dmtool.validation.schemas import SchemaSet
from dmtool.validation.session import CheckSession, FileState


class _Seen(NamedTuple):
    """What a file was when its bytes were last read: the stat taken just before, whether
    that stat may stand for the bytes later, its readability and the bytes' digest; the
    session's state of it then, its display name and its path as text."""

    stat: Stat | None
    trusted: bool
    can_read: bool
    content: str | None
    state: FileState
    name: str
    where: str


class LiveCheck:
    """One session, refreshed from disk before each run (see the module's docstring)."""

    def __init__(self) -> None:
        self.session: CheckSession | None = None
        # What the session was made for: the schema folder and the size and nesting limits.
        self._made_for: tuple[Path, int | None, int | None] | None = None
        self._seen: dict[Path, _Seen] = {}
        # The last listing: its key, its files and the stamps of the folders it looked at.
        self._listing: tuple[object, FilesToCheck, list[tuple[str, tuple[int, ...]]]] | None = None
        # The schema file each document's modeline names, the documents naming each, and
        # whether it existed when last looked at; the files read since (see _modelines_again).
        self._target_of: dict[Path, str] = {}
        self._by_target: dict[str, set[Path]] = {}
        self._exists: dict[str, bool] = {}
        self._read_now: list[Path] = []
        # The schema folder's files as last looked at: their stats, and their bytes' digests.
        self._schema_stats: list[tuple[str, Stat | None]] = []
        self._schema_stats_trusted = False
        self._schema_digests: list[tuple[str, str | None]] = []
        self.files_read = 0  # how many reads the runs took (the tests' window on the work)
        # The last run's options, and the folders its listing looked at (the daemon watches
        # them to check ahead, see daemon/ahead.py).
        self.last_options: CheckOptions | None = None
        self.folders: list[str] = []
        # What the runs replaced (files' old states, an old session), kept until release():
        # freeing a large book's data costs milliseconds, better spent after an answer.
        self._replaced: list[object] = []
        # The last report and what it was asked for; whether anything it depends on (a
        # file's result, its modeline's findings, the session) changed since.
        self._last: tuple[object, Report] | None = None
        self._changed = True

    def run(self, options: CheckOptions) -> Report:
        """The report `run_check(options)` gives of the tree as the disk holds it now."""
        self.last_options = options
        session = self._session_for(options)
        files, listed_as_before = self._files(options)
        names, seen_of, states = files.names, self._seen, session.files
        with collector_paused():  # as the pipeline's load (collector.py)
            for path in files.every_file:
                # hot path (every file of every run): a file whose trusted stat is the one
                # it had when last read, in a listing as it was, is left as it is
                seen = seen_of.get(path)
                if (listed_as_before and seen is not None and seen.trusted
                        and seen.state is states.get(path) and seen.name == names[path]
                        and stat_of(seen.where) == seen.stat):
                    continue
                self._refresh(session, path, names[path])
        for path in [p for p in session.files if p not in files.names]:
            self._replaced.append(session.files[path])
            session.remove(path)
            self._seen.pop(path, None)
            self._forget_target(path)
            self._changed = True
        self._modelines_again(session)
        asked = _asked(options, files)
        last = self._last
        if not self._changed and last is not None and last[0] == asked:
            return _copy(last[1])  # nothing a report depends on changed since
        session.problems = list(files.problems)
        report = session.report(files.checked_names, select=options.select,
                                ignore=options.ignore, ignores=options.ignores)
        report.files_checked = len(files.checked)
        if not files.checked and not files.problems:
            report.add(nothing_checked(options, files.found))
        attach_sources(report, session, options.max_file_size)
        self._last, self._changed = (asked, _copy(report)), False
        return report

    def release(self) -> None:
        """Free what the runs since the last release replaced."""
        self._replaced.clear()

    def _session_for(self, options: CheckOptions) -> CheckSession:
        """The session, made anew when the schemas or the size and nesting limits are not
        its own."""
        made_for = (options.schema_dir, options.max_file_size, options.max_nesting)
        schemas_as_before = self._schemas_as_before(options.schema_dir)
        if self.session is None or made_for != self._made_for or not schemas_as_before:
            self._replaced.append(self.session)
            self.session = CheckSession(schemas=SchemaSet(options.schema_dir),
                                        max_file_size=options.max_file_size,
                                        max_nesting=options.max_nesting)
            self._made_for = made_for
            self._seen, self._target_of, self._by_target, self._exists = {}, {}, {}, {}
            self._changed = True
        return self.session

    def _schemas_as_before(self, directory: Path) -> bool:
        """Whether the schema folder holds the files, and the bytes, it held last time: a
        schema edited, added or removed means a new session (its schemas are read when it
        is made). The bytes are read again only when a stat changed or was racy."""
        files = schema_files(str(directory))  # the files the cache's code salt reads
        stats = [(name, stat_of(path)) for name, path in files]
        if self._schema_stats_trusted and stats == self._schema_stats:
            return True
        # Whether these stats may stand for the bytes read now: judged now, as they are taken.
        trusted = all(s is not None and trustworthy(s) for _, s in stats)
        digests = _digests(files)
        same = digests == self._schema_digests
        self._schema_stats, self._schema_digests = stats, digests
        self._schema_stats_trusted = trusted
        return same

    def _files(self, options: CheckOptions) -> tuple[FilesToCheck, bool]:
        """The run's files, and whether every folder they were found in (and above) is as
        it was when last listed: then the listing is the last one, and so is each file's
        readability while its own stat is unchanged (a chmod or an ACL changes the file's
        change time; a folder's permissions, the folder's)."""
        key: object = (options.paths, options.whole_corpus, options.excluded_by)
        last = self._listing
        if last is not None and last[0] == key and all(
                stat_of(folder) == stamp for folder, stamp in last[2]):
            return last[1], True
        walked = Walked()
        for root in {*options.paths, *content_roots(options.paths)}:
            for folder in Path(os.path.abspath(root)).parents:
                walked.listing(folder)  # a folder above that turns unsearchable hides all
        files = FilesToCheck.of(options, walked)
        self.folders = [folder for folder, _ in walked.folders]
        # A link's target may change with every folder as it was; so may a problem's cause.
        # A folder changed a moment before it was listed may change again within the same
        # timestamp tick: then the listing is not kept (judged now, as the stamps are new).
        kept = not walked.links and not files.problems and all(
            trustworthy(stamp) for _, stamp in walked.folders)
        self._listing = (key, files, walked.folders) if kept else None
        return files, False

    def _refresh(self, session: CheckSession, path: Path, name: str) -> None:
        """Check the file again if its bytes or its readability changed since last seen
        (the run's loop has left every file whose trusted stat and listing are as before)."""
        found = stat_of(path)
        state = session.files.get(path)
        seen = self._seen.get(path)
        if seen is not None and (seen.state is not state or seen.name != name):
            seen = None
        can_read = readable(path)
        if (seen is not None and seen.trusted and seen.stat == found
                and seen.can_read == can_read):
            return  # only its folders changed, not its bytes nor its readability
        self.files_read += 1
        raw, problem = read_bytes(path, name, session.max_file_size or MAX_BYTES)
        content = digest(raw) if raw is not None else None
        trusted = found is not None and trustworthy(found)
        if (seen is not None and state is not None and content is not None
                and seen.content == content and seen.can_read == can_read):
            # the same bytes (a save without a change, a restored file)
            self._seen[path] = _Seen(found, trusted, can_read, content, state, name, str(path))
            return
        if state is not None:
            self._replaced.append(state)
        session.read_from(path, name, raw, problem, content)
        self._seen[path] = _Seen(found, trusted, can_read, content, session.files[path], name,
                                 str(path))
        self._read_now.append(path)
        self._changed = True

    def _modelines_again(self, session: CheckSession) -> None:
        """DM018 says whether the schema file a modeline names exists: each file named is
        looked at again on every run, and the documents naming one whose existence changed
        are asked again (DM016 and DM017 depend on the document alone, and a document
        read in this run is asked anyway)."""
        for path in self._read_now:
            self._forget_target(path)
            state = session.files.get(path)
            document = state.result.document if state is not None else None
            if document is None or document.modeline is None or "://" in document.modeline:
                continue
            target = os.path.join(os.path.dirname(document.path), document.modeline)
            self._target_of[path] = target
            self._by_target.setdefault(target, set()).add(path)
        self._read_now.clear()
        for target, paths in self._by_target.items():
            found = os.path.isfile(target)
            if self._exists.get(target) != found:
                self._exists[target] = found
                self._changed = True
                for path in paths:
                    session.files[path].modeline = None

    def _forget_target(self, path: Path) -> None:
        target = self._target_of.pop(path, None)
        if target is not None:
            self._by_target[target].discard(path)
            if not self._by_target[target]:
                del self._by_target[target]


def _asked(options: CheckOptions, files: FilesToCheck) -> object:
    """What a report is asked for, beside the files' results: the paths and the files asked
    about, the codes selected and ignored, the configuration's per-file ignores, the size
    and nesting limits, and what could not be looked at (a run whose answer to all of these
    is the last one's, over unchanged results, gets the last report)."""
    ignores = options.ignores
    return (options.paths, frozenset(files.checked_names), len(files.checked), files.found,
            options.select, options.ignore, options.max_file_size, options.max_nesting,
            options.excluded_by,
            None if ignores is None else (ignores.entries, ignores.source),
            [d.sort_key() for d in files.problems], [d.message for d in files.problems])


def _copy(report: Report) -> Report:
    """A report of its own for each caller (reporters may add to a report's sources)."""
    return Report(list(report.diagnostics), report.files_checked, report.select,
                  report.ignore, dict(report.sources))


def _digests(files: list[tuple[str, str]]) -> list[tuple[str, str | None]]:
    """Each (name, path)'s bytes' digest, None when it cannot be read."""
    found: list[tuple[str, str | None]] = []
    for name, path in files:
        try:
            with open(path, "rb") as handle:
                found.append((name, digest(handle.read())))
        except OSError:
            found.append((name, None))
    return found

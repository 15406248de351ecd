"""`dmtool check` as a plain function: discover, load (through the cache), validate, run rules.

The work itself is a CheckSession's (session.py); this module fills the session from
disk through the check cache (cache.py) and replays a whole finished report when nothing
that decides it has changed: the files' contents, their readability, the modelines'
targets, the options, the working directory and the tree's real location.
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, Report, diagnose
from dmtool.loading import discover
from dmtool.loading.collector import collector_paused
from dmtool.loading.discovery import CONTENT_DIR_NAME, Walked, content_roots
from dmtool.loading.reading import MAX_BYTES, decode, read_bytes, read_text
from dmtool.packaged import games_underneath
from dmtool.validation import parallel
from dmtool.validation.cache import CheckCache, FileRecord, pack, record_key, unpack
from dmtool.validation.corpus import Corpus
from dmtool.validation.filecheck import (
    PACKED_DATA_BYTES,
    STORED_DATA_BYTES,
    FileResult,
    check_decoded,
    check_file,
    from_record,
    has_errors,
)
from dmtool.validation.filekeys import Stat, blake2b, digest, readable, stat_of, trustworthy
from dmtool.validation.heap import release_freed_memory
from dmtool.validation.rules import rule_names
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.validation.session import CheckSession, display_path
from dmtool.validation.suppressions import IgnoreSettings

# A file's result, its cache record key and what identifies it in the run key.
_Loaded = tuple[FileResult, str | None, Any]
# Validators of this many kinds hold too little to be worth giving back (ctypes costs a
# one-file hook run a few milliseconds to import); a whole corpus compiles about 24.
_FEW_KINDS = 4

__all__ = ["CheckOptions", "CheckResult", "FilesToCheck", "attach_sources", "check_and_load",
           "check_file", "display_path", "nothing_checked", "run_check"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckOptions:
    """What to check and how; built by the CLI from flags and configuration."""

    paths: tuple[Path, ...]
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    schema_dir: Path = field(default_factory=default_schema_dir)
    # Look for the enclosing content/ tree so references resolve against the whole corpus.
    whole_corpus: bool = True
    max_file_size: int | None = None
    # The max-nesting setting (None: the loader's own limit alone).
    max_nesting: int | None = None
    # Files for which this returns True are skipped (the configuration's `exclude`).
    excluded: Callable[[Path], bool] | None = None
    # Where `excluded` comes from, for the warning when it leaves nothing to check.
    excluded_by: str = "the configuration's 'exclude' setting"
    progress: Callable[[int, int], None] | None = None
    # None switches the cache off (the CLI's --no-cache; tests use their own folders).
    cache_dir: Path | None = None
    # The configuration's per-file ignores (inline suppression comments need no option).
    ignores: IgnoreSettings | None = None
    # Processes to check with (the CLI's --jobs, resolved: 1 checks in this process alone).
    jobs: int = 1
    # Folders to read as content trees whatever their names (a command's --content): the
    # packaged games they lack are read with them, as under a content/ folder.
    trees: tuple[Path, ...] = ()


@dataclass(slots=True)
class CheckResult:
    """A check's report, and the corpus it built (None when the run was replayed from cache).

    For commands that go on from the check (`dmtool graph`): the session holds every file
    (its corpus can be built on a replay too), and the cache and run key let them keep what
    they derive from this very state of the tree (CheckCache.derived_value).
    """

    report: Report
    corpus: Corpus | None
    session: CheckSession | None = None
    cache: CheckCache | None = None
    run_key: str | None = None
    checked: frozenset[str] = frozenset()  # display paths of the files asked about

    def full_corpus(self) -> Corpus:
        """The corpus, built from the session when the report was replayed."""
        if self.corpus is None:
            assert self.session is not None
            self.corpus = self.session.corpus or self.session.build_corpus()
        return self.corpus


def run_check(options: CheckOptions) -> Report:
    """Check the given paths; cross-file rules see the whole enclosing corpus."""
    return check_and_load(options).report


def check_and_load(options: CheckOptions) -> CheckResult:
    """run_check, keeping the corpus for commands that go on to use it (e.g. the site)."""
    schemas = SchemaSet(options.schema_dir)
    cache = CheckCache.open(options.cache_dir, schema_dir=options.schema_dir)
    session = CheckSession(schemas=schemas, max_file_size=options.max_file_size,
                           max_nesting=options.max_nesting, jobs=options.jobs,
                           asked_again=False)
    files = FilesToCheck.of(options)
    checked, problems, names, every_file = (files.checked, files.problems, files.names,
                                            files.every_file)
    checked_names = files.checked_names
    records: dict[Path, str] = {}
    fingerprint: list[Any] = []
    with collector_paused():  # files build many containers and no cycles (collector.py)
        loaded = _load_all(every_file, names, schemas, cache, options)
    for path in every_file:
        result, key, identity = loaded.pop(path)
        modeline = result.modeline_diagnostics()
        session.put(path, names[path], result, modeline)
        if key is not None:
            records[path] = key
        fingerprint.append((names[path], identity, [pack(d) for d in modeline]))
    # Every file is checked: the validators' memory goes back to the system rather than
    # stay resident while the cross-file rules build their own (P5: 4 MB of the peak).
    if schemas.forget_compiled() > _FEW_KINDS:
        release_freed_memory()
    run_key = _run_key(options, fingerprint, sorted(checked_names))
    replay = cache.run(run_key) if cache.enabled else None
    if replay is not None:
        for key in records.values():
            cache.touch_record(key)
        cache.touch_derived(run_key)
        cache.save()
        return CheckResult(_replayed(Report(select=options.select, ignore=options.ignore),
                                     replay), None, session, cache, run_key,
                           frozenset(checked_names))
    session.problems.extend(problems)
    report = session.report(checked_names, select=options.select, ignore=options.ignore,
                            ignores=options.ignores)
    report.files_checked = len(checked)
    if not checked and not problems:
        report.add(nothing_checked(options, files.found))
    corpus = session.corpus
    assert corpus is not None
    attach_sources(report, session, options.max_file_size)
    _keep_memos(session, records, cache)
    cache.remember_run(run_key, (tuple(pack(d) for d in report.diagnostics),
                                 report.files_checked, tuple(report.sources.items())))
    cache.save()
    return CheckResult(report, corpus, session, cache, run_key, frozenset(checked_names))


@dataclass(slots=True)
class FilesToCheck:
    """The files of one run: those asked about (`checked`, after the exclusions), the
    content tree around them, their display names, and what could not be looked at."""

    checked: list[Path]
    problems: list[Diagnostic]
    names: dict[Path, str]
    every_file: list[Path]  # checked and context, in display order
    found: int  # files under the paths before the exclusions (DM019's count)

    @property
    def checked_names(self) -> set[str]:
        return {self.names[p] for p in self.checked}

    @classmethod
    def of(cls, options: CheckOptions, walked: Walked | None = None) -> FilesToCheck:
        """The files of a run with `options` (`walked` is told what discovery looked at)."""
        checked, problems = discover(options.paths, walked)
        context: list[Path] = []
        if options.whole_corpus:
            roots = content_roots(options.paths)
            context = checked if roots == list(options.paths) else discover(roots, walked)[0]
            # The games dmtool ships, where the author's tree lacks them: an author's
            # wanderer refers to the base game's monsters and cards.
            games = games_underneath(
                [*(roots or _content_below(options.paths)), *options.trees])
            if games:
                context = [*context, *discover(games, walked)[0]]
        found = len(checked)
        if options.excluded is not None:
            checked = [p for p in checked if not options.excluded(p)]
            context = [p for p in context if not options.excluded(p)]
        names = {path: display_path(path) for path in {*checked, *context}}
        return cls(checked, problems, names, sorted(names, key=names.__getitem__), found)


def _content_below(paths: tuple[Path, ...]) -> list[Path]:
    """The content/ folders directly inside the folders given (`dmtool check .` at the
    top of an author's repository)."""
    return [path / CONTENT_DIR_NAME for path in paths
            if path.is_dir() and (path / CONTENT_DIR_NAME).is_dir()]


def _load_all(every_file: list[Path], names: dict[Path, str], schemas: SchemaSet,
              cache: CheckCache, options: CheckOptions) -> dict[Path, _Loaded]:
    """Every file's result, record key and identity: from the cache where it knows the
    file, else checked, on several cores when there is enough to check (parallel.py)."""
    loaded: dict[Path, _Loaded] = {}
    fresh: list[tuple[Path, Stat | None, bool]] = []
    for path in every_file:
        found, can_read, hit = _cached(path, names[path], schemas, cache, options.max_file_size,
                                       options.max_nesting)
        if hit is not None:
            loaded[path] = hit
            _progress(options, len(loaded), len(every_file))
        else:
            fresh.append((path, found, can_read))

    def check_here(indices: list[int]) -> None:
        for index in indices:
            path, found, can_read = fresh[index]
            loaded[path] = _fresh(path, names[path], schemas, cache, options.max_file_size,
                                  found, can_read, options.max_nesting)
            _progress(options, len(loaded), len(every_file))

    limit = options.max_file_size or MAX_BYTES
    children = parallel.spread(
        [_size(path, found) for path, found, _ in fresh], options.jobs,
        lambda indices: ((i, _checked_in_child(fresh[i][0], names[fresh[i][0]], schemas, limit,
                                               options.max_file_size, options.max_nesting))
                         for i in indices),
        minimum_weight=parallel.WORTH_SPREADING_BYTES, before=schemas.before_workers)
    if children is None:
        check_here(list(range(len(fresh))))
        return loaded
    schemas.after_workers()
    try:
        parallel.checking_started()
        answered: dict[int, Any] = {}
        for answer in parallel.results(children):
            answered.update(parallel.answers_by_index(answer, len(fresh), answered))
    finally:
        for child in children:
            child.close()
    # Entered in the files' order, whichever child checked which (the cache keeps them so).
    for index, (path, found, can_read) in enumerate(fresh):
        installed = None
        if index in answered:
            installed = _installed(answered.pop(index), path, names[path], schemas, cache,
                                   options, found, can_read)
        if installed is None:  # a child failed, or its answer is unreadable: checked here
            check_here([index])
        else:
            loaded[path] = installed
            _progress(options, len(loaded), len(every_file))
    return loaded


def _size(path: Path, found: Stat | None) -> int:
    """How much there is to read of a file (0 when it cannot be told)."""
    if found is not None:
        return found[0]
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _progress(options: CheckOptions, done: int, total: int) -> None:
    if options.progress is not None:
        options.progress(done, total)


def _cached(path: Path, name: str, schemas: SchemaSet, cache: CheckCache,
            max_file_size: int | None, max_nesting: int | None = None,
            ) -> tuple[Stat | None, bool, _Loaded | None]:
    """The file's stat (taken before anything is read) and readability, and its result
    when the cache knows these very bytes by their stat (None: it must be read)."""
    if not cache.enabled:
        return None, True, None
    found = stat_of(path)
    can_read = readable(path)
    content = cache.known_digest(os.path.abspath(path), found) if (
        found is not None and can_read) else None
    if content is not None:
        key = record_key(content, name, max_file_size or MAX_BYTES, max_nesting)
        record = cache.record(key)
        if record is not None:
            result = from_record(record, path, name, max_file_size, schemas)
            if result.document is not None:
                result.document.content_key = content
            return found, can_read, (result, key, (content, can_read))
    return found, can_read, None


def _fresh(path: Path, name: str, schemas: SchemaSet, cache: CheckCache,
           max_file_size: int | None, found: Stat | None, can_read: bool,
           max_nesting: int | None = None) -> _Loaded:
    """The file read and checked (a copy of bytes the cache knows is not checked again)."""
    limit = max_file_size or MAX_BYTES
    raw, problem = read_bytes(path, name, limit)
    if raw is None:
        assert problem is not None
        if not cache.enabled:
            return FileResult([problem], None), None, None
        cache.forget_path(os.path.abspath(path))
        return FileResult([problem], None), None, (pack(problem), can_read)
    content, size = digest(raw), len(raw)
    key, record = _known_record(cache, path, name, limit, max_nesting, found, content)
    if record is not None:  # the same bytes elsewhere, or a copy: no need to parse again
        result = from_record(record, path, name, max_file_size, schemas)
    else:
        text, problems = decode(raw, name)
        del raw  # see check_decoded
        result = check_decoded(text, problems, path, name, schemas, max_file_size,
                               max_nesting=max_nesting)
        if key is not None:
            cache.remember_record(key, result.to_record(size))
        _lighten(result, size)
    if result.document is not None:
        # Known contents let the rules memoise within the run, with a cache or without:
        # the story graph's work can then be spread and handed back (parallel.run_ahead).
        result.document.content_key = content
    return result, key, (content, can_read) if cache.enabled else None


def _known_record(cache: CheckCache, path: Path, name: str, limit: int, nesting: int | None,
                  found: Stat | None, content: str) -> tuple[str | None, FileRecord | None]:
    """For bytes just read (their digest `content`): the stat shortcut remembered when it
    may be trusted, and the record key with the cache's record of these bytes, if any
    (None, None without a cache)."""
    if not cache.enabled:
        return None, None
    if found is not None and trustworthy(found):
        cache.remember_digest(os.path.abspath(path), found, content)
    key = record_key(content, name, limit, nesting)
    return key, cache.record(key)


def _checked_in_child(path: Path, name: str, schemas: SchemaSet, limit: int,
                      max_file_size: int | None,
                      max_nesting: int | None = None) -> tuple[Any, ...] | None:
    """In a forked child: (digest, size, record) of the file checked, with its data and the
    memos the rules derive from it alone; None when it cannot be read (the parent reads
    it again and reports why: cheap)."""
    raw, _ = read_bytes(path, name, limit)
    if raw is None:
        return None
    content, size = digest(raw), len(raw)
    text, problems = decode(raw, name)
    del raw
    result = check_decoded(text, problems, path, name, schemas, max_file_size,
                           max_nesting=max_nesting)
    record = result.to_record(size, keep_data=True)  # with the memos check_decoded took
    if result.document is not None:
        record.memos = dict(result.document.memos)
    return content, size, record.as_tuple(0)


def _installed(answer: Any, path: Path, name: str, schemas: SchemaSet, cache: CheckCache,
               options: CheckOptions, found: Stat | None, can_read: bool) -> _Loaded | None:
    """A child's answer for one file, entered as _fresh would have entered it (None: the
    answer is not of the expected shape, so the file is checked here)."""
    if not (type(answer) is tuple and len(answer) == 3 and type(answer[0]) is str
            and type(answer[1]) is int):
        return None
    content, size, packed = answer
    sent = FileRecord.from_tuple(packed)
    if sent is None:
        return None
    key, known = _known_record(cache, path, name, options.max_file_size or MAX_BYTES,
                               options.max_nesting, found, content)
    if known is not None:  # the same bytes elsewhere: as _fresh, the cache's record
        sent = known
    elif key is not None:  # what _fresh stores: the data only of a small file, no memos yet
        cache.remember_record(key, replace(
            sent, memos={}, data_blob=sent.data_blob if size <= STORED_DATA_BYTES else None))
    result = from_record(sent, path, name, options.max_file_size, schemas,
                         made_here=known is None)
    if result.document is not None:
        result.document.content_key = content
        if size <= STORED_DATA_BYTES:
            # The rules read nearly every small file's data, and so do the story graph's
            # children (its context): unpacked now, before they fork, it is unpacked
            # once rather than once in each of them and again here.
            _ = result.document.data
    return result, key, (content, can_read) if cache.enabled else None


def _lighten(result: FileResult, size: int) -> None:
    """A large document that checked clean keeps the memos the rules derive from it alone
    (check_decoded took them) and its data packed (marshal, then zlib at its fastest
    level: a twentieth of the memory of the objects, unpacked again in a few
    milliseconds), so that a rule that needs the data (the story graph's analysis) holds
    one book's at a time. Documents read as meant (with schema errors) or recovered are
    left as they are; so are files too large for the fast parser, whose data is needed
    anyway and whose packed copy would only add to the peak."""
    document = result.document
    if (not STORED_DATA_BYTES < size <= PACKED_DATA_BYTES or document is None
            or not result.loaded or has_errors(result.diagnostics)):
        return
    packed = zlib.compress(marshal.dumps(document.data), 1)  # prose: a quarter of marshal's
    document.let_go_of_data(lambda: marshal.loads(zlib.decompress(packed)))


def _run_key(options: CheckOptions, files: list[Any], checked: list[str]) -> str:
    """'<tree>:<state>': the tree is where and from where we check; the state, everything else."""
    roots = [os.path.realpath(p) for p in (*options.paths, *content_roots(options.paths))]
    tree = blake2b(repr((os.getcwd(), roots)).encode(), digest_size=12).hexdigest()
    state = blake2b(repr((
        sorted(options.select), sorted(options.ignore), options.max_file_size,
        options.max_nesting, options.whole_corpus, checked,
        [p.as_posix() for p in options.paths], files,
        _ignores_key(options.ignores),
        # The rules run: a report made without a registered rule is not one made with it.
        rule_names(),
    )).encode(), digest_size=16).hexdigest()
    return f"{tree}:{state}"


def nothing_checked(options: CheckOptions, found: int) -> Diagnostic:
    """DM019 with its reason: an empty selection is a warning, never a silent clean pass."""
    shown = ", ".join(p.as_posix() for p in options.paths)
    if found:
        return diagnose("DM019", Location(shown), (
            f"nothing was checked: all {found} YAML file(s) under {shown} are excluded by "
            f"{options.excluded_by}; change the patterns or the paths"))
    return diagnose("DM019", Location(shown), f"no YAML files found under {shown}")


def _ignores_key(ignores: IgnoreSettings | None) -> Any:
    """What of the per-file ignores decides a report (the entries and where they are written)."""
    if ignores is None:
        return None
    source = ignores.source
    text = source.read_bytes() if source is not None and source.is_file() else b""
    return (ignores.entries, str(source), blake2b(text, digest_size=8).hexdigest())


def _replayed(report: Report, replay: tuple[Any, ...]) -> Report:
    diagnostics, files_checked, sources = replay
    report.diagnostics = [unpack(d) for d in diagnostics]
    report.files_checked = files_checked
    report.sources = dict(sources)
    return report


def _keep_memos(session: CheckSession, records: dict[Path, str], cache: CheckCache) -> None:
    """Store what the rules derived from each document with its record, for the next run."""
    for path, key in records.items():
        document = session.files[path].result.document
        if document is None or not document.memos_used:
            cache.touch_record(key)
            continue
        used = document.memos_used
        if document.memos_changed or set(document.memos) != used:
            cache.touch_record(key, {k: document.memos[k] for k in used})
        else:
            cache.touch_record(key)


def attach_sources(report: Report, session: CheckSession, max_file_size: int | None) -> None:
    """Keep the text of every file that has a diagnostic, for the reporters' excerpts."""
    states = {state.display: state for state in session.files.values()}
    for name in {d.location.path for d in report.diagnostics} - set(report.sources):
        state = states.get(name)
        if state is None:
            continue
        text: str | None
        if state.result.document is not None:
            text = state.result.document.text
        else:
            text, _ = read_text(state.path, name, max_bytes=max_file_size or MAX_BYTES)
        if text is not None:
            report.sources[name] = text

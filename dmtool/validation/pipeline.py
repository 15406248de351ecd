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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, Report, diagnose
from dmtool.loading import discover
from dmtool.loading.discovery import content_roots
from dmtool.loading.reading import MAX_BYTES, decode, read_bytes, read_text
from dmtool.validation.cache import CheckCache, pack, record_key, unpack
from dmtool.validation.corpus import Corpus, top_fields_of
from dmtool.validation.filecheck import (
    STORED_DATA_BYTES,
    FileResult,
    check_decoded,
    check_file,
    from_record,
    has_errors,
)
from dmtool.validation.filekeys import blake2b, digest, readable, stat_of, trustworthy
from dmtool.validation.heap import release_freed_memory
from dmtool.validation.rules import document_memos, rule_names
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.validation.session import CheckSession, display_path
from dmtool.validation.suppressions import IgnoreSettings

# Clean documents between STORED_DATA_BYTES and this size keep their data packed between
# uses (see _lighten). A larger file is one big book whose data the analysis needs whole.
PACKED_DATA_BYTES = 4 * 1024 * 1024
# Validators of this many kinds hold too little to be worth giving back (ctypes costs a
# one-file hook run a few milliseconds to import); a whole corpus compiles about 24.
_FEW_KINDS = 4

__all__ = ["CheckOptions", "CheckResult", "check_and_load", "check_file", "display_path",
           "run_check"]


@dataclass(frozen=True, kw_only=True)
class CheckOptions:
    """What to check and how; built by the CLI from flags and configuration."""

    paths: tuple[Path, ...]
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    schema_dir: Path = field(default_factory=default_schema_dir)
    # Look for the enclosing content/ tree so references resolve against the whole corpus.
    whole_corpus: bool = True
    max_file_size: int | None = None
    # Files for which this returns True are skipped (the configuration's `exclude`).
    excluded: Callable[[Path], bool] | None = None
    # Where `excluded` comes from, for the warning when it leaves nothing to check.
    excluded_by: str = "the configuration's 'exclude' setting"
    progress: Callable[[int, int], None] | None = None
    # None switches the cache off (the CLI's --no-cache; tests use their own folders).
    cache_dir: Path | None = None
    # The configuration's per-file ignores (inline suppression comments need no option).
    ignores: IgnoreSettings | None = None


@dataclass
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
    session = CheckSession(schemas=schemas, max_file_size=options.max_file_size)
    checked, problems = discover(options.paths)
    context: list[Path] = []
    if options.whole_corpus:
        roots = content_roots(options.paths)
        context = checked if roots == list(options.paths) else discover(roots)[0]
    found = len(checked)
    if options.excluded is not None:
        checked = [p for p in checked if not options.excluded(p)]
        context = [p for p in context if not options.excluded(p)]
    names = {path: display_path(path) for path in {*checked, *context}}
    checked_names = {names[p] for p in checked}
    every_file = sorted(names, key=names.__getitem__)
    records: dict[Path, str] = {}
    fingerprint: list[Any] = []
    for done, path in enumerate(every_file, start=1):
        result, key, identity = _load(path, names[path], schemas, cache, options.max_file_size)
        modeline = result.modeline_diagnostics()
        session.put(path, names[path], result, modeline)
        if key is not None:
            records[path] = key
        fingerprint.append((names[path], identity, [pack(d) for d in modeline]))
        if options.progress is not None:
            options.progress(done, len(every_file))
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
        report.add(_nothing_checked(options, found))
    corpus = session.corpus
    assert corpus is not None
    _attach_sources(report, session, options.max_file_size)
    _keep_memos(session, records, cache)
    cache.remember_run(run_key, (tuple(pack(d) for d in report.diagnostics),
                                 report.files_checked, tuple(report.sources.items())))
    cache.save()
    return CheckResult(report, corpus, session, cache, run_key, frozenset(checked_names))


def _load(path: Path, name: str, schemas: SchemaSet, cache: CheckCache,
          max_file_size: int | None) -> tuple[FileResult, str | None, Any]:
    """The file's result, its record key, and what identifies it in the run key."""
    limit = max_file_size or MAX_BYTES
    if not cache.enabled:
        raw, problem = read_bytes(path, name, limit)
        if raw is None:
            assert problem is not None
            return FileResult([problem], None), None, None
        text, problems = decode(raw, name)
        size = len(raw)
        del raw  # see check_decoded
        result = check_decoded(text, problems, path, name, schemas, max_file_size)
        _lighten(result, size)
        return result, None, None
    where = os.path.abspath(path)
    found = stat_of(path)
    can_read = readable(path)
    content = cache.known_digest(where, found) if found is not None and can_read else None
    if content is not None:
        key = record_key(content, name, limit)
        record = cache.record(key)
        if record is not None:
            result = from_record(record, path, name, max_file_size, schemas)
            if result.document is not None:
                result.document.content_key = content
            return result, key, (content, can_read)
    raw, problem = read_bytes(path, name, limit)
    if raw is None:
        assert problem is not None
        cache.forget_path(where)
        return FileResult([problem], None), None, (pack(problem), can_read)
    content, size = digest(raw), len(raw)
    if found is not None and trustworthy(found):
        cache.remember_digest(where, found, content)
    key = record_key(content, name, limit)
    record = cache.record(key)
    if record is not None:  # the same bytes elsewhere, or a copy: no need to parse again
        result = from_record(record, path, name, max_file_size, schemas)
    else:
        text, problems = decode(raw, name)
        del raw  # see check_decoded
        result = check_decoded(text, problems, path, name, schemas, max_file_size)
        cache.remember_record(key, result.to_record(size))
        _lighten(result, size)
    if result.document is not None:
        result.document.content_key = content
    return result, key, (content, can_read)


def _lighten(result: FileResult, size: int) -> None:
    """A large document that checked clean keeps the memos the rules derive from it
    alone, and its data packed (marshal, then zlib at its fastest level: a twentieth of
    the memory of the objects, unpacked again in a few milliseconds), so that a rule
    that needs the data (the story graph's analysis) holds one book's at a time. Documents read as meant (with schema errors)
    or recovered are left as they are; so are files too large for the fast parser,
    whose data is needed anyway and whose packed copy would only add to the peak."""
    document = result.document
    if (not STORED_DATA_BYTES < size <= PACKED_DATA_BYTES or document is None
            or not result.loaded or has_errors(result.diagnostics)):
        return
    top_fields_of(document)
    for remember in document_memos():
        remember(document)
    packed = zlib.compress(marshal.dumps(document.data), 1)  # prose: a quarter of marshal's
    document.let_go_of_data(lambda: marshal.loads(zlib.decompress(packed)))


def _run_key(options: CheckOptions, files: list[Any], checked: list[str]) -> str:
    """'<tree>:<state>': the tree is where and from where we check; the state, everything else."""
    roots = [os.path.realpath(p) for p in (*options.paths, *content_roots(options.paths))]
    tree = blake2b(repr((os.getcwd(), roots)).encode(), digest_size=12).hexdigest()
    state = blake2b(repr((
        sorted(options.select), sorted(options.ignore), options.max_file_size,
        options.whole_corpus, checked, [p.as_posix() for p in options.paths], files,
        _ignores_key(options.ignores),
        # The rules run: a report made without a registered rule is not one made with it.
        rule_names(),
    )).encode(), digest_size=16).hexdigest()
    return f"{tree}:{state}"


def _nothing_checked(options: CheckOptions, found: int) -> Diagnostic:
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


def _attach_sources(report: Report, session: CheckSession, max_file_size: int | None) -> None:
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

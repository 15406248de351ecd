"""`dmtool check` as a plain function: discover, load, pick the schema, validate, run rules."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, Report, Severity, diagnose
from dmtool.loading import SourceDocument, discover, read_document
from dmtool.loading.discovery import content_roots
from dmtool.loading.reading import MAX_BYTES, read_text
from dmtool.validation.as_meant import moved
from dmtool.validation.cache import CheckCache, FileEntry, Stamp, pack, stamp, unpack
from dmtool.validation.corpus import Corpus
from dmtool.validation.facts import (
    DocumentFacts,
    Standing,
    extract_facts,
    pack_facts,
    parts_at,
    unpack_facts,
)
from dmtool.validation.recovery import recover_data
from dmtool.validation.references import ReferenceWalker
from dmtool.validation.rules import rule_checks
from dmtool.validation.schema_errors import did_you_mean, explain_schema_errors
from dmtool.validation.schemas import SchemaSet, default_schema_dir

# Rule findings still reported inside a document that failed its schema or did not parse:
# a reference to nothing is a mistake of its own, not a consequence of the other.
OWN_CODES = frozenset({"DM202"})


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
    progress: Callable[[int, int], None] | None = None
    # None switches the cache off (the CLI's --no-cache; tests use their own folders).
    cache_dir: Path | None = None


def display_path(path: Path) -> str:
    """Paths as the user reads them: relative to the working directory when inside it."""
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute == cwd or absolute.startswith(cwd + os.sep):
        return Path(os.path.relpath(absolute, cwd)).as_posix()
    return Path(absolute).as_posix()


@dataclass
class CheckResult:
    """A check's report, and the corpus it built (None when the run was replayed from cache)."""

    report: Report
    corpus: Corpus | None


def run_check(options: CheckOptions) -> Report:
    """Check the given paths; cross-file rules see the whole enclosing corpus."""
    return check_and_load(options).report


def check_and_load(options: CheckOptions) -> CheckResult:
    """run_check, keeping the corpus for commands that go on to use it (e.g. the site)."""
    schemas = SchemaSet(options.schema_dir)
    cache = CheckCache.open(options.cache_dir, schema_dir=options.schema_dir)
    report = Report(select=options.select, ignore=options.ignore)
    checked, problems = discover(options.paths)
    context: list[Path] = []
    if options.whole_corpus:
        context, _ = discover(content_roots(options.paths))
    if options.excluded is not None:
        checked = [p for p in checked if not options.excluded(p)]
        context = [p for p in context if not options.excluded(p)]
    names = {path: display_path(path) for path in {*checked, *context}}
    checked_names = {names[p] for p in checked}
    every_file = sorted(names, key=names.__getitem__)
    stamps = {path: stamp(path) for path in every_file}
    run_key = cache.run_key(
        ((names[p], stamps[p]) for p in every_file),
        (sorted(options.select), sorted(options.ignore), options.max_file_size,
         sorted(checked_names), [p.as_posix() for p in options.paths]),
    )
    replay = cache.run(run_key)
    if replay is not None:
        return CheckResult(_replayed(report, replay), None)
    report.extend(problems)
    if not checked and not problems:
        shown = ", ".join(p.as_posix() for p in options.paths)
        report.add(diagnose("DM019", Location(shown), f"no YAML files found under {shown}"))
    corpus = Corpus(schemas=schemas)
    for done, path in enumerate(every_file, start=1):
        name = names[path]
        outcome = _cached_check(path, name, stamps[path], corpus, cache, options)
        if outcome.document is not None and outcome.facts is not None:
            corpus.add(outcome.document, outcome.facts)
        if name in checked_names:
            report.extend(outcome.diagnostics)
        if options.progress is not None:
            options.progress(done, len(every_file))
    report.files_checked = len(checked)
    corpus.settle()
    # A document with a mistake of its own reports that mistake; what rules conclude about
    # its (partly read) content would only repeat it. Its references are still judged.
    partial = {document.display for document in corpus.partial}
    for _name, rule in rule_checks():
        for diagnostic in rule(corpus):
            path = diagnostic.location.path
            if path in checked_names and (path not in partial or diagnostic.code in OWN_CODES):
                report.add(diagnostic)
    _attach_sources(report, {names[p]: p for p in every_file}, corpus, options.max_file_size)
    cache.remember_run(run_key, (tuple(pack(d) for d in report.diagnostics), report.files_checked,
                                 tuple(report.sources.items())))
    cache.save()
    return CheckResult(report, corpus)


def _replayed(report: Report, replay: tuple[Any, ...]) -> Report:
    diagnostics, files_checked, sources = replay
    report.diagnostics = [unpack(d) for d in diagnostics]
    report.files_checked = files_checked
    report.sources = dict(sources)
    return report


def _cached_check(
    path: Path, name: str, current: Stamp | None, corpus: Corpus, cache: CheckCache,
    options: CheckOptions,
) -> FileOutcome:
    """A file's own diagnostics, document and facts, from the cache when it is unchanged."""
    entry = cache.file(path, current)
    if entry is not None and entry.display == name:
        diagnostics = [unpack(d) for d in entry.diagnostics]
        if entry.facts is None:
            return FileOutcome(diagnostics)
        text, _ = read_text(path, name, max_bytes=options.max_file_size or MAX_BYTES)
        if text is not None:
            document = SourceDocument(path, name, text, entry.data, entry.modeline)
            return FileOutcome(diagnostics, document, unpack_facts(entry.facts))
    outcome = check_file(path, name, corpus.schemas, options.max_file_size, walker=corpus.walker())
    if current is not None:
        document, facts = outcome.document, outcome.facts
        cache.remember_file(path, FileEntry(
            current, name, [pack(d) for d in outcome.diagnostics],
            document.data if document is not None and facts is not None else None,
            document.modeline if document is not None else None,
            facts is not None and facts.standing is Standing.TRUSTED,
            pack_facts(facts) if facts is not None else None))
    return outcome


def _attach_sources(report: Report, paths: dict[str, Path], corpus: Corpus,
                    max_file_size: int | None) -> None:
    """Keep the text of every file that has a diagnostic, for the reporters' excerpts."""
    texts = {document.display: document.text for document in corpus.documents + corpus.partial}
    for name in {d.location.path for d in report.diagnostics} - set(report.sources):
        text = texts.get(name)
        if text is None and name in paths:
            text, _ = read_text(paths[name], name, max_bytes=max_file_size or MAX_BYTES)
        if text is not None:
            report.sources[name] = text


@dataclass
class FileOutcome:
    """One file checked on its own: its diagnostics, and what it contributes to the corpus.

    `document` is set whenever something could be read (also when the schema or even the
    parser failed: then `facts.standing` says so and the data is only partly trustworthy).
    """

    diagnostics: list[Diagnostic]
    document: SourceDocument | None = None
    facts: DocumentFacts | None = None

    @property
    def trusted(self) -> bool:
        return self.facts is not None and self.facts.standing is Standing.TRUSTED


def check_file(
    path: Path, name: str, schemas: SchemaSet, max_file_size: int | None, *,
    walker: ReferenceWalker | None = None,
) -> FileOutcome:
    """Load one file, pick its schema, validate it, and extract its facts."""
    result = read_document(path, name, max_bytes=max_file_size)
    document = result.document
    diagnostics = list(result.diagnostics)
    if document is None:
        return FileOutcome(diagnostics, *_recovered(path, name, diagnostics, schemas))
    kind = _kind(document, schemas, diagnostics)
    if kind is None:
        return FileOutcome(diagnostics)
    _check_modeline(document, kind, diagnostics)
    found, moves = explain_schema_errors(document, schemas.errors(kind, document.data),
                                         schemas=schemas, kind=kind)
    diagnostics.extend(found)
    if not any(d.severity is Severity.ERROR for d in found):
        facts = extract_facts(document.data, standing=Standing.TRUSTED, walker=walker)
        return FileOutcome(diagnostics, document, facts)
    # What the author meant, as far as misplaced keys go, is what other files see.
    meant = dataclasses.replace(document, data=moved(document.data, moves))
    broken = [parts_at(document.data, d.location.pointer) for d in found if d.code != "DM104"]
    facts = extract_facts(meant.data, standing=Standing.INVALID, walker=walker, broken=broken,
                          as_written=document.data)
    return FileOutcome(diagnostics, meant, facts)


def _recovered(path: Path, name: str, problems: list[Diagnostic],
               schemas: SchemaSet) -> tuple[SourceDocument | None, DocumentFacts | None]:
    """What can be read of a file that did not load: a partial document and its facts."""
    text, _ = read_text(path, name)
    data = recover_data(text, problems) if text is not None else None
    facts = extract_facts(data, standing=Standing.RECOVERED)
    if text is None or facts is None or facts.kind not in schemas.kinds:
        return None, None
    return SourceDocument(path, name, text, data), facts


def _kind(document: SourceDocument, schemas: SchemaSet, out: list[Diagnostic]) -> str | None:
    data = document.data
    if not isinstance(data, dict):
        out.append(diagnose("DM013", document.locate(()),
                            "the document must be a mapping that starts with 'kind:' and 'id:'"))
        return None
    if "kind" not in data:
        out.append(diagnose("DM014", document.locate(()),
                            "the document has no 'kind:' key, so no schema can be chosen",
                            hint="start the file with e.g. 'kind: coda'"))
        return None
    kind = data["kind"]
    if not isinstance(kind, str) or kind not in schemas.kinds:
        out.append(diagnose("DM015", document.locate(("kind",)),
                            f"unknown kind {kind!r}; known kinds: {', '.join(sorted(schemas.kinds))}",
                            hint=did_you_mean(str(kind), schemas.kinds)))
        return None
    return kind


def _check_modeline(document: SourceDocument, kind: str, out: list[Diagnostic]) -> None:
    expected = f"{kind}.schema.json"
    modeline = document.modeline
    if modeline is None:
        out.append(diagnose("DM017", Location(document.display, 1, 1),
                            f"the file has no schema modeline; add "
                            f"'# yaml-language-server: $schema=<path to schemas/{expected}>' as its first line"))
        return
    line = _modeline_line(document)
    where = Location(document.display, line, 1)
    if Path(modeline).name != expected:
        out.append(diagnose("DM016", where,
                            f"the modeline names schema '{Path(modeline).name}' but the document is "
                            f"of kind '{kind}', whose schema is '{expected}'"))
    elif "://" not in modeline and not (document.path.parent / modeline).is_file():
        out.append(diagnose("DM018", where,
                            f"the modeline's schema path '{modeline}' does not exist relative to this file"))


def _modeline_line(document: SourceDocument) -> int:
    for number, text in enumerate(document.text.splitlines(), start=1):
        if "yaml-language-server:" in text and "$schema=" in text:
            return number
    return 1

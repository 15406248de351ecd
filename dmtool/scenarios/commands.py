"""`dmtool test` as a plain function: find fixtures, run them, stream text through `emit`."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dmtool import __version__
from dmtool.diagnostics import Diagnostic, Report
from dmtool.errors import UsageError
from dmtool.loading import SourceDocument, discover, read_document
from dmtool.model.content_index import default_content_dir, index_for
from dmtool.reporters import render
from dmtool.scenarios import report
from dmtool.scenarios.coverage import uncovered
from dmtool.scenarios.runner import FixtureResult, run_document
from dmtool.scenarios.select import compile_keyword
from dmtool.scenarios.special_coverage import SpecialCoverage, coverage
from dmtool.validation.gate import content_errors
from dmtool.validation.schema_errors import did_you_mean
from dmtool.validation.schemas import SchemaSet, default_schema_dir

DEFAULT_PATHS = (Path("tests/scenarios"),)
FORMATS = ("text", "json")


@dataclass(frozen=True)
class ScenarioOptions:
    """What `dmtool test` was asked to do."""

    paths: tuple[Path, ...] = DEFAULT_PATHS
    keyword: str | None = None
    explain: bool = False
    coverage: bool = False
    format: str = "text"


@dataclass
class ScenarioRun:
    results: list[FixtureResult] = field(default_factory=list)
    deselected: int = 0
    uncovered: list[str] | None = None
    special: SpecialCoverage | None = None
    exit_code: int = 0


def run_tests(options: ScenarioOptions, *,
              emit: Callable[[str], None] = lambda _: None) -> ScenarioRun:
    """Run the fixtures under `options.paths`; text goes to `emit` (raw, with newlines).

    Exit code: 0 when every selected fixture passed (or was skipped), 1 when any failed.
    Raises UsageError for unusable options (the CLI maps it to exit code 2).
    """
    if options.format not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}.")
    select = compile_keyword(options.keyword) if options.keyword else None
    documents, problems = _documents(options.paths)
    run = ScenarioRun()
    text = options.format == "text"
    selected = []
    for doc in documents:
        searchable = " ".join([doc.data.get("id", ""), str(doc.data.get("title", "")),
                               doc.display, *doc.data.get("rules", [])])
        if select is None or select(searchable):
            selected.append(doc)
        else:
            run.deselected += 1
    if text:
        emit(f"collected {len(selected)} scenario fixture(s)"
             f"{f' ({run.deselected} deselected)' if run.deselected else ''}\n")
    column = 0
    for doc in selected:
        result = run_one(doc)
        run.results.append(result)
        if text:
            emit(report.mark(result))
            column += 1
            if column == report.WIDTH:
                emit(f" [{100 * len(run.results) // len(selected):3d}%]\n")
                column = 0
    if text and column:
        emit(" " * (report.WIDTH - column) + " [100%]\n")
    if options.coverage:
        run.uncovered = uncovered(r.rules for r in _all_rules(documents))
        run.special = coverage(index_for(default_content_dir()), (d.data for d in documents))
    content = _content_errors(selected)
    if text:
        if content.diagnostics:
            emit("\n=== CONTENT ERRORS (the content the fixtures borrow from) ===\n")
            emit(render(content, fmt="text", color=False, tool_version=__version__))
        _emit_text(run, options, problems, emit)
    else:
        data = json.loads(report.to_json(run.results, uncovered=run.uncovered,
                                         problems=problems))
        data["content_diagnostics"] = json.loads(
            render(content, fmt="json", color=False, tool_version=__version__))["diagnostics"]
        emit(json.dumps(data, indent=2) + "\n")
    failed = any(r.status in ("failed", "error") for r in run.results)
    run.exit_code = 1 if failed or problems or content.diagnostics else 0
    return run


def _content_errors(fixtures: Sequence[SourceDocument]) -> Report:
    """The errors `dmtool check` finds in each content folder the fixtures run on (their
    `content:` folder, or the repository's content/)."""
    roots: dict[Path, None] = {}
    for doc in fixtures:
        declared = doc.data.get("content")
        root = Path(doc.path).parent / declared if isinstance(declared, str) else (
            default_content_dir())
        if root.is_dir():
            roots[root.resolve()] = None
    found = Report()
    for root in roots:
        errors = content_errors([root])
        found.diagnostics += errors.diagnostics
        found.sources.update(errors.sources)
        found.files_checked += errors.files_checked
    return found


def _all_rules(documents: Sequence[SourceDocument]) -> list[FixtureResult]:
    return [FixtureResult(d.display, str(d.data.get("id")), rules=list(d.data.get("rules", [])))
            for d in documents]


def _emit_text(run: ScenarioRun, options: ScenarioOptions, problems: list[str],
               emit: Callable[[str], None]) -> None:
    failures = [r for r in run.results if r.status in ("failed", "error")]
    if failures:
        emit("\n=== FAILURES ===\n")
        for result in failures:
            emit(report.failure_section(result, log_tail=0 if options.explain else 25) + "\n")
    if options.explain:
        emit("\n=== EVENT LOGS ===\n")
        for result in run.results:
            if result.status != "skipped":
                emit(report.explain_section(result) + "\n")
    skipped = [r for r in run.results if r.status == "skipped"]
    for result in skipped:
        emit(f"SKIPPED {result.path}: {result.skip_reason}\n")
    for problem in problems:
        emit(problem + "\n")
    if run.uncovered is not None:
        listed = ", ".join(run.uncovered) if run.uncovered else "none"
        emit(f"rule ids without a fixture ({len(run.uncovered)}): {listed}\n")
    if run.special is not None:
        emit(run.special.line() + "\n")
        for line in run.special.listing():
            emit(line + "\n")
    emit(report.summary_line(run.results) + "\n")


def _documents(paths: Sequence[Path]) -> tuple[list[SourceDocument], list[str]]:
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"{missing[0]} does not exist; give a fixture file or a folder of "
                         "fixtures (default: tests/scenarios).")
    files, _ = discover(list(paths))
    documents: list[SourceDocument] = []
    problems: list[str] = []
    kinds = SchemaSet(default_schema_dir()).kinds
    for path in files:
        loaded = read_document(path)
        if loaded.document is None:
            problems.extend(f"{d.location}: {d.severity.value} {d.code} {d.message}"
                            for d in loaded.diagnostics)
            continue
        data = loaded.document.data
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind == "scenario":
            documents.append(loaded.document)
        elif kind not in kinds:
            # Other kinds (a campaign state a fixture reads) live beside fixtures; a file
            # of no kind dmtool knows is most likely a fixture with a typo: never skip it
            # silently.
            where = loaded.document.locate(("kind",) if kind is not None else ())
            hint = did_you_mean(str(kind), kinds) if kind is not None else None
            problems.append(
                f"{where}: error DM015 {'no kind' if kind is None else f'unknown kind {kind!r}'}"
                f"; dmtool test runs documents of kind: scenario"
                f"{f' ({hint})' if hint else ''}")
    if not documents and not problems:
        raise UsageError(f"No scenario fixtures (kind: scenario) were found under "
                         f"{', '.join(map(str, paths))}.")
    return documents, problems


def folder_diagnostics(folder: Path) -> list[Diagnostic]:
    """Every diagnostic of the fixtures in a folder (static checks and runs), with paths
    shown relative to the folder: what a tests/cases/DM4xx case expects."""
    found: list[Diagnostic] = []
    files, _ = discover([folder])
    for path in files:
        loaded = read_document(path, path.relative_to(folder).as_posix())
        found.extend(loaded.diagnostics)
        if loaded.document is not None and loaded.document.data.get("kind") == "scenario":
            found.extend(run_one(loaded.document).diagnostics)
    return sorted(found, key=Diagnostic.sort_key)


def run_one(doc: SourceDocument) -> FixtureResult:
    """Run one loaded fixture: schema, static checks, then the engine."""
    return run_document(doc)

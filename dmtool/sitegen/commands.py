"""`dmtool site` as a plain function: check the content, generate pages, build with MkDocs.

The report is the check's own (`dmtool check` on the same folder prints the same words and
counts). Content with errors is not published unless `allow_errors`. It never prints or
exits: the CLI echoes `SiteResult.text` and `messages` (notes for standard error) and exits
with `exit_code`. Unusable options raise UsageError.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.diagnostics import Report, Severity
from dmtool.errors import UsageError
from dmtool.reporters import render
from dmtool.sitegen.balance import read_balance
from dmtool.sitegen.build import SiteBuildError, build_site, check_output
from dmtool.sitegen.maps import draw_all
from dmtool.sitegen.site import map_pages, site_pages
from dmtool.validation.pipeline import CheckOptions, check_and_load

DEFAULT_CONTENT = Path("content")
DEFAULT_OUT = Path("site")
FORMATS = ("text", "json")


@dataclass(frozen=True, kw_only=True)
class SiteOptions:
    content: Path = DEFAULT_CONTENT
    out: Path = DEFAULT_OUT
    fmt: str = "text"
    force: bool = False  # replace an earlier dmtool site although files were added to it
    dry_run: bool = False  # build in a temporary folder only, write nothing
    allow_errors: bool = False  # build even when the check finds errors
    # Hand-written pages (index.md and guides); None means the docs/ folder beside content.
    docs_dir: Path | None = None
    # What `dmtool check` would use from the configuration (the CLI reads it).
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    max_file_size: int | None = None
    max_nesting: int | None = None
    excluded: Callable[[Path], bool] | None = None
    # The click command group, for the command-line reference page (None: no such page).
    commands: Any = None
    # Balance reports (`dmtool balance --json`), each shown on its wanderer's page.
    balance: tuple[Path, ...] = ()


@dataclass(frozen=True)
class SiteResult:
    text: str  # the report, in the chosen format
    report: Report
    pages: int = 0
    messages: tuple[str, ...] = ()  # notes for standard error
    exit_code: int = 0


def run_site(options: SiteOptions) -> SiteResult:
    """Exit code 0 built, 1 content errors (nothing built) or site errors; UsageError else."""
    if options.fmt not in FORMATS:
        raise UsageError(f"unknown format {options.fmt!r}; choose text or json")
    if not options.content.is_dir():
        raise UsageError(f"no content folder at {options.content.as_posix()}; give the folder "
                         "that holds the YAML content, e.g. dmtool site content/")
    balance = read_balance(options.balance)
    if not options.dry_run:
        check_output(options.out, force=options.force, protected=(options.content,))
    check = CheckOptions(paths=(options.content,), cache_dir=None, select=options.select,
                         ignore=options.ignore, excluded=options.excluded,
                         max_nesting=options.max_nesting,
                         **({"max_file_size": options.max_file_size}
                            if options.max_file_size is not None else {}))
    # Without a cache the check always builds its corpus, and the site reuses it.
    result = check_and_load(check)
    report, corpus = result.report, result.corpus
    assert corpus is not None
    text = render(report, fmt=options.fmt, color=False, tool_version=__version__)
    errors = report.counts()[Severity.ERROR]
    if errors and not options.allow_errors:
        note = (f"the content has {errors} error{'s' if errors != 1 else ''}, so no site was "
                "built; fix them, or pass --allow-errors to build it from what is valid")
        return SiteResult(text, report, messages=(note,), exit_code=1)
    built = site_pages(corpus, docs_dir=_docs_dir(options), commands=options.commands,
                       errors=errors, balance=balance)
    pictures, problems = draw_all(built.pictures)
    pages = [*built.pages, *map_pages(built.map_pages, problems), *pictures]
    try:
        logged = build_site(pages, built.nav, out=options.out, dry_run=options.dry_run,
                            force=options.force, protected=(options.content,))
    except SiteBuildError as error:
        return SiteResult(text, report, messages=(f"{error}; nothing was written",),
                          exit_code=1)
    messages = [f"mkdocs: {m}" for m in logged]
    if problems:
        messages.append(f"{len(problems)} branch picture(s) not drawn: "
                        + next(iter(problems.values())))
    where = "a temporary folder (--dry-run)" if options.dry_run else options.out.as_posix()
    count = sum(1 for p in pages if p.path.endswith(".md"))
    if errors:
        messages.append(f"built despite {errors} content error{'s' if errors != 1 else ''} "
                        "(--allow-errors); documents with errors are left out")
    messages.append(f"built {count} pages into {where}")
    return SiteResult(text, report, count, tuple(messages), 0)


def _docs_dir(options: SiteOptions) -> Path | None:
    if options.docs_dir is not None:
        return options.docs_dir
    candidate = options.content.resolve().parent / "docs"
    return candidate if candidate.is_dir() else None

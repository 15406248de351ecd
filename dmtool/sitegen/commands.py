"""`dmtool site` as a plain function: check the content, generate pages, build with MkDocs.

It never prints or exits: the CLI echoes `SiteResult.text` (the report) and `messages`
(notes for standard error) and exits with `exit_code`. Unusable options raise UsageError.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dmtool import __version__
from dmtool.diagnostics import Report, Severity
from dmtool.errors import UsageError
from dmtool.sitegen.pages import Nav, Page

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
    # Hand-written pages (index.md and guides); None means the docs/ folder beside content.
    docs_dir: Path | None = None


@dataclass(frozen=True)
class SiteResult:
    text: str  # the report, in the chosen format
    report: Report
    pages: int = 0
    messages: tuple[str, ...] = ()  # notes for standard error
    exit_code: int = 0


def run_site(options: SiteOptions) -> SiteResult:
    """Exit code 0 built, 1 content errors (nothing built) or site errors; UsageError else."""
    from dmtool.reporters import render
    from dmtool.sitegen.build import build_site, check_output
    from dmtool.sitegen.safety import prose_diagnostics
    from dmtool.validation.pipeline import CheckOptions, check_and_load

    if options.fmt not in FORMATS:
        raise UsageError(f"unknown format {options.fmt!r}; choose text or json")
    if not options.content.is_dir():
        raise UsageError(f"no content folder at {options.content.as_posix()}; give the folder "
                         "that holds the YAML content, e.g. dmtool site content/")
    if not options.dry_run:
        check_output(options.out, force=options.force, protected=(options.content,))
    # Without a cache the check always builds its corpus, and the site reuses it.
    result = check_and_load(CheckOptions(paths=(options.content,), cache_dir=None))
    checked, corpus = result.report, result.corpus
    assert corpus is not None
    if checked.exit_code() != 0:
        text = render(checked, fmt=options.fmt, color=False, tool_version=__version__)
        note = "the content has errors, so no site was built; fix them and run dmtool site again"
        return SiteResult(text, checked, messages=(note,), exit_code=1)
    report = Report(diagnostics=prose_diagnostics(corpus.documents),
                    files_checked=checked.files_checked)
    report.sources = {d.display: d.text for d in corpus.documents
                      if d.display in {x.location.path for x in report.diagnostics}}
    pages, nav = site_pages(corpus, docs_dir=_docs_dir(options))
    errors = any(d.severity is Severity.ERROR for d in report.diagnostics)
    messages: list[str] = []
    if not errors:
        messages += [f"mkdocs: {m}" for m in build_site(
            pages, nav, out=options.out, dry_run=options.dry_run, force=options.force,
            protected=(options.content,))]
        where = "a temporary folder (--dry-run)" if options.dry_run else options.out.as_posix()
        messages.append(f"built {len(pages)} pages into {where}")
    text = render(report, fmt=options.fmt, color=False, tool_version=__version__)
    return SiteResult(text, report, len(pages), tuple(messages), 1 if errors else 0)


def site_pages(corpus: object, *, docs_dir: Path | None) -> tuple[list[Page], Nav]:
    """Every page of the site and the nav that orders them."""
    from dmtool.sitegen.pages import group
    from dmtool.sitegen.reference import DIAGNOSTICS_PAGE, diagnostics_page, guide_pages, home_page
    from dmtool.sitegen.rules import core_pages, expansion_pages
    from dmtool.sitegen.wanderers import wanderer_pages

    groups = group(corpus.documents)  # type: ignore[attr-defined]
    taken: set[str] = set()
    core, core_nav = core_pages(groups.core, taken=taken)
    expansions, expansion_nav = expansion_pages(groups.expansions, taken=taken)
    wanderers, wanderer_nav = wanderer_pages(groups.wanderers, corpus)
    guides, home = guide_pages(docs_dir)
    links = [(title, _first_page(nav)) for title, nav in
             (("Dawn of Madness rules", core_nav), ("Deep Madness expansions", expansion_nav),
              ("Wanderers", wanderer_nav)) if nav]
    links.append(("Diagnostics reference", DIAGNOSTICS_PAGE))
    pages = [home_page(home, sections=links), *guides, *core, *expansions, *wanderers,
             diagnostics_page()]
    nav: Nav = [{"Home": "index.md"}]
    if guides:
        nav.append({"Guides": [page.path for page in guides]})
    nav += [{title: part} for title, part in (("Dawn of Madness", core_nav),
                                              ("Deep Madness", expansion_nav),
                                              ("Wanderers", wanderer_nav)) if part]
    nav.append({"Diagnostics": DIAGNOSTICS_PAGE})
    return pages, nav


def _first_page(nav: Nav) -> str:
    """The path of the first page in a nav section, for the home page's links."""
    value: object = nav
    while isinstance(value, (list, dict)):
        value = value[0] if isinstance(value, list) else next(iter(value.values()))
    return str(value)


def _docs_dir(options: SiteOptions) -> Path | None:
    if options.docs_dir is not None:
        return options.docs_dir
    candidate = options.content.resolve().parent / "docs"
    return candidate if candidate.is_dir() else None

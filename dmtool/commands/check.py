"""`dmtool check` behind the CLI: configuration, the pipeline, a reporter, an exit code."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dmtool import __version__
from dmtool.errors import UsageError
from dmtool.validation.cache import default_directory as default_cache_directory
from dmtool.validation.parallel import resolve_jobs
from dmtool.validation.pipeline import CheckOptions, run_check
from dmtool.validation.suppressions import IgnoreSettings

if TYPE_CHECKING:
    from dmtool.config import Config
    from dmtool.diagnostics import Report

DEFAULT_PATHS = (Path("content"),)
# Show a progress bar only for runs long enough to need one.
PROGRESS_MIN_FILES = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckRequest:
    """The flags of one `dmtool check` call; None means 'not given on the command line'."""

    paths: tuple[Path, ...] = ()
    fmt: str | None = None
    strict: bool | None = None
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    color: bool | None = None
    output: Path | None = None
    no_cache: bool = False
    statistics: bool = False
    jobs: int = 0  # processes: 0 means one per usable core


@dataclass(frozen=True, slots=True, kw_only=True)
class Surroundings:
    """What a run takes from where it runs, beside its flags: the check itself, the
    environment, whether standard output is a terminal, where the report goes, and whether
    a long run shows a progress bar. The daemon answers a `dmtool check` with its own."""

    check: Callable[[CheckOptions], Report] = run_check
    # This process's environment itself (the mapping, not a copy).
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    terminal: bool | None = None  # None: ask sys.stdout
    write: Callable[[str], object] | None = None  # None: sys.stdout.write
    progress: bool = True


_HERE = Surroundings()


def run(request: CheckRequest, around: Surroundings = _HERE) -> int:
    """Run the check, write the report, and return the exit code."""
    from dmtool.config import load_config
    from dmtool.reporters import render

    config = load_config(Path.cwd()).merged(
        select=tuple(request.select), ignore=tuple(request.ignore), strict=request.strict,
        format=request.fmt, paths=request.paths,
    )
    paths = default_paths(config)
    fmt = request.fmt or (config.format if config.source else None) or (
        "github" if around.environ.get("GITHUB_ACTIONS") == "true" else "text"
    )
    terminal = sys.stdout.isatty() if around.terminal is None else around.terminal
    to_terminal = request.output is None and terminal
    color = (to_terminal and not around.environ.get("NO_COLOR") if request.color is None
             else request.color)
    if request.statistics and request.fmt in ("github", "sarif"):
        raise UsageError(f"--statistics prints text or json, not {request.fmt}; use "
                         "--format json for a machine-readable count")
    missing = [p for p in paths if not p.exists() and not p.is_symlink()]
    if missing and len(missing) == len(paths):
        raise UsageError(f"no such file or folder: {', '.join(p.as_posix() for p in missing)}")
    if request.output is not None:
        from dmtool.writing import check_report_path

        check_report_path(request.output, content_roots=paths)  # refuse before the work
    with _ProgressBar(shown=around.progress) as progress:
        report = around.check(_options(
            config, tuple(paths), progress=progress, jobs=request.jobs,
            cache_dir=None if request.no_cache else default_cache_directory()))
    if request.statistics:
        from dmtool.reporters.statistics import render_statistics

        text = render_statistics(report, fmt="json" if fmt == "json" else "text")
    else:
        text = render(report, fmt=fmt, color=bool(color), tool_version=__version__)
    if request.output is not None:
        from dmtool.writing import write_report

        write_report(request.output, text, content_roots=paths)
    else:
        (around.write or sys.stdout.write)(text)
    return report.exit_code(strict=config.strict)


def default_paths(config: Config) -> tuple[Path, ...]:
    """What a command reads when given no path: the configuration's `paths` (or the
    paths given, merged in), else its `content`, else content/ here. The same for check,
    graph and odds."""
    return config.paths or ((config.content,) if config.content else DEFAULT_PATHS)


def given_or_default_paths(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """The paths given, else default_paths() of the configuration here."""
    from dmtool.config import load_config

    return paths or default_paths(load_config(Path.cwd()))


def check_options(paths: tuple[Path, ...]) -> CheckOptions:
    """The options `dmtool check PATHS` runs with here (the configuration's select, ignore,
    per-file ignores, exclude and size limit; the check cache): what `graph` and `odds` run
    first, so they report what `check` reports and share its cached runs."""
    from dmtool.config import load_config

    config = load_config(Path.cwd()).merged(paths=paths)
    return _options(config, paths, cache_dir=default_cache_directory())


def _options(config: Config, paths: tuple[Path, ...], *, cache_dir: Path | None,
             progress: Callable[[int, int], None] | None = None, jobs: int = 0) -> CheckOptions:
    return CheckOptions(paths=paths, select=frozenset(config.select), jobs=resolve_jobs(jobs),
                        ignore=frozenset(config.ignore), progress=progress,
                        max_file_size=config.max_file_size, max_nesting=config.max_nesting,
                        cache_dir=cache_dir,
                        excluded=config.is_excluded if config.exclude else None,
                        excluded_by=_exclusion(config),
                        ignores=IgnoreSettings(config.per_file_ignores, config.source,
                                               config.matches))


def _exclusion(config: Config) -> str:
    """The exclusion as DM019 names it: the patterns and the file that sets them."""
    patterns = ", ".join(repr(p) for p in config.exclude)
    where = f" in {config.source.as_posix()}" if config.source else ""
    return f"'exclude' ({patterns}){where}"


class _ProgressBar:
    """A click progress bar on standard error, shown only on a terminal for long runs."""

    def __init__(self, *, shown: bool) -> None:
        self._bar: Any = None
        self._shown = shown

    def __enter__(self) -> Callable[[int, int], None] | None:
        return self._update if self._shown and sys.stderr.isatty() else None

    def _update(self, done: int, total: int) -> None:
        if total < PROGRESS_MIN_FILES:
            return
        if self._bar is None:
            import click

            self._bar = click.progressbar(length=total, label="Checking", file=sys.stderr)
            self._bar.__enter__()
        self._bar.update(1)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)

"""The check a command runs on the content it is about to use (`odds`, `play`, `test`): the
same pipeline as `dmtool check`, through the same cache, keeping the errors, so the command
can print them and exit 1 instead of running silently on broken content."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from dmtool.diagnostics import Report, Severity
from dmtool.loading import discover
from dmtool.loading.discovery import content_roots
from dmtool.validation.cache import default_directory
from dmtool.validation.pipeline import CheckOptions, run_check

# Reports already made in this process, by what they depend on (every file's identity and
# times): the same process often checks the same tree again (several games, fixtures).
_SEEN: dict[tuple[object, ...], Report] = {}


def content_errors(paths: Sequence[Path]) -> Report:
    """The error-severity diagnostics `dmtool check PATHS` reports (sources attached)."""
    key = _state(paths)
    found = _SEEN.get(key)
    if found is not None:
        return found
    report = run_check(CheckOptions(paths=tuple(paths), cache_dir=default_directory(),
                                    trees=tuple(p for p in paths if p.is_dir())))
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    found = Report(
        diagnostics=errors,
        files_checked=report.files_checked,
        sources={d.location.path: report.sources[d.location.path]
                 for d in errors if d.location.path in report.sources},
    )
    _SEEN[key] = found
    return found


def _state(paths: Sequence[Path]) -> tuple[object, ...]:
    files, problems = discover([*paths, *content_roots(list(paths))])
    stamps: list[object] = [os.getcwd(), *map(str, paths), len(problems)]
    for path in sorted(set(files)):
        try:
            st = path.stat()
        except OSError:
            stamps.append((str(path), None))
            continue
        stamps.append((str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(stamps)

"""`dmtool fmt` and `dmtool new` as plain functions: options in, a result value out.

Neither prints nor exits; the CLI renders `FmtResult.summary()` / `NewResult.summary()`,
prints the diffs, and exits with `exit_code`.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from dmtool.authoring.fmt import WIDTH, FormatError, format_text
from dmtool.authoring.keyorder import KeyOrder
from dmtool.authoring.scaffold import NewOptions, NewResult, run_new
from dmtool.diagnostics import Diagnostic, Severity
from dmtool.errors import UsageError
from dmtool.loading import discover, load_text
from dmtool.loading.collector import collector_paused
from dmtool.loading.reading import decode, read_bytes
from dmtool.validation.pipeline import display_path
from dmtool.validation.schemas import default_schema_dir
from dmtool.writing import ChangedMeanwhile, rewrite_file

DEFAULT_PATHS = (Path("content"),)

__all__ = ["FmtOptions", "FmtResult", "NewOptions", "NewResult", "Skipped", "run_fmt", "run_new"]


@dataclass(frozen=True, kw_only=True)
class FmtOptions:
    """What `dmtool fmt` formats and whether it may write."""

    paths: tuple[Path, ...] = ()
    check: bool = False  # never write; exit 1 if a file would change (for CI)
    diff: bool = False  # never write; return a unified diff per file that would change
    schema_dir: Path = field(default_factory=default_schema_dir)
    width: int = WIDTH


@dataclass(frozen=True)
class Skipped:
    """A file left untouched because formatting it would not be safe."""

    display: str
    reason: str


@dataclass
class FmtResult:
    """What `dmtool fmt` did or would do."""

    files: int = 0
    changed: list[str] = field(default_factory=list)  # display paths
    diffs: list[str] = field(default_factory=list)  # unified diffs (with check or diff)
    problems: list[Diagnostic] = field(default_factory=list)  # files that do not load
    skipped: list[Skipped] = field(default_factory=list)
    wrote: bool = False
    exit_code: int = 0

    def summary(self) -> str:
        """Human-readable lines for standard error."""
        lines = [f"{d.location}: {d.severity.value} {d.code} {d.message}" for d in self.problems]
        lines += [f"{s.display}: left untouched: {s.reason}" for s in self.skipped]
        lines += [f"{'reformatted' if self.wrote else 'would reformat'} {name}"
                  for name in self.changed]
        untouched = len(self.problems) + len(self.skipped)
        done = self.files - len(self.changed) - untouched
        verb = "reformatted" if self.wrote else "would be reformatted"
        tail = f"{len(self.changed)} file(s) {verb}, {done} already formatted"
        if untouched:
            tail += f", {untouched} left untouched"
        return "\n".join([*lines, tail + "."])


def run_fmt(options: FmtOptions) -> FmtResult:
    """Format (or with check/diff, compare) every YAML file under `options.paths`."""
    paths = options.paths or DEFAULT_PATHS
    missing = [p for p in paths if not p.exists()]
    if missing and len(missing) == len(paths):
        raise UsageError(f"no such file or folder: {', '.join(p.as_posix() for p in missing)}")
    files, problems = discover(paths)
    result = FmtResult(files=len(files), problems=list(problems))
    writing = not (options.check or options.diff)
    order = KeyOrder(options.schema_dir)
    for path in files:
        display = display_path(path)
        # One pause of the cycle collector per file (see collector_paused): the loaded data
        # is dropped before it wakes, or its first pass would walk all of it.
        with collector_paused():
            _format_one(path, display, options, order, result, writing=writing)
    result.wrote = writing
    failed = bool(result.problems or result.skipped)
    result.exit_code = 1 if failed or (options.check and result.changed) else 0
    return result


def _format_one(path: Path, display: str, options: FmtOptions, order: KeyOrder,
                result: FmtResult, *, writing: bool) -> None:
    """Format one file. dmtool's loader reads it only when the layout changes (to prove the
    data does not) or when the formatter cannot handle it (to say why, with locations):
    an already formatted file costs one parse, as in `dmtool check`."""
    raw, unreadable = read_bytes(path, display)
    if unreadable is not None:
        result.problems.append(unreadable)
        return
    assert raw is not None
    text, problems = decode(raw, display)
    if text is None:
        result.problems.extend(problems)
        return
    before = raw.decode("utf-8")  # decode() vetted the encoding
    try:
        after = format_text(before, order=order, width=options.width)
    except FormatError as exc:
        loaded = load_text(text, path=path, display=display)
        errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
        if loaded.document is None or errors:
            result.problems.extend(errors or loaded.diagnostics)
        else:
            result.skipped.append(Skipped(display, str(exc)))
        return
    if after == before:
        return
    if writing:
        try:
            rewrite_file(path, after, expected=raw)  # through a symlink, not over it
        except ChangedMeanwhile:  # an editor saved meanwhile: the author's bytes win
            result.skipped.append(Skipped(display, "it changed while dmtool was formatting "
                                          "it; run the command again"))
            return
    else:
        result.diffs.append(unified_diff(before, after, display))
    result.changed.append(display)


def unified_diff(before: str, after: str, display: str) -> str:
    """A unified diff from the file as it is to the file as `dmtool fmt` would write it."""
    lines = difflib.unified_diff(
        before.removeprefix("\ufeff").replace("\r\n", "\n").splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=display,
        tofile=f"{display} (formatted)",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)

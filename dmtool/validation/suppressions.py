"""Suppressions, as ruff has them: `# dmtool: ignore[CODES] reason` and per-file ignores.

A comment `# dmtool: ignore[DM222] the rulebook gives no reason` at the end of a line
silences those codes on that line; on a line of its own it silences them on the next line
that holds something; `# dmtool: ignore-file[DM017] reason` silences them in the whole
file. The configuration's `per-file-ignores` does the same for files matching a pattern.
Every suppression needs a reason (DM021 otherwise, though it still applies), and one that
silences nothing, or names no code, is reported (DM022), as ruff's RUF100 does.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, Report, catalogue, diagnose
from dmtool.loading import SourceDocument
from dmtool.patterns import lazy

_COMMENT = lazy(
    r"#\s*dmtool:\s*(?P<scope>ignore-file|ignore)\s*(?:\[(?P<codes>[^\]]*)\])?(?P<reason>.*)$")
# Codes never silenced by a suppression: they are about suppressions.
OWN = frozenset({"DM021", "DM022"})


@dataclass(frozen=True, slots=True)
class FileIgnore:
    """One `per-file-ignores` entry of the configuration (its repr is part of the run key)."""

    pattern: str
    codes: tuple[str, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Suppression:
    """Codes silenced in one file: on one line, or everywhere (`line` None).

    Suppressions of one `group` (a per-file ignore matching several files) are used, and
    reported, together.
    """

    path: str  # display path of the file it silences diagnostics in
    codes: tuple[str, ...]
    reason: str
    where: Location  # the comment, or the configuration line
    line: int | None = None
    group: object = None

    def silences(self, diagnostic: Diagnostic) -> str | None:
        """The code (or prefix) of this suppression that silences `diagnostic`, if any."""
        loc = diagnostic.location
        if diagnostic.code in OWN or loc.path != self.path:
            return None
        if self.line is not None and loc.line != self.line:
            return None
        return next((c for c in self.codes if diagnostic.code.startswith(c)), None)


@dataclass(frozen=True, slots=True)
class IgnoreSettings:
    """The configuration's per-file ignores, with the file they were read from."""

    entries: tuple[FileIgnore, ...]
    source: Path | None
    # Whether a pattern matches a path (the configuration's own matching, as for exclude).
    matches: Callable[[str, Path], bool]


# The memo under which a document keeps its suppression comments (with the file's record).
COMMENTS_MEMO = "validation.suppressions/1"


def comments_of(document: SourceDocument) -> list[Suppression]:
    """A document's suppression comments, found once per content and remembered."""
    packed = document.memo(
        COMMENTS_MEMO,
        lambda d: tuple((c.codes, c.reason, c.where.line, c.where.column, c.line)
                        for c in comments(d.text, d.display)),
        check=_are_packed_comments)
    path = document.display
    return [Suppression(path, tuple(codes), reason, Location(path, line, column), target)
            for codes, reason, line, column, target in packed]


def _are_packed_comments(value: Any) -> bool:
    """Shape check of the memo read back from the cache, down to every leaf."""
    return type(value) is tuple and all(
        type(v) is tuple and len(v) == 5 and type(v[0]) is tuple
        and all(type(code) is str for code in v[0]) and type(v[1]) is str
        and type(v[2]) is int and type(v[3]) is int and (v[4] is None or type(v[4]) is int)
        for v in value)


def comments(text: str, path: str) -> list[Suppression]:
    """The suppression comments of a file's text (none in quoted or block scalars)."""
    if "dmtool:" not in text:
        return []
    lines = text.split("\n")
    found: list[Suppression] = []
    covered = _scalar_spans(text)
    for number, line in enumerate(lines, start=1):
        column = _comment_start(line, number, covered)
        match = _COMMENT.match(line, column) if column is not None else None
        if match is None or column is None:
            continue
        target: int | None = number
        if match["scope"] == "ignore-file":
            target = None
        elif not line[:column].strip():
            target = _next_content_line(lines, number)
        codes = tuple(c.strip().upper() for c in re.split(r"[,\s]+", match["codes"] or "")
                      if c.strip())
        found.append(Suppression(path, codes, match["reason"].strip(),
                                 Location(path, number, column + 1), target))
    return found


def _comment_start(line: str, number: int, covered: list[Any]) -> int | None:
    """Where the line's comment starts: the first '#' after a blank that is not in a scalar."""
    for column, char in enumerate(line):
        if char == "#" and (column == 0 or line[column - 1] in " \t") \
                and not _inside(covered, (number - 1, column)):
            return column
    return None


def _next_content_line(lines: list[str], number: int) -> int:
    for index in range(number, len(lines)):
        stripped = lines[index].strip()
        if stripped and not stripped.startswith("#"):
            return index + 1
    return number


def _scalar_spans(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where each scalar token starts and ends (0-based line, column): a '#' inside is text."""
    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    try:
        for token in _tokens(text):
            if type(token).__name__ == "ScalarToken":
                start, end = token.start_mark, token.end_mark
                spans.append(((start.line, start.column), (end.line, end.column)))
    except Exception:  # the parser may raise anything on bad input
        pass  # a file that does not parse: the comments found by text are trusted
    return sorted(spans)


def _tokens(text: str) -> Iterator[Any]:
    """The file's tokens from libyaml, as the loader reads it."""
    from _ruamel_yaml import CParser

    parser = CParser(text)
    while (token := parser.get_token()) is not None:
        yield token


def _inside(spans: list[tuple[tuple[int, int], tuple[int, int]]], at: tuple[int, int]) -> bool:
    index = bisect.bisect_right(spans, (at, (1 << 62, 0))) - 1
    return index >= 0 and spans[index][0] <= at < spans[index][1]


def from_config(ignores: Sequence[FileIgnore], source: Path | None, source_name: str,
                files: Iterable[tuple[Path, str]],
                matches: Callable[[str, Path], bool]) -> list[Suppression]:
    """The configuration's per-file ignores, one suppression per matching file.

    An entry matching no file still yields one (for no file), so it is reported unused.
    """
    text = _read(source)
    found: list[Suppression] = []
    every = list(files)
    for entry in ignores:
        where = Location(source_name, _line_of(text, entry.pattern), 1)
        matched = [display for path, display in every if matches(entry.pattern, path)]
        for display in matched or [""]:
            found.append(Suppression(display, entry.codes, entry.reason, where, None, entry))
    return found


def _read(source: Path | None) -> str:
    try:
        return source.read_text(encoding="utf-8") if source is not None else ""
    except (OSError, UnicodeDecodeError):
        return ""


def _line_of(text: str, pattern: str) -> int:
    """The line of the configuration that names `pattern` (as a TOML key, quoted or bare)."""
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith((f'"{pattern}"', f"'{pattern}'", f"{pattern} ", f"{pattern}=")):
            return number
    return 1


def apply(report: Report, suppressions: Sequence[Suppression],
          checked: Callable[[str], bool]) -> None:
    """Drop what the suppressions silence; report those without a reason or without use."""
    used: set[tuple[object, str]] = set()
    kept: list[Diagnostic] = []
    for diagnostic in report.diagnostics:
        silenced = False
        for index, suppression in enumerate(suppressions):
            code = suppression.silences(diagnostic)
            if code is not None:
                used.add((_group(index, suppression), code))
                silenced = True
        if not silenced:
            kept.append(diagnostic)
    report.diagnostics = kept
    known = list(catalogue())
    reported: set[object] = set()
    for index, suppression in enumerate(suppressions):
        group = _group(index, suppression)
        if group in reported or (suppression.group is None and not checked(suppression.path)):
            continue
        reported.add(group)
        report.extend(list(_problems(group, suppression, used, known, report.wants)))


def _group(index: int, suppression: Suppression) -> object:
    return suppression.group if suppression.group is not None else index


def _problems(group: object, suppression: Suppression, used: set[tuple[object, str]],
              known: list[str], wanted: Callable[[str], bool]) -> Iterable[Diagnostic]:
    where = suppression.where
    entry = suppression.group if isinstance(suppression.group, FileIgnore) else None
    what = (f"the per-file ignore for '{entry.pattern}'" if entry is not None
            else "this suppression")
    if not suppression.codes:
        yield diagnose("DM022", where, f"{what} names no code; write the codes it is for")
        return
    if not suppression.reason:
        how = ("write the entry as {codes = [...], reason = \"why\"}" if entry is not None
               else f"write why after the brackets: '# dmtool: ignore[{','.join(suppression.codes)}]"
                    " why'")
        yield diagnose("DM021", where, f"{what} silences {', '.join(suppression.codes)} but gives "
                       f"no reason; {how}")
    for code in suppression.codes:
        if not any(k.startswith(code) for k in known):
            yield diagnose("DM022", where, f"{what} names '{code}', which is not a dmtool code; "
                           "fix it or remove it")
        elif (group, code) not in used and any(wanted(k) for k in known if k.startswith(code)):
            place = "no file it matches reports" if entry is not None else "nothing here reports"
            yield diagnose("DM022", where, f"{place} {code}, so {what} is unused for it; remove "
                           f"{code} from it")

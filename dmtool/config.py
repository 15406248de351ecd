"""dmtool configuration: found upward from a directory in dmtool.toml or pyproject.toml."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Any

from dmtool.diagnostics import catalogue
from dmtool.errors import ConfigError, UsageError
from dmtool.loading.builder import MAX_DEPTH
from dmtool.packaged import set_author_trees
from dmtool.patterns import lazy
from dmtool.reporters import FORMATS
from dmtool.validation.suppressions import FileIgnore

# Looked for in this order in each directory; the first one that configures dmtool wins.
CONFIG_FILES = ("dmtool.toml", "pyproject.toml")
# The last parse of each configuration file read, by its bytes: a process that loads the
# configuration on every run (the daemon) parses a file again only when it changed.
_PARSED: dict[Path, tuple[bytes, dict[str, Any]]] = {}
_SELECTOR = lazy(r"DM[0-9]{0,3}")
# Far above any content file, and small enough for every size the loader computes with.
MAX_FILE_SIZE_LIMIT = 2**40


@dataclass(frozen=True, slots=True)
class Config:
    """Settings for a run. Defaults apply when no file is found (`source` is then None)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    strict: bool = False
    format: str = "text"
    # Absolute or relative to the working directory; a file's entries are made relative to it.
    paths: tuple[Path, ...] = ()
    # None leaves the loader's own limit in place.
    max_file_size: int | None = None
    # Levels of mappings and lists a file may nest; None leaves the loader's own limit.
    max_nesting: int | None = None
    exclude: tuple[str, ...] = ()
    # `per-file-ignores`: codes silenced in the files a pattern matches, each with a reason.
    per_file_ignores: tuple[FileIgnore, ...] = ()
    # The author's content tree and schemas folder (None: content/ and schemas/ of the
    # working folder where they exist, else the packaged games and schemas).
    content: Path | None = None
    schemas: Path | None = None
    # Balance reports (`dmtool balance --json`) that `dmtool site` shows on their
    # wanderers' pages when no --balance is given.
    balance: tuple[Path, ...] = ()
    source: Path | None = None

    @property
    def base_dir(self) -> Path | None:
        """The folder that `paths` and `exclude` patterns in the file are relative to."""
        return self.source.parent if self.source else None

    def merged(self, **cli_overrides: Any) -> Config:
        """This configuration with command-line values on top; None means "flag not given".

        Keys are the field names (select, ignore, strict, format, paths, max_file_size,
        max_nesting, exclude). An empty list also counts as not given, since click passes ()
        for an unused multiple option. Bad values raise UsageError naming the flag.
        """
        changes: dict[str, Any] = {}
        for name, value in cli_overrides.items():
            key = _FIELD_KEYS.get(name)
            if key is None:
                raise TypeError(f"Config.merged() got an unknown field {name!r}")
            if value is None or (isinstance(value, (list, tuple)) and not value):
                continue
            flag = "--" + name.replace("_", "-")
            try:
                changes[name] = _KEYS[key](_from_cli(name, value), None)
            except _Invalid as exc:
                raise UsageError(f"{flag} {exc}") from None
        return replace(self, **changes)

    def is_excluded(self, path: Path) -> bool:
        """Whether `path` matches an `exclude` pattern.

        A pattern without '/' matches any single path component (so `drafts` or
        `*.draft.yaml` apply at every depth); a pattern with '/' is anchored at the
        configuration's folder and also excludes everything below a matching folder.
        `*` and `?` stay within one component; `**` spans any number of them.
        """
        return any(self.matches(pattern, path) for pattern in self.exclude)

    def matches(self, pattern: str, path: Path) -> bool:
        """Whether `path` matches one `exclude` or `per-file-ignores` pattern (see is_excluded)."""
        parts = _relative_parts(path, self.base_dir)
        segments = tuple(s for s in pattern.split("/") if s not in ("", "."))
        if "/" not in pattern.rstrip("/"):
            return bool(segments) and any(fnmatchcase(part, segments[0]) for part in parts)
        return any(_match(segments, parts[:end]) for end in range(1, len(parts) + 1))


def load_config(start: Path) -> Config:
    """The configuration that applies at `start` (a folder or a file), or the defaults.

    Each folder from `start` up to the filesystem root is searched; `dmtool.toml` is used
    whole, `pyproject.toml` only if it has a [tool.dmtool] table (otherwise the search
    goes on upward). A file that cannot be read or is malformed raises ConfigError.
    """
    try:
        folder = start.resolve()
    except (OSError, RuntimeError):  # a symlink loop: fall back to the path as written
        folder = Path(os.path.abspath(start))
    if _is_file(folder):
        folder = folder.parent
    for directory in (folder, *folder.parents):
        for name in CONFIG_FILES:
            candidate = directory / name
            if not _is_file(candidate):
                continue
            table = _read_table(candidate)
            if table is not None:
                return _from_table(table, candidate)
    return Config()


def use_author_trees(start: Path) -> Config | None:
    """Tell every command where the author's content and schemas are (the `content` and
    `schemas` keys of the configuration at `start`); None when the configuration cannot
    be read: the command that reads it reports why."""
    try:
        config = load_config(start)
    except ConfigError:
        set_author_trees(schemas=None, content=None)
        return None
    set_author_trees(schemas=config.schemas, content=config.content)
    return config


class _Invalid(Exception):
    """A value that does not fit its key; the text continues a sentence naming the key."""


def _from_table(table: dict[str, Any], source: Path) -> Config:
    prefix = "tool.dmtool." if source.name == "pyproject.toml" else ""
    values: dict[str, Any] = {}
    for key, value in table.items():
        check = _KEYS.get(key)
        if check is None:
            raise ConfigError(f"{source}: unknown key '{prefix}{key}'.{_suggest(key)}")
        try:
            values[key.replace("-", "_")] = check(value, source.parent)
        except _Invalid as exc:
            raise ConfigError(f"{source}: '{prefix}{key}' {exc}") from None
    return Config(source=source, **values)


def _read_table(path: Path) -> dict[str, Any] | None:
    """The settings table of a config file, or None for a pyproject.toml without one."""
    # Imported only when there is a file to read: most hook runs find none, and the
    # parser's regular expressions are a fifth of a one-file check's own imports.
    import tomllib

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"Cannot read {path}: {exc.strerror or exc}.") from None
    known = _PARSED.get(path)
    if known is not None and known[0] == raw:
        data = known[1]
    else:
        try:
            data = tomllib.loads(raw.decode("utf-8"))  # what tomllib.load does with a file
        except UnicodeDecodeError:
            raise ConfigError(f"{path} is not UTF-8 text; save it as UTF-8.") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path} is not valid TOML ({exc}); fix the syntax there.") from None
        _PARSED[path] = (raw, data)
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool")
    table = tool.get("dmtool") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: 'tool.dmtool' must be a table, not {_kind(table)}.")
    return table


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # an unsearchable folder on the way up is the same as no file there
        return False


# --- value checks: (value, folder of the file or None for the CLI) -> normalised value ---


def _from_cli(name: str, value: Any) -> Any:
    """Command-line values in the shape the file checks expect (arrays as lists)."""
    if name in ("strict", "format", "max_file_size", "max_nesting"):
        return value
    if isinstance(value, (str, os.PathLike)):
        value = [value]
    items = [os.fspath(v) if isinstance(v, os.PathLike) else v for v in value]
    if name in ("select", "ignore"):
        # `--select DM1,DM2` reads like `--select DM1 --select DM2`, as in ruff.
        items = [s.strip() for v in items for s in (v.split(",") if isinstance(v, str) else [v])]
    return items


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Invalid(f"must be an array of strings, not {_kind(value)}.")
    if any(not v.strip() for v in value):
        raise _Invalid("must not contain empty strings.")
    return value


def _selectors(value: Any, _base: Path | None) -> tuple[str, ...]:
    codes = catalogue()
    for selector in _strings(value):
        if not _SELECTOR.fullmatch(selector):
            upper = selector.strip().upper()
            hint = f" Did you mean '{upper}'?" if _SELECTOR.fullmatch(upper) else ""
            raise _Invalid(
                f"has {selector!r}, which is not a code or code prefix; write codes like "
                f"'DM202' or prefixes like 'DM2' (upper case).{hint or _suggest(upper, codes)}"
            )
        if not any(code.startswith(selector) for code in codes):
            raise _Invalid(
                f"has {selector!r}, which matches no diagnostic code; "
                f"known codes run from {min(codes)} to {max(codes)}.{_suggest(selector, codes)}"
            )
    return tuple(value)


def _boolean(value: Any, _base: Path | None) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(f"must be true or false, not {_kind(value)}.")
    return value


def _format(value: Any, _base: Path | None) -> str:
    if value not in FORMATS:
        shown = repr(value) if isinstance(value, str) else _kind(value)
        raise _Invalid(f"must be one of {', '.join(FORMATS)}, not {shown}.")
    return str(value)


def _paths(value: Any, base: Path | None) -> tuple[Path, ...]:
    paths = [Path(v) for v in _strings(value)]
    return tuple(base / p if base else p for p in paths)


def _size(value: Any, _base: Path | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(f"must be a whole number of bytes, not {_kind(value)}.")
    if value <= 0:
        raise _Invalid(f"must be a positive number of bytes, not {value}.")
    if value > MAX_FILE_SIZE_LIMIT:
        raise _Invalid(f"must be at most {MAX_FILE_SIZE_LIMIT} bytes (1 TiB), not {value}.")
    return value


def _nesting(value: Any, _base: Path | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(f"must be a whole number of levels, not {_kind(value)}.")
    if value < 1:
        raise _Invalid(f"must be at least 1 (the document's own top mapping), not {value}.")
    if value > MAX_DEPTH:
        raise _Invalid(
            f"must be at most {MAX_DEPTH}, not {value}: the loader refuses deeper nesting "
            "whatever the setting, as the schema validator recurses once per level; the "
            "setting can only lower that limit.")
    return value


def _folder(value: Any, base: Path | None) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid(f"must be a folder path (a string), not {_kind(value)}.")
    folder = base / value if base else Path(value)
    if not folder.is_dir():
        raise _Invalid(f"names {value!r}, which is not a folder.")
    return folder


def _files(value: Any, base: Path | None) -> tuple[Path, ...]:
    files = _paths(value, base)
    for given, path in zip(value, files):
        if not path.is_file():
            raise _Invalid(f"names {given!r}, which is not a file.")
    return files


def _patterns(value: Any, _base: Path | None) -> tuple[str, ...]:
    return tuple(_strings(value))


def _per_file_ignores(value: Any, _base: Path | None) -> tuple[FileIgnore, ...]:
    """`{pattern = [codes]}` or `{pattern = {codes = [...], reason = "..."}}`."""
    if not isinstance(value, dict):
        raise _Invalid(f"must be a table of patterns, not {_kind(value)}.")
    found: list[FileIgnore] = []
    for pattern, entry in value.items():
        codes, reason = entry, ""
        if isinstance(entry, dict):
            unknown = sorted(set(entry) - {"codes", "reason"})
            if unknown:
                raise _Invalid(f"has '{unknown[0]}' for {pattern!r}; an entry has 'codes' and "
                               "'reason'.")
            codes, reason = entry.get("codes", []), entry.get("reason", "")
        if not isinstance(reason, str):
            raise _Invalid(f"must give {pattern!r} a reason that is a string, not {_kind(reason)}.")
        found.append(FileIgnore(pattern, _selectors(codes, None), reason.strip()))
    return tuple(found)


_KEYS: dict[str, Callable[[Any, Path | None], Any]] = {
    "select": _selectors,
    "ignore": _selectors,
    "strict": _boolean,
    "format": _format,
    "paths": _paths,
    "max-file-size": _size,
    "max-nesting": _nesting,
    "exclude": _patterns,
    "per-file-ignores": _per_file_ignores,
    "content": _folder,
    "schemas": _folder,
    "balance": _files,
}
_FIELD_KEYS = {key.replace("-", "_"): key for key in _KEYS}


def _kind(value: Any) -> str:
    """A TOML-flavoured name for the type of a value, for error messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, list):
        return "an array" if all(isinstance(v, str) for v in value) else "a mixed array"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _suggest(word: str, choices: Any = None) -> str:
    options = list(choices if choices is not None else _KEYS)
    # Imported here, not at the top: only a mistake in the configuration needs it, and a
    # clean one-file check (P3) then never imports it (~2.7 M instructions;
    # tests/test_one_file_imports.py).
    import difflib

    close = difflib.get_close_matches(word, options, n=1)
    return f" Did you mean '{close[0]}'?" if close else ""


def _relative_parts(path: Path, base: Path | None) -> tuple[str, ...]:
    """`path` as components relative to `base` when it lies below it, else as given."""
    if base is not None:
        absolute = Path(os.path.abspath(path))
        if absolute.is_relative_to(base):
            return absolute.relative_to(base).parts
        try:  # the path may reach the folder through a symlink
            resolved = path.resolve()
        except (OSError, RuntimeError):
            resolved = absolute
        if resolved.is_relative_to(base):
            return resolved.relative_to(base).parts
    return tuple(p for p in PurePosixPath(path.as_posix()).parts if p not in (".", "/"))


def _match(segments: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    """Glob segments against path components, with '**' standing for any number of them."""
    if not segments:
        return not parts
    head, rest = segments[0], segments[1:]
    if head == "**":
        return any(_match(rest, parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatchcase(parts[0], head) and _match(rest, parts[1:])

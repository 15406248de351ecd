"""Reading one file's bytes and decoding them to text, refusing what is not a text file.

Checks run cheapest first: a stat (missing, not a regular file, too large) before any
byte is read, then the bytes (foreign byte order marks, NUL bytes, invalid UTF-8).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from dmtool.diagnostics import Diagnostic, Location, diagnose

# Largest content file accepted unless the max-file-size setting says otherwise. The
# biggest real storybook is well under 1 MiB; a 100,000-entry storybook is about 53 MB
# and checks within ten times its size in memory, so this is a guard against a wrong
# file (a dump, a video), not against large books.
MAX_BYTES = 64 * 1024 * 1024

_FOREIGN_BOMS: tuple[tuple[bytes, str], ...] = (
    # UTF-32 first: its little-endian mark begins with the UTF-16 one.
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
)
_UTF8_BOM = "\ufeff"


def read_text(
    path: Path, display: str, *, max_bytes: int = MAX_BYTES
) -> tuple[str | None, list[Diagnostic]]:
    """The file's text without a UTF-8 byte order mark, or the reasons it has none."""
    raw, problem = read_bytes(path, display, max_bytes)
    if problem is not None:
        return None, [problem]
    assert raw is not None
    return decode(raw, display)


def open_for_reading(path: Path) -> BinaryIO:
    """Open a content file for reading (one place, so tests can stand in for permissions)."""
    return path.open("rb")


def decode(raw: bytes, display: str) -> tuple[str | None, list[Diagnostic]]:
    """Decode content bytes as UTF-8; other encodings and binary data are refused."""
    for bom, name in _FOREIGN_BOMS:
        if raw.startswith(bom):
            return None, [diagnose(
                "DM007", Location(display, 1, 1),
                f"The file is encoded as {name}, not UTF-8. Save it as UTF-8 "
                "(most editors offer this under 'Save with encoding').")]
    nul = raw.find(b"\x00")
    if nul >= 0:
        line, column = _byte_position(raw, nul)
        return None, [diagnose(
            "DM008", Location(display, line, column),
            "The file contains a NUL byte, so it is binary or corrupted rather than text "
            "(UTF-16 without a byte order mark looks like this too). Save it as UTF-8 text.")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(raw, exc.start)
        return None, [diagnose(
            "DM007", Location(display, line, column),
            f"The byte 0x{raw[exc.start]:02x} here is not valid UTF-8; the file was probably "
            "saved in another encoding (such as Latin-1 or Windows-1252). Save it as UTF-8.")]
    if text.startswith(_UTF8_BOM):
        text = text[1:]
    return text, []


def read_bytes(
    path: Path, display: str, max_bytes: int = MAX_BYTES
) -> tuple[bytes | None, Diagnostic | None]:
    """The file's bytes, or the located reason it cannot be read as a content file."""
    where = Location(display, 1, 1)
    try:
        info = path.stat()
    except OSError as exc:
        return None, diagnose("DM010", where, stat_failure_message(path, exc))
    if stat.S_ISDIR(info.st_mode):
        return None, diagnose("DM010", where, f"{display} is a directory, not a file; "
                              "give the directory itself to check every YAML file inside it.")
    if not stat.S_ISREG(info.st_mode):
        # FIFOs and devices could block or never end: never open them.
        return None, diagnose("DM010", where, f"{display} is not a regular file (it is a "
                              "pipe, socket or device); content must be plain files.")
    if info.st_size > max_bytes:
        return None, _too_large(where, info.st_size, max_bytes)
    try:
        with open_for_reading(path) as handle:
            # Read one byte past the limit: the file may have grown since the stat. The
            # size the stat gave is asked for first (plus one byte, to see growth): a read
            # of the whole limit allocates, and gives back, that much memory every time.
            wanted = info.st_size + 1
            raw = handle.read(wanted)
            if len(raw) == wanted and wanted <= max_bytes:
                raw += handle.read(max_bytes + 1 - wanted)
    except OSError as exc:
        return None, diagnose("DM010", where, f"{display} cannot be read: "
                              f"{exc.strerror or exc}. Check its permissions.")
    if len(raw) > max_bytes:
        return None, _too_large(where, len(raw), max_bytes)
    return raw, None


def _too_large(where: Location, size: int, limit: int) -> Diagnostic:
    return diagnose("DM009", where,
                    f"The file is {_size(size)}, more than the {_size(limit)} allowed for one "
                    "content file by the max-file-size setting. Split it into several files, "
                    "or raise max-file-size in dmtool.toml (or [tool.dmtool] in pyproject.toml) "
                    "if it is meant to be this large.")


def _size(count: int) -> str:
    if count >= 1048576:
        return f"{count / 1048576:.1f} MiB"
    return f"{count:,} bytes"


def stat_failure_message(path: Path, exc: OSError) -> str:
    """A full-sentence explanation of why `path` could not be looked at."""
    shown = path.as_posix()
    if exc.errno == errno.ELOOP:
        return f"{shown} is a symbolic link loop; point the link at a real file or remove it."
    if exc.errno == errno.ENOENT and os.path.islink(path):
        target = os.readlink(path)
        return (f"{shown} is a symbolic link to {target}, which does not exist; fix or "
                "remove the link.")
    if exc.errno == errno.ENOENT:
        return f"{shown} does not exist; check the spelling of the path."
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"{shown} cannot be accessed (permission denied); check its permissions."
    return f"{shown} cannot be read: {exc.strerror or exc}."


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    # Count columns in characters of the valid prefix, as an editor shows them.
    line_start = raw.rfind(b"\n", 0, offset) + 1
    prefix = raw[line_start:offset].decode("utf-8", "replace")
    return raw.count(b"\n", 0, offset) + 1, len(prefix) + 1

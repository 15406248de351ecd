"""The one way dmtool writes files: guarded, atomic, tidy after a kill.

Every command that writes goes through here (see status-writers.md for the API):

- `write_report(path, data)`: reports and drawings (check -o, graph -o, balance);
- `create_file(path, data)`: new files, never over anything (new, witness fixtures);
- `rewrite_file(path, data, expected=...)`: a new version of a file just read (fmt,
  new's edits, campaign state); refused if the file changed meanwhile;
- `replace_folder(out, build, marker=...)`: a whole built folder (the site);
- `owned.OwnedFolder`: a folder only dmtool writes (the check cache): claimed only when
  missing or empty, tagged, and emptied only of what dmtool wrote;
- `check_writable(path)`: fail before long work rather than after it;
- `exclusive(path)`: a lock held across read-change-write;
- `private_folder()`: a journaled temporary folder for work files (the site's pages);
- `sweep_leftovers()`: at the start of a command that writes, tidy after killed runs.

Refusals raise `WriteRefused`, system errors `WriteFailed` (both UsageError: one line,
exit code 2). What is refused is in `dmtool.writing.guard`.
"""

from __future__ import annotations

from dmtool.writing.errors import WriteFailed, WriteRefused, write_failed
from dmtool.writing.files import (
    AlreadyExists,
    ChangedMeanwhile,
    check_report_path,
    check_writable,
    create_file,
    rewrite_file,
    write_report,
)
from dmtool.writing.folders import Marker, check_folder, replace_folder
from dmtool.writing.lock import exclusive
from dmtool.writing.temporaries import private_folder, sweep_leftovers

__all__ = [
    "AlreadyExists",
    "ChangedMeanwhile",
    "Marker",
    "WriteFailed",
    "WriteRefused",
    "check_folder",
    "check_report_path",
    "check_writable",
    "create_file",
    "exclusive",
    "private_folder",
    "replace_folder",
    "rewrite_file",
    "sweep_leftovers",
    "write_failed",
    "write_report",
]

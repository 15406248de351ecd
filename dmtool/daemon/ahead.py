"""Checking ahead: the daemon re-checks as soon as a file is saved, before it is asked.

A `dmtool check` started right after a save then finds the work done, or under way,
instead of starting it only once its own process has started (a third of the time of a
re-check after one storybook changed). Answers never depend on it: each request still
looks at the disk itself (validation/live.py); checking ahead only moves the work earlier.

The folders the last run looked at are watched through `watchfiles` (inotify, FSEvents,
ReadDirectoryChangesW: whatever the system has), each on its own, not recursively, so a
folder the listing leaves out (version control, the cache) wakes nothing. A change to a
YAML file or to a folder in them starts a check ahead; the changes of a save come as one
batch, once nothing has changed for `_QUIET_MS`. Once a run (a request's or one ahead)
has looked at other folders (one was made or removed), the watch starts again over them:
a change in the moment between is seen by the next request, not ahead of it. (The folders
include those above the content, where content roots are looked for: a folder made there
starts a check ahead too, which finds nothing changed by its stats.) The thread waits in
watchfiles' loop, which wakes every `_QUIET_MS` to see whether it is to stop (a moment
under the interpreter's lock). If watching fails, the thread says why on standard error
and ends; answers are as correct, only later.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback

from watchfiles import Change, watch

from dmtool.loading.discovery import is_yaml_name
from dmtool.validation.live import LiveCheck

# How long the files must stay unchanged before a batch of changes is taken (an editor's
# save is several events), and the longest a batch gathers while they keep changing.
_QUIET_MS, _LONGEST_MS = 50, 1_600
# How often the watch looks whether a request's run has looked at other folders (ms).
_LOOK_AGAIN_MS = 1_000


class CheckAhead:
    """Re-runs the live check's last run whenever a content file or folder changes."""

    def __init__(self, live: LiveCheck, lock: threading.Lock) -> None:
        self._live, self._lock = live, lock
        self._stopping = threading.Event()

    def start(self) -> None:
        """Watch the folders of the last run and check ahead from now on."""
        threading.Thread(target=self._loop, name="dmtool-check-ahead", daemon=True).start()

    def stop(self) -> None:
        """End the thread: the watch sees the event within `_QUIET_MS` and closes."""
        self._stopping.set()

    def _loop(self) -> None:
        try:
            while not self._stopping.is_set():
                self._watch(self._live.folders)
        except Exception:  # no watch (a folder gone, the system's watches used up): logged
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()

    def _watch(self, listed: list[str]) -> None:
        """Check ahead on each change to content in `listed`, until stopped or until a run
        lists other folders (LiveCheck replaces its list when it lists the folders again)."""
        folders = frozenset(map(os.path.abspath, listed))  # as the watch names the changes
        existing = sorted(folder for folder in folders if os.path.isdir(folder))
        if not existing:  # nothing to watch until a run lists some
            self._stopping.wait(_LOOK_AGAIN_MS / 1000)
            return
        for changes in watch(*existing, watch_filter=lambda change, path: _about_content(
                             change, path, folders), debounce=_LONGEST_MS, step=_QUIET_MS,
                             stop_event=self._stopping, rust_timeout=_LOOK_AGAIN_MS,
                             yield_on_timeout=True, raise_interrupt=False, recursive=False):
            if changes:
                self._check()
            now = self._live.folders
            if now is not listed and frozenset(map(os.path.abspath, now)) != folders:
                return  # a folder came or went: watch the folders as they are now
            listed = now

    def _check(self) -> None:
        with self._lock:
            options = self._live.last_options
            if options is None:
                return
            try:
                self._live.run(options)
            except Exception:  # its own failure: logged; the next request checks itself
                traceback.print_exc(file=sys.stderr)
                sys.stderr.flush()


def _about_content(change: Change, path: str, folders: frozenset[str]) -> bool:
    """Whether a change is to a YAML file or a folder directly in one of `folders` (a
    folder removed is known by being one of them: it cannot be looked at any more)."""
    path = os.path.abspath(path)
    if os.path.dirname(path) not in folders:
        return False
    if is_yaml_name(os.path.basename(path)) or path in folders:
        return True
    return change is not Change.deleted and os.path.isdir(path)

"""Checking ahead: the daemon re-checks as soon as a file is saved, before it is asked.

A `dmtool check` started right after a save then finds the work done, or under way,
instead of starting it only once its own process has started (a third of the time of a
re-check after one storybook changed). Answers never depend on it: each request still
looks at the disk itself (validation/live.py); checking ahead only moves the work earlier.

Linux's inotify, through ctypes: the thread blocks in a read of the inotify descriptor,
which releases the interpreter's lock, so it neither polls nor slows the check. Saves are
seen when the file is closed after writing (or renamed into place, as editors that save
atomically do), not on each write of it. Where inotify is missing, nothing is checked
ahead; answers are as correct, only later.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
import threading
import traceback
from collections.abc import Iterable

from dmtool.loading.discovery import is_yaml_name
from dmtool.validation.live import LiveCheck

_IN_ATTRIB, _IN_CLOSE_WRITE, _IN_MOVED_FROM, _IN_MOVED_TO = 0x4, 0x8, 0x40, 0x80
_IN_CREATE, _IN_DELETE, _IN_ISDIR = 0x100, 0x200, 0x40000000
_EVENTS = _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE
_IN_CLOEXEC = 0o2000000
_HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len; then the name


class CheckAhead:
    """Re-runs the live check's last run whenever a content file or folder changes."""

    def __init__(self, live: LiveCheck, lock: threading.Lock) -> None:
        self._live, self._lock = live, lock
        self._watched: dict[str, int] = {}  # folder -> its watch descriptor
        self._add_watch = self._remove_watch = None
        self._descriptor = -1
        self._stopping = False
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            self._add_watch, self._remove_watch = libc.inotify_add_watch, libc.inotify_rm_watch
            self._descriptor = libc.inotify_init1(_IN_CLOEXEC)
        except (OSError, AttributeError):  # no inotify here: nothing is checked ahead
            self._add_watch = None

    @property
    def available(self) -> bool:
        return self._add_watch is not None and self._descriptor >= 0

    def start(self) -> None:
        """Watch the folders of the last run and check ahead from now on (if available)."""
        if not self.available:
            return
        self._watch(self._live.folders)
        threading.Thread(target=self._loop, name="dmtool-check-ahead", daemon=True).start()

    def stop(self) -> None:
        """End the thread (removing the watches wakes its read) and close the descriptor."""
        self._stopping = True
        if self._remove_watch is not None:
            for watch in self._watched.values():
                self._remove_watch(self._descriptor, watch)

    def _watch(self, folders: Iterable[str]) -> None:
        assert self._add_watch is not None
        for folder in folders:
            if folder not in self._watched:
                watch = self._add_watch(self._descriptor, os.fsencode(folder), _EVENTS)
                if watch >= 0:
                    self._watched[folder] = watch

    def _loop(self) -> None:
        while True:
            try:
                events = os.read(self._descriptor, 1 << 16)
            except OSError:
                return
            if self._stopping:
                os.close(self._descriptor)
                return
            if not _about_content(events):
                continue
            with self._lock:
                options = self._live.last_options
                if options is None:
                    continue
                try:
                    self._live.run(options)
                except Exception:  # its own failure: logged; the next request checks itself
                    traceback.print_exc(file=sys.stderr)
                    sys.stderr.flush()
                self._watch(self._live.folders)  # folders made since are watched too


def _about_content(events: bytes) -> bool:
    """Whether any of the inotify events read is about a YAML file or a folder."""
    offset = 0
    while offset + _HEADER.size <= len(events):
        _, mask, _, length = _HEADER.unpack_from(events, offset)
        name = events[offset + _HEADER.size:offset + _HEADER.size + length].rstrip(b"\0")
        offset += _HEADER.size + length
        if mask & _IN_ISDIR or is_yaml_name(os.fsdecode(name)):
            return True
    return False

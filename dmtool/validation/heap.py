"""Giving freed C-heap memory back to the operating system (glibc only).

glibc keeps memory freed by C code (jsonschema-rs's compiled validators, say) for later
malloc calls; but Python's small objects live in arenas of their own, so a check that
goes on to build them never reuses it, and the process keeps it resident to the end.
"""

from __future__ import annotations


def release_freed_memory() -> None:
    """Return the C heap's free pages to the operating system (a no-op without glibc)."""
    # Imported here: only a run that compiled many validators pays for ctypes (a warm
    # check replayed from the cache, or a one-file hook run, does not).
    import ctypes

    try:
        trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (OSError, TypeError):  # no handle on the process itself (Windows)
        return
    if trim is not None:
        trim(0)

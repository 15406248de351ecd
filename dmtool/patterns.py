"""Regular expressions compiled when first used: a start-up cost.

Python's regular expression compiler is written in Python: a module-level `re.compile`
costs 0.1-4 M instructions at import (a character class reaching past Latin-1 the most),
whether or not the run ever uses the pattern. A one-file `dmtool check` (P3) compiled
some 30 that only a file with a finding, a file the libyaml path reads, or a non-ASCII
text needs. `lazy(pattern, flags)` stands for `re.compile(pattern, flags)` and compiles
it on first use; each attribute asked for (`search`, `match`, ...) is then kept on the
object, so later calls cost what the compiled pattern's own do.
"""

from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled when first used (see the module docstring)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> bool:
        """Whether the pattern has been compiled (something used it)."""
        return self._compiled is not None

    def __getattr__(self, name: str) -> Any:
        # Called only for what the object does not hold yet: the compiled pattern's.
        if name.startswith("_"):
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = re.compile(*self._source)
        value = getattr(self._compiled, name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r}, {self._source[1]})"


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern compiled when first used, with the compiled pattern's methods (typed as
    Any so that callers read it as the `re.Pattern` it stands for)."""
    return LazyPattern(pattern, flags)

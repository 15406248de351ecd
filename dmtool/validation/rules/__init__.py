"""Cross-file and domain rules over the whole corpus.

Every module in this package that defines `check(corpus) -> Iterable[Diagnostic]` is a
rule module; they are found automatically, so adding a rule never edits a shared list.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable

from dmtool.diagnostics import Diagnostic
from dmtool.validation.corpus import Corpus

RuleCheck = Callable[[Corpus], Iterable[Diagnostic]]


def rule_checks() -> list[tuple[str, RuleCheck]]:
    """(module name, check function) for every rule module, in name order."""
    found: list[tuple[str, RuleCheck]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        check = getattr(module, "check", None)
        if callable(check):
            found.append((info.name, check))
    return found

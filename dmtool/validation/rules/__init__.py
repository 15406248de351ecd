"""Cross-file and domain rules over the whole corpus.

Every module in this package that defines `check(corpus) -> Iterable[Diagnostic]` is a
rule module; they are found automatically, so adding a rule never edits a shared list.
A rule module may also define `remember(document)`: it computes the memos the rule
derives from one document alone, called while a large document's data is in hand (the
check lets go of that data afterwards, see pipeline.py).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable

from dmtool.diagnostics import Diagnostic
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

RuleCheck = Callable[[Corpus], Iterable[Diagnostic]]
Remember = Callable[[SourceDocument], object]


def rule_checks() -> list[tuple[str, RuleCheck]]:
    """(module name, check function) for every rule module, in name order."""
    return [(name, check) for name, check, _ in _modules()]


def document_memos() -> list[Remember]:
    """Every rule module's `remember(document)`, in name order."""
    return [remember for _, _, remember in _modules() if remember is not None]


def _modules() -> list[tuple[str, RuleCheck, Remember | None]]:
    found: list[tuple[str, RuleCheck, Remember | None]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        check = getattr(module, "check", None)
        if callable(check):
            remember = getattr(module, "remember", None)
            found.append((info.name, check, remember if callable(remember) else None))
    return found

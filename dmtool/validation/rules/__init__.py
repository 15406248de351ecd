"""Cross-file and domain rules over the whole corpus.

Every module in this package that defines `check(corpus) -> Iterable[Diagnostic]` is a
rule module; they are found automatically, so adding a rule never edits a shared list.
Rules that live in a higher layer (the story graph analyses, the scenario fixture checks)
are registered here by that layer (`register_rule`, see dmtool.commands.rules): this
package never imports them.
A rule may also have a `remember(document)`: it computes the memos the rule derives from
one document alone, called while a large document's data is in hand (the check packs
that data away afterwards, see pipeline.py). A registered rule may also have a
`prepare(corpus)`: the rule's costly work cut into independent tasks, each filling
memos, which a check may run on several cores before the rules run (see session.py).
A rule declares nothing about what it reads: the corpus records it while the rule runs,
and a session reuses the rule's findings while all of it reads the same (see reads.py).
So a rule must learn of the content only through the corpus it is given.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Iterable

from dmtool.diagnostics import Diagnostic
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

RuleCheck = Callable[[Corpus], Iterable[Diagnostic]]
Remember = Callable[[SourceDocument], object]
# A task of a rule's work: its weight (what it costs, in any unit shared by the rule's
# tasks) and a call that does it, leaving its results in the documents' memos.
Task = tuple[int, Callable[[], object]]
Prepare = Callable[[Corpus], list[Task]]

# Rules registered by higher layers, by name (a name shared with a rule module is refused).
_REGISTERED: dict[str, RuleCheck] = {}
_REGISTERED_MEMOS: dict[str, Remember] = {}
_REGISTERED_PREPARE: dict[str, Prepare] = {}


def register_rule(name: str, check: RuleCheck, remember: Remember | None = None,
                  prepare: Prepare | None = None) -> None:
    """Run `check` as a rule of every check from now on (registering it again is harmless);
    `remember`, if given, is the rule's per-document memos, and `prepare` its work as
    tasks that may run ahead on other cores (see the module docstring)."""
    if _module_rules().get(name, (check, None))[0] is not check:
        raise ValueError(f"a rule module named {name!r} already exists")
    _REGISTERED[name] = check
    if remember is not None:
        _REGISTERED_MEMOS[name] = remember
    if prepare is not None:
        _REGISTERED_PREPARE[name] = prepare


def rule_tasks(corpus: Corpus) -> list[Task]:
    """Every registered rule's tasks over `corpus` (see register_rule), in name order."""
    return [task for _, prepare in sorted(_REGISTERED_PREPARE.items())
            for task in prepare(corpus)]


def rules_with_tasks() -> frozenset[str]:
    """The names of the rules that registered `prepare` (their work may run ahead)."""
    return frozenset(_REGISTERED_PREPARE)


def rule_checks() -> list[tuple[str, RuleCheck]]:
    """(name, check function) for every rule module and registered rule, in name order."""
    checks = {name: check for name, (check, _) in _module_rules().items()}
    return sorted({**checks, **_REGISTERED}.items(), key=lambda item: item[0])


def rule_report_kinds() -> dict[str, frozenset[str]]:
    """The kinds of document each rule module's findings are located in, for the modules
    that declare them (`REPORTS_IN`): a check of files of none of these kinds cannot
    report one of its findings, so the rule need not run (a one-file hook run)."""
    return _module_report_kinds()


def rule_names() -> list[str]:
    """The rule modules' and registered rules' names, without importing the modules: what a
    replayed report must have been made with (the pipeline's run key)."""
    return sorted({info.name for info in pkgutil.iter_modules(__path__)} | set(_REGISTERED))


def document_memos() -> list[Remember]:
    """Every rule's `remember(document)`, in name order."""
    found = {name: remember for name, (_, remember) in _module_rules().items()
             if remember is not None}
    return [remember for _, remember in sorted({**found, **_REGISTERED_MEMOS}.items(),
                                               key=lambda item: item[0])]


@functools.cache
def _module_rules() -> dict[str, tuple[RuleCheck, Remember | None]]:
    """The rule modules of this package, found and imported once per process (the package's
    modules do not change while it runs; document_memos is called for every file)."""
    found: dict[str, tuple[RuleCheck, Remember | None]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        check = getattr(module, "check", None)
        if callable(check):
            remember = getattr(module, "remember", None)
            found[info.name] = (check, remember if callable(remember) else None)
    return found


@functools.cache
def _module_report_kinds() -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for name in _module_rules():
        kinds = getattr(importlib.import_module(f"{__name__}.{name}"), "REPORTS_IN", None)
        if isinstance(kinds, frozenset):
            found[name] = kinds
    return found

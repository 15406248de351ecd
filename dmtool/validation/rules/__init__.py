"""Cross-file and domain rules over the whole corpus.

Every module in this package that defines `check(corpus) -> Iterable[Diagnostic]` is a
rule module; they are found automatically, so adding a rule never edits a shared list.
Rules that live in a higher layer (the story graph analyses, the scenario fixture checks)
are registered here by that layer (`register_rule`, see dmtool.commands.rules): this
package never imports them.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable

from dmtool.diagnostics import Diagnostic
from dmtool.validation.corpus import Corpus

RuleCheck = Callable[[Corpus], Iterable[Diagnostic]]

# Rules registered by higher layers, by name (a name shared with a rule module is refused).
_REGISTERED: dict[str, RuleCheck] = {}


def register_rule(name: str, check: RuleCheck) -> None:
    """Run `check` as a rule of every check from now on (registering it again is harmless)."""
    if _module_rules().get(name, check) is not check:
        raise ValueError(f"a rule module named {name!r} already exists")
    _REGISTERED[name] = check


def rule_checks() -> list[tuple[str, RuleCheck]]:
    """(name, check function) for every rule module and registered rule, in name order."""
    return sorted({**_module_rules(), **_REGISTERED}.items(), key=lambda item: item[0])


def rule_names() -> list[str]:
    """The rule modules' and registered rules' names, without importing the modules: what a
    replayed report must have been made with (the pipeline's run key)."""
    return sorted({info.name for info in pkgutil.iter_modules(__path__)} | set(_REGISTERED))


def _module_rules() -> dict[str, RuleCheck]:
    found: dict[str, RuleCheck] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        check = getattr(module, "check", None)
        if callable(check):
            found[info.name] = check
    return found

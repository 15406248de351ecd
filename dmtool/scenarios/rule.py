"""Static checks of scenario fixtures as a rule of `dmtool check` (registered with the
validation rules by dmtool.commands.rules), as well as run by `dmtool test`."""

from __future__ import annotations

from collections.abc import Iterable

from dmtool.diagnostics import Diagnostic
from dmtool.validation.corpus import Corpus


def check(corpus: Corpus) -> Iterable[Diagnostic]:
    if not corpus.of_kind("scenario"):
        return ()  # the engine is a heavy import; content trees rarely hold fixtures
    from dmtool.scenarios.checks import check as check_scenarios

    return check_scenarios(corpus)

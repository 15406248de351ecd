"""The rules of `dmtool check` that live above validation, registered with it.

The story graph analyses and the scenario fixture checks are written in their own
packages, which import validation; validation cannot import them back. Everything that
runs a check (the CLI, the language server, tests driving a CheckSession) calls
`register_rules()` first, so every check runs the same rules.
"""

from __future__ import annotations

from dmtool.scenarios import rule as scenario_rule
from dmtool.storygraph import rule as storygraph_rule
from dmtool.validation.rules import register_rule


def register_rules() -> None:
    """Register the story graph and scenario rules (idempotent)."""
    register_rule("scenarios", scenario_rule.check)
    register_rule("storygraph", storygraph_rule.check, storygraph_rule.remember,
                  storygraph_rule.prepare)

"""The hooks a game gives the scenario-fixture runner: how to start from a fixture's
described setup, apply a step, tell an illegal step, and show the state expectations read.
The runner (dmtool.scenarios) dispatches on a fixture's `game` to one of these."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from dmtool.engine.core.transition import Applied, Rejected


class FixtureHooks(Protocol):
    """One game's side of running a fixture."""

    game: str
    rejections: Mapping[str, str]

    def start(self, data: dict[str, Any], *, fixture: Path, display: str) -> tuple[Any, Any]:
        """(state, catalogue) from the fixture's setup; raises the runner's setup problems."""
        ...

    def dice(self, data: dict[str, Any]) -> Any:
        """A fresh dice source for the fixture (strict script, or seeded when it says)."""
        ...

    def apply(self, state: Any, catalog: Any, action: Any, *, dice: Any,
              policy: Any) -> Applied | Rejected:
        ...

    def legal(self, state: Any, catalog: Any, action: Any) -> str | None:
        """None when the action is illegal now; otherwise why it is legal (for the report).
        A malformed action raises the game's Reject."""
        ...

    def view(self, state: Any, catalog: Any) -> dict[str, Any]:
        """The state as plain data: what expectations read."""
        ...

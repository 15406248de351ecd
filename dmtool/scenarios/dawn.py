"""Dawn of Madness fixtures: the hooks the runner calls (setup, steps, legality, view)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dmtool.diagnostics.subjects import flow
from dmtool.engine.core.transition import Applied, Rejected
from dmtool.engine.dawn_of_madness import (
    REJECTIONS,
    Catalog,
    GameState,
    ScriptedDice,
    SeededDice,
    apply,
    legal_actions,
    parse_action,
)
from dmtool.engine.dawn_of_madness.engine import is_legal
from dmtool.model.content_index import index_for
from dmtool.scenarios.build import build, resolve_content_dir


class DawnFixtures:
    """Runs a fixture through the Dawn of Madness engine."""

    game = "dawn-of-madness"
    rejections: Mapping[str, str] = REJECTIONS

    def start(self, data: dict[str, Any], *, fixture: Path,
              display: str) -> tuple[GameState, Catalog]:
        content = index_for(resolve_content_dir(fixture, data.get("content")))
        state, catalog = build(data["setup"], content=content, base=fixture.parent,
                               display=display)
        if "seed" in data:
            state.rng = data["setup"].get("rng", data["seed"])
        return state, catalog

    def dice(self, data: dict[str, Any]) -> ScriptedDice | SeededDice:
        return SeededDice() if "seed" in data else ScriptedDice()

    def apply(self, state: GameState, catalog: Catalog, action: Any, *, dice: Any,
              policy: Any) -> Applied | Rejected:
        return apply(state, catalog, action, dice=dice, policy=policy)

    def legal(self, state: GameState, catalog: Catalog, action: Any) -> str | None:
        parsed = parse_action(action)
        legal = is_legal(state, catalog, parsed)
        listed = parsed.key() in {a.key() for a in legal_actions(state, catalog)}
        if not (legal or listed):
            return None
        return f"The action {flow(parsed.to_dict())} is legal now" + (
            " (and listed among the legal actions)" if listed else "") + "."

    def view(self, state: GameState, catalog: Catalog) -> dict[str, Any]:
        return state.to_dict()

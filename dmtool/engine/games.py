"""The games the engine knows, by id, with their rule registries: the names of effects,
conditions, steps, hooks and event kinds each game's rules register (for tools that check
fixtures and content against what the engine can run)."""

from __future__ import annotations

from dmtool.engine import dawn_of_madness, deep_madness
from dmtool.engine.core.registry import Rules

GAMES: dict[str, Rules] = {
    dawn_of_madness.GAME: dawn_of_madness.RULES,
    deep_madness.GAME: deep_madness.RULES,
}


def registry(game: str) -> Rules:
    """The registry of one game; KeyError names the games there are."""
    if game not in GAMES:
        raise KeyError(f"no game '{game}'; the engine knows {', '.join(sorted(GAMES))}")
    return GAMES[game]


def vocabulary() -> dict[str, dict[str, list[str]]]:
    """Every game's registered names, by game then table (effects, conditions, steps,
    hooks, events), sorted: plain data for tools and documentation."""
    return {game: rules.names() for game, rules in sorted(GAMES.items())}

"""Who can play: the built-in automatic players and those other packages plug in.

A plug-in is a Python entry point in the group `dmtool.policies` whose name is the policy
name and whose object is a factory: called with an int seed, it returns a player (see
`Player` in players.py: `choose`, `action` and `ask`). For example, in a package's
pyproject.toml:

    [project.entry-points."dmtool.policies"]
    cautious = "my_players:Cautious"

then `dmtool play --policy cautious` and `dmtool balance --policy cautious` use it. A
built-in name cannot be taken over by a plug-in.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Final

from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.epsilon import Epsilon, split_policy
from dmtool.engine.dawn_of_madness.play.planner import Planner
from dmtool.engine.dawn_of_madness.play.players import CHOOSER_POLICIES, Chooser, Player

ENTRY_POINT_GROUP = "dmtool.policies"
PlayerFactory = Callable[[int], Player]


def _chooser(policy: str) -> PlayerFactory:
    return lambda seed: Chooser(policy, seed)


BUILT_IN: dict[str, PlayerFactory] = {
    **{name: _chooser(name) for name in CHOOSER_POLICIES}, "planner": Planner}


def plug_ins() -> dict[str, object]:
    """The entry points of installed packages, by policy name (not loaded yet)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)
            if ep.name not in BUILT_IN}


def policy_error(name: str) -> str | None:
    """Why `name` is no policy a game can be played with (None when it is one): a name
    of `policy_names()`, or one followed by '~EPSILON'."""
    try:
        base, _ = split_policy(name)
    except ValueError as error:
        return f"'{name}': {error}"
    if base not in policy_names():
        return f"'{base}' is not one of {', '.join(policy_names())}"
    return None


def policy_names() -> tuple[str, ...]:
    """Every policy a game can be played with: the built-ins, then plug-ins by name."""
    return (*BUILT_IN, *sorted(plug_ins()))


# Built-in players choose from the engine's lazy menu (`choose_from`); a plug-in is handed
# the whole candidate list through the Player protocol.
MENU_PLAYERS: Final = (Chooser, Planner)


def make_player(name: str, seed: int) -> Player:
    """A new player for one game, its generator seeded with `seed`; 'NAME~EPSILON' plays
    NAME with a random move at each decision with chance EPSILON (epsilon.py)."""
    try:
        base, epsilon = split_policy(name)
    except ValueError as error:
        raise EngineFault(f"policy '{name}': {error}") from None
    if epsilon is not None:
        return Epsilon(make_player(base, seed), epsilon, seed)
    if name in BUILT_IN:
        return BUILT_IN[name](seed)
    found = plug_ins().get(name)
    if found is None:
        raise EngineFault(f"no policy '{name}'; the policies are {', '.join(policy_names())}")
    try:
        factory = found.load()  # type: ignore[attr-defined]
        return factory(seed)  # type: ignore[no-any-return]
    except Exception as error:
        raise EngineFault(f"the policy plug-in '{name}' ({found.value}) failed to start: "  # type: ignore[attr-defined]
                          f"{type(error).__name__}: {error}") from None

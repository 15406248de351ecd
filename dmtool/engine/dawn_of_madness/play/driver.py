"""The game loop: set a game up from content, let the automatic players play it to its end,
and keep a record (initial state, board layout, actions, answers) that replays exactly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from dmtool.engine.dawn_of_madness.actions import Action, new_action, parse_action
from dmtool.engine.dawn_of_madness.campaign import CampaignState
from dmtool.engine.dawn_of_madness.candidates import Menu
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Event
from dmtool.engine.dawn_of_madness.dice import SeededDice
from dmtool.engine.dawn_of_madness.engine import Applied, Legality, apply
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.plans import Plan
from dmtool.engine.dawn_of_madness.play.newgame import (
    NewGame,
    board_catalog,
    layout_for,
    new_state,
)
from dmtool.engine.dawn_of_madness.play.players import Player, Recorder, Replayer
from dmtool.engine.dawn_of_madness.play.policies import MENU_PLAYERS, make_player
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.engine.dawn_of_madness.turns import active_characters

MAX_STEPS: Final = 5000  # a game that has not ended by then is reported as stalled
POLICY_SALT: Final = 0x9E3779B97F4A7C15  # the players' generator starts apart from the dice's


@dataclass
class GameResult:
    """A finished (or stalled) game: its final state, event log and record."""

    state: GameState
    log: list[Event]
    record: dict[str, Any]
    stalled: bool = False
    states: list[GameState] = field(default_factory=list)
    steps: int = 0  # engine steps applied (the record's steps, when it keeps them)

    @property
    def outcome(self) -> str:
        """'failed', 'stalled', or 'ending X' (the finale's ending, once concluded)."""
        if self.stalled:
            return "stalled"
        if self.state.stage == "finale":
            return f"ending {self.state.ending}"
        return "failed"


def next_action(state: GameState, catalog: Catalog, chooser: Player) -> Action:
    """The system step due now, or the automatic players' pick of a legal action."""
    return decide(state, catalog, chooser)[0]


def decide(state: GameState, catalog: Catalog, chooser: Player) -> tuple[Action, Plan | None]:
    """`next_action`, with the plan its legality check made for a wanderer's action (None
    when there is none to reuse)."""
    if state.stage == "wanderer" and state.outcome == "won":
        return new_action("start_finale", None, {}), None
    if state.phase == "event":
        return new_action("event_phase", None, {}), None
    if state.phase == "refresh":
        return new_action("refresh", None, {}), None
    active = active_characters(state)
    if not active:
        raise EngineFault(f"nothing can act in the {state.phase} phase")
    if active[0] in state.monsters:  # a monster's turn (the active are all monsters or all
        # wanderers, see `active_characters`): no menu to list
        if len(active) == 1:
            return new_action("activate", None, {"monster": active[0]}), None
        # A tie among monsters on the track: the players pick which acts.
        return chooser.action([new_action("activate", None, {"monster": cid})
                               for cid in active]), None
    menu = Menu(state, catalog, active)
    legal = Legality(state, catalog, active)
    if type(chooser) in MENU_PLAYERS:  # not a subclass: a plug-in may override `choose`
        action = chooser.choose_from(state, catalog, menu, legal)  # type: ignore[attr-defined]
    else:
        action = chooser.choose(state, catalog, menu.actions(), legal)
    passed = legal.passed  # reused only if it is the very action chosen
    return action, passed[1] if passed is not None and passed[0] is action else None


def play(base: Catalog, game: NewGame, *, policy: str = "random",
         campaign: CampaignState | None = None, keep_states: bool = False,
         on_event: Callable[[Event], None] | None = None,
         keep_record: bool = True) -> GameResult:
    """Set up and play one game to its end (a failed wanderer stage, or a concluded
    finale). The same inputs always give the same game."""
    layout = layout_for(game.seed)
    catalog = board_catalog(base, layout)
    state = new_state(catalog, game, campaign)
    record: dict[str, Any] = {"game": asdict(game), "layout": layout}
    if keep_record:  # what a replay needs; many-game statistics need only the log
        record.update(initial=state.to_dict(), steps=[])
    chooser = make_player(policy, game.seed ^ POLICY_SALT)
    recorder = Recorder(chooser)
    # The answers are kept only for the record: without one, the player answers directly.
    answering: Player | Recorder = recorder if keep_record else chooser
    dice = SeededDice()
    log: list[Event] = []
    states: list[GameState] = []
    start = Action("start_game", None, {"players": game.players, "variant": game.variant,
                                        "devour": game.devour})
    action: Action | None = start
    for count in range(1, MAX_STEPS + 1):
        plan = None
        if action is None:
            action, plan = decide(state, catalog, chooser)
        recorder.answers = []
        done = apply(state, catalog, action, dice=dice, policy=answering,
                     in_place=not keep_states, step=count, checked=plan)
        if not isinstance(done, Applied):
            raise EngineFault(f"the engine refused its own legal action {action.to_dict()}: "
                              f"{done.code} ({done.message})")
        state = done.state
        if keep_record:
            record["steps"].append({"action": action.to_dict(), "answers": recorder.answers})
        log += done.events  # each already tagged with this step
        if on_event is not None:
            for event in done.events:
                on_event(event)
        if keep_states:
            states.append(state)
        if state.is_over():
            return GameResult(state, log, record, states=states, steps=count)
        action = None
    return GameResult(state, log, record, stalled=True, states=states, steps=MAX_STEPS)


def replay(base: Catalog, record: dict[str, Any]) -> GameState:
    """Rebuild the final state from a record: the initial state, then every action with the
    answers given at the time (the dice come from the generator inside the state)."""
    catalog = board_catalog(base, list(record["layout"]))
    state = GameState.from_dict(record["initial"])
    dice = SeededDice()
    for step in record["steps"]:
        done = apply(state, catalog, parse_action(step["action"]), dice=dice,
                     policy=Replayer(step["answers"]), in_place=True)
        if not isinstance(done, Applied):
            raise EngineFault(f"the replay was refused at {step['action']}: {done.code}")
        state = done.state
    return state

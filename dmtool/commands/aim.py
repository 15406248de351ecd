"""Targeted playthroughs for `dmtool graph --verify`: whole engine games steered toward each
place the story analysis calls impossible to reach.

A seeded game of a plain policy meets most of a storybook, but a place hidden behind a
rare choice or a test that seldom passes may never come up. So for every verdict of
impossibility (an entry never read, DM303; a conclusion a finale never reaches, DM305;
entries that lead only to each other, DM307; a coda never awarded, DM309; a condition
play cannot change, DM315) games are played that aim at it:

- each story choice goes to the option whose effects lead, by the fewest links of the
  storybook (every branch counted, whatever its conditions), nearest the target;
- a wanderer enters the encounter where it stands when that encounter's entry leads to
  the target, and otherwise moves toward the world shard whose encounter (or, in the
  finale, whose finale encounter) is nearest it;
- each action that reads the storybook (an encounter, an event phase, the start of the
  game or of the finale) is tried with several seeds of the engine's own dice generator
  and the outcome that came nearest the target is kept, so a test passes or fails as the
  way toward the target needs: every sequence of dice tried is one a table can roll;
- for a finale's conclusion, the outcome that gives that ending the lead is preferred too.

Everything else is left to the built-in players (greedy or random), so the game stays a
game of the rules. Randomness comes from the game's seed alone.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from dmtool.engine.core import rng
from dmtool.engine.core.policy import Question
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Event
from dmtool.engine.dawn_of_madness.dice import SeededDice
from dmtool.engine.dawn_of_madness.engine import Applied, apply
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.driver import MAX_STEPS, POLICY_SALT, decide
from dmtool.engine.dawn_of_madness.play.newgame import (
    NewGame,
    board_catalog,
    layout_for,
    new_state,
)
from dmtool.engine.dawn_of_madness.play.players import Chooser
from dmtool.engine.dawn_of_madness.play.story_choice import options_by_label
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Node

FAR: Final = 1 << 20  # the distance of a place no link leads from toward the target
TRIES: Final = 6  # dice seeds tried for each action that reads the storybook
READS: Final = frozenset({"encounter", "event_phase", "start_game", "start_finale"})
EXPLORE: Final = 0.15  # chance a story choice is left to the player's generator


@dataclass(frozen=True)
class Target:
    """A place the analysis calls impossible, and the entries that lead to it."""

    code: str  # DM303 | DM305 | DM307 | DM309 | DM315
    label: str  # in words, for the report
    goals: frozenset[int]  # the entries whose reading is (or leads straight to) the target
    ending: str | None = None  # DM305: the ending whose finale must read it
    coda: str | None = None  # DM309: the coda card never awarded


def targets(analysis: Analysis, decided: Iterable[tuple[str, int | None, Any]]) -> list[Target]:
    """A target per verdict of impossibility; `decided` gives DM315's (kind, entry,
    condition) triples, as the verifier reads them."""
    graph, solution = analysis.graph, analysis.solution
    storybook = graph.storybook
    found = [Target("DM303", f"entry {n}", frozenset([n]))
             for n in storybook.entries if n not in solution.reached]
    for letter, ending in storybook.endings.items():
        for conclusion in ending.conclusions:
            if (conclusion.entry in storybook.entries
                    and conclusion.entry not in solution.finale.get(letter, ())):
                found.append(Target("DM305", f"ending {letter}'s conclusion {conclusion.entry}",
                                    frozenset([conclusion.entry]), ending=letter))
    for trap in analysis.traps:
        found.append(Target("DM307", "entries " + ", ".join(map(str, trap)), frozenset(trap)))
    for coda in graph.context.codas:
        if coda not in solution.facts.codas:
            givers = frozenset(n for n, arcs in graph.arcs.items() if isinstance(n, int)
                               and any(coda in a.codas for a in arcs))
            found.append(Target("DM309", f"coda card '{coda}'", givers, coda=coda))
    for kind, entry, condition in decided:
        if entry is not None:
            found.append(Target("DM315", f"the {kind} condition {json.dumps(condition)} of "
                                         f"entry {entry}", frozenset([entry])))
    return found


def distances(analysis: Analysis, goals: frozenset[int]) -> dict[Node, int]:
    """Links from each node to the nearest goal, over every branch whatever its conditions
    (a spawned card's entry counts as one link on)."""
    back: dict[Node, list[Node]] = {}
    for node, arcs in analysis.graph.arcs.items():
        for arc in arcs:
            for nxt in (arc.goto, *arc.enables):
                if nxt is not None:
                    back.setdefault(nxt, []).append(node)
    dist: dict[Node, int] = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:
        node = queue.popleft()
        for previous in back.get(node, ()):
            if previous not in dist:
                dist[previous] = dist[node] + 1
                queue.append(previous)
    return dist


class Options:
    """The effects of every story option by its label (labels may repeat across entries:
    such an option is valued by the best of its namesakes)."""

    def __init__(self, entries: Mapping[int, Mapping[str, Any]]) -> None:
        self.by_label = options_by_label(entries)


def _links(effects: Any) -> Iterator[tuple[str, Any]]:
    """Every (name, value) of the effects, nested ones too."""
    if isinstance(effects, list):
        for effect in effects:
            yield from _links(effect)
    elif isinstance(effects, Mapping):
        for name, value in effects.items():
            yield name, value
            if isinstance(value, (list, Mapping)):
                yield from _links(value)


@dataclass
class Aim:
    """What one targeted game steers by."""

    target: Target
    dist: dict[Node, int]
    options: Options

    def effects_distance(self, effects: Any) -> tuple[int, int]:
        """(links to the target, minus points to the target's ending) of option effects."""
        best, points = FAR, 0
        for name, value in _links(effects):
            if name == "goto" and isinstance(value, int):
                best = min(best, self.dist.get(value, FAR) + 1)
            elif name == "gain_coda" and value == self.target.coda:
                best = 0
            elif name == "score" and isinstance(value, Mapping) and self.target.ending:
                points += int(value.get(self.target.ending, 0) or 0)
        return best, -points

    def closeness(self, events: list[Event], state: GameState) -> tuple[int, int, int]:
        """How near an action's outcome came: (reached, minus links left, the lead of the
        target's ending)."""
        reached = 0
        best = FAR
        for event in events:
            kind = event["event"]
            if kind == "entry":
                entry = event["entry"]
                if entry in self.target.goals:
                    reached = 1
                best = min(best, self.dist.get(entry, FAR))
            elif kind == "coda_gained" and event.get("coda") == self.target.coda:
                reached = 1
        lead = 0
        ending = self.target.ending
        if ending is not None:
            scores = state.scores
            lead = scores.get(ending, 0) - max(
                (v for e, v in scores.items() if e != ending), default=0)
            if state.stage == "finale" and state.ending != ending:
                lead -= 1000  # the wrong finale: the target is out of this game's reach
        return reached, -best, lead


class Steer:
    """A player (the engine's Player protocol) that answers story choices toward the
    target and leaves the rest to a built-in player."""

    def __init__(self, aim: Aim, policy: str, seed: int) -> None:
        self.aim = aim
        self.base = Chooser(policy, seed)
        self.seed = seed ^ 0x5DEECE66D

    def _chance(self) -> float:
        self.seed, value = rng.below(self.seed, 1 << 30)
        return value / (1 << 30)

    def choose(self, state: GameState, catalog: Catalog, candidates: list[Action],
               legal: Any) -> Action:
        if self._chance() >= EXPLORE:
            near = self._shard_distances(state, catalog)
            best: tuple[int, int] | None = None
            found: Action | None = None
            for action in candidates:
                if action.kind == "encounter" and action.wanderer in state.wanderers:
                    where = state.wanderers[action.wanderer].shard
                    value = (near.get(where, FAR) if where is not None else FAR, 0)
                elif action.kind == "move" and isinstance(action.arg("to"), int):
                    value = (near.get(action.arg("to"), FAR), 1)
                else:
                    continue
                if value[0] < FAR and (best is None or value < best) and legal(action):
                    best, found = value, action
            if found is not None:
                return found
        return self.base.choose(state, catalog, candidates, legal)

    def _shard_distances(self, state: GameState, catalog: Catalog) -> dict[int, int]:
        """Links from each world shard's encounter (in the finale: its finale encounter
        for the ending being played) to the target."""
        dist = self.aim.dist
        found: dict[int, int] = {}
        for number, shard in catalog.shards.items():
            if state.stage == "finale":
                entry = (shard.get("finale") or {}).get(state.ending or "")
            else:
                entry = (shard.get("encounter") or {}).get("entry")
            if isinstance(entry, int) and entry in dist:
                found[number] = dist[entry]
        return found

    def action(self, actions: list[Action]) -> Action:
        return self.base.action(actions)

    def ask(self, question: Question) -> tuple[str, Any]:
        if question.keys[0] == "choice" and question.options and self._chance() >= EXPLORE:
            values = [min((self.aim.effects_distance(e)
                           for e in self.aim.options.by_label.get(str(label), [[]])),
                          default=(FAR, 0))
                      for label in question.options]
            best = min(range(len(values)), key=lambda i: (values[i], i))
            return "choice", best + 1
        return self.base.ask(question)


@dataclass
class Played:
    state: GameState
    log: list[Event]
    stalled: bool = False


def aimed_game(base: Catalog, game: NewGame, aim: Aim, policy: str) -> Played:
    """One game of `policy` steered toward the aim's target (see the module's words)."""
    catalog = board_catalog(base, layout_for(game.seed))
    state = new_state(catalog, game, None)
    player = Steer(aim, policy, game.seed ^ POLICY_SALT)
    dice = SeededDice()
    log: list[Event] = []
    action: Action | None = Action("start_game", None, {
        "players": game.players, "variant": game.variant, "devour": game.devour})
    for count in range(1, MAX_STEPS + 1):
        plan = None
        if action is None:
            action, plan = decide(state, catalog, player)
        if action.kind in READS:
            done = _best_of(state, catalog, action, dice, player, count)
        else:
            done = apply(state, catalog, action, dice=dice, policy=player, in_place=True,
                         step=count, checked=plan)
        if not isinstance(done, Applied):
            raise EngineFault(f"the engine refused its own legal action {action.to_dict()}: "
                              f"{done.code} ({done.message})")
        state = done.state
        log += done.events
        if state.is_over():
            return Played(state, log)
        action = None
    return Played(state, log, stalled=True)


def _best_of(state: GameState, catalog: Catalog, action: Action, dice: SeededDice,
             player: Steer, step: int) -> Any:
    """The action applied with TRIES seeds of the dice generator; the outcome nearest the
    target (the first seed on a tie, which is the game's own)."""
    start = state.rng
    best: Any = None
    best_value: tuple[int, int, int] | None = None
    seed = start
    for _ in range(TRIES):
        state.rng = seed
        done = apply(state, catalog, action, dice=dice, policy=player, in_place=False,
                     step=step)
        if not isinstance(done, Applied):
            state.rng = start
            return done
        value = player.aim.closeness(done.events, done.state)
        if best_value is None or value > best_value:
            best, best_value = done, value
        if value[0]:
            break
        seed, _ = rng.below(seed ^ 0xA5A5A5A5, 1 << 62)
    state.rng = start
    return best

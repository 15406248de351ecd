"""`dmtool graph --verify N`: the rules engine as the referee of the story analysis.

For each storybook analysed, N seeded games per policy are played (player counts 1 to 4 in
turn), then N games aimed at each place the analysis calls impossible (aim.py: story
choices toward it, the dice of each reading action tried with several seeds, greedy and
random play in turn). Every game is held against what the analysis says can never happen:
an entry called unreachable (DM303) read; a conclusion its ending's finale can never reach
(DM305) read in that finale; a reader who entered entries said to lead only to each other
(DM307) come out of them by a branch; a coda card never awarded (DM309) gained; a
condition said always (never) true (DM315) come out otherwise where it is read (`if` and
option conditions as observe.py records them, entrances by the log's entry or refusal; a
card's spawning condition is not observed and is counted as such); an ending's score above
the bound `score_bounds` states; a wanderer's sentience outside the range the analysis
derives from the dashboards, coda cards, other cards and branches (bounds.py).
Then each witness the analysis prints for a place it calls reachable is replayed in the
engine as the scenario fixture `--witness-dir` writes (fixtures.py), set up with what the
conditions on its path need; it must get there.

This sits above both the story graph and the engine (the layers keep them apart).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from dmtool.commands.aim import Aim, Options, Target, aimed_game, distances, targets
from dmtool.commands.observe import Seen, key, observing
from dmtool.commands.replay import replay
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Event
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.bounds import sentience_ranges
from dmtool.storygraph.checked import check_storybooks
from dmtool.storygraph.conditions import Facts, judge
from dmtool.storygraph.explain import Everything, read_at, written_conditions
from dmtool.storygraph.fixtures import witness_script
from dmtool.storygraph.witness import render_witness, witnesses
from dmtool.validation.pipeline import CheckOptions

POLICIES = ("random", "first", "greedy", "planner")
AIMED_POLICIES = ("greedy", "random")  # what plays the rest of an aimed game, in turn
INF = float("inf")
T = TypeVar("T")


@dataclass
class Verdicts:
    """What one analysis calls impossible, in the terms a played game can refute."""

    unreachable: frozenset[int]
    never_concluded: dict[str, frozenset[int]]  # ending -> conclusions its finale never reads
    never_awarded: frozenset[str]
    most: dict[str, float]  # ending -> the most points it can have at the end of a game
    traps: tuple[frozenset[int], ...] = ()  # DM307: entries that lead only to each other
    # DM315: (kind then | option | entrance | spawn, entry read in, condition, its value)
    decided: tuple[tuple[str, int | None, Any, bool], ...] = ()
    sentience: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass
class StoryVerification:
    storybook: str
    games: int = 0
    contradictions: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)  # witnesses replayed to their place
    needs_setup: list[str] = field(default_factory=list)
    skipped: str | None = None  # why no game could be played
    targets: list[str] = field(default_factory=list)  # places aimed at
    aimed_games: int = 0
    reached: list[str] = field(default_factory=list)  # targets an aimed game got to (bad)
    unobserved: list[str] = field(default_factory=list)  # verdicts no game can observe
    # Games the engine stopped at its nesting limit outside any trap: a chain of entries
    # longer than the engine follows in one encounter (no verdict of the analysis is about
    # it, so it refutes none; it is reported, not counted as a contradiction).
    limited: list[str] = field(default_factory=list)


def verdicts(analysis: Analysis) -> Verdicts:
    graph, solution = analysis.graph, analysis.solution
    never_concluded = {
        letter: frozenset(c.entry for c in ending.conclusions
                          if c.entry not in solution.finale.get(letter, ()))
        for letter, ending in graph.storybook.endings.items()
    }
    return Verdicts(
        unreachable=frozenset(n for n in graph.entries if n not in solution.reached),
        never_concluded=never_concluded,
        never_awarded=frozenset(c for c in graph.context.codas if c not in solution.facts.codas),
        most={e: b.game_max for e, b in analysis.scores.bounds.items()},
        traps=tuple(frozenset(t) for t in analysis.traps),
        decided=tuple(_decided(analysis)),
        sentience=sentience_ranges(graph, solution.facts, solution.stage,
                                   solution.finale.values()),
    )


def _decided(analysis: Analysis) -> Iterable[tuple[str, int | None, Any, bool]]:
    """The conditions DM315 reports, as explain.decided_findings judges them: each with
    where it rules (then | option | entrance | spawn, or card-entrance for a card's), the
    entry it is read in (an entrance's: its entry; a card's: the card's entry) and its
    value."""
    graph, solution = analysis.graph, analysis.solution
    facts = solution.facts
    loose = Facts(codas=Everything(), visited=Everything(), scores=facts.scores,
                  sentience=facts.sentience, notes=facts.notes)
    entrance_of = {id(c): n for n, c in graph.entrances.items()}
    card_of = {id(s.entrance): s.entry for s in (*graph.context.cards, *graph.context.finale)
               if s.entrance is not None}
    for condition, place_of, where in written_conditions(graph, solution):
        verdict = judge(condition, read_at(loose, where, solution.floors))
        if verdict.value is None:
            continue
        kind = place_of()[0]
        node = where[3]
        if kind == "entrance" and id(condition) in card_of:
            kind, entry = "card-entrance", card_of[id(condition)]
        elif kind == "entrance":
            entry = entrance_of.get(id(condition))
        else:
            entry = node if isinstance(node, int) else None
        yield kind, entry, condition, verdict.value


def refuted(found: Verdicts, result: GameResult | Any, seen: Seen | None = None
            ) -> Iterable[str]:
    """Each verdict of `found` the played game refutes, in words (`seen`: what the
    conditions came to, observe.py)."""
    state = result.state
    visited = set(state.visited)
    for entry in sorted(visited & found.unreachable):
        yield f"entry {entry} is called unreachable, but the game read it"
    if state.stage == "finale" and state.ending is not None:
        for entry in sorted(visited & found.never_concluded.get(state.ending, frozenset())):
            yield (f"ending {state.ending}'s finale is said never to reach conclusion entry "
                   f"{entry}, but the game read it")
    for event in result.log:
        if event.get("event") == "coda_gained" and event.get("coda") in found.never_awarded:
            yield f"coda card '{event['coda']}' is said never to be awarded, but was gained"
    for ending, most in found.most.items():
        score = state.scores.get(ending, 0)
        if score > most:
            yield f"ending {ending} is said to have at most {int(most)} points, but ended with {score}"
    yield from _escaped(found, result.log)
    yield from _conditions(found, result.log, seen or {})
    yield from _sentience(found, state, result.log)


def _escaped(found: Verdicts, log: list[Event]) -> Iterable[str]:
    """DM307: an encounter that read an entry of a trap and then ended by a branch (not by
    death, nor by the stage ending around it)."""
    if not found.traps:
        return
    inside: list[frozenset[int]] = []
    for event in log:
        kind = event["event"]
        if kind == "encounter_started":
            inside = []
        elif kind == "entry":
            inside = [t for t in found.traps if event["entry"] in t] or inside
        elif kind == "encounter_ended" and inside and event.get("reason") in ("end", "done"):
            names = ", ".join(map(str, sorted(inside[0])))
            yield (f"entries {names} are said to lead only to each other, but an encounter "
                   f"that entered them ended ({event.get('reason')})")
            inside = []


def _conditions(found: Verdicts, log: list[Event], seen: Seen) -> Iterable[str]:
    """DM315: a condition said always (never) true that came out otherwise where it is
    read."""
    entered = {e["entry"] for e in log if e["event"] == "entry"}
    refused = {e["entry"] for e in log if e["event"] == "entrance_refused"}
    # An encounter entered through a card: its entrance condition held at that moment (a
    # refusal is an illegal action, which no log shows).
    through_card = {e["entry"] for e in log
                    if e["event"] == "encounter_started" and e.get("card")}
    for kind, entry, condition, value in found.decided:
        if kind == "entrance":
            came = ({True} if entry in entered else set()) | (
                {False} if entry in refused else set())
        elif kind == "card-entrance":
            came = {True} if entry in through_card else set()
        elif kind in ("then", "option"):
            came = seen.get(key(entry, condition), set())
        else:
            continue
        if (not value) in came:
            said = "always" if value else "never"
            yield (f"the {kind} condition {json.dumps(condition)} of entry {entry} is said to "
                   f"be {said} true, but came out {str(not value).lower()}")


def _sentience(found: Verdicts, state: Any, log: list[Event]) -> Iterable[str]:
    """A wanderer's sentience outside the range the analysis states (at each change the log
    shows, and at the end)."""
    if not found.sentience:
        return
    values = [(e["wanderer"], e["sentience"]) for e in log
              if e["event"] == "sentience_changed"]
    values += [(w.id, w.sentience) for w in state.wanderers.values()]
    told: set[tuple[str, str]] = set()
    for who, sentience in values:
        for colour, (low, high) in found.sentience.items():
            value = sentience.get(colour, 0)
            if not low <= value <= high and (who, colour) not in told:
                told.add((who, colour))
                yield (f"{who}'s {colour} sentience is said to stay within "
                       f"{_show(low)}..{_show(high)}, but was {value}")


def _show(value: float) -> str:
    return str(int(value)) if value not in (INF, -INF) else ("any" if value > 0 else "-any")


def content_root(storybook: Path) -> Path:
    """The content tree a storybook belongs to: the nearest folder above it holding the base
    game's components (the default content/ otherwise)."""
    for folder in storybook.resolve().parents:
        if (folder / "dawn-of-madness").is_dir():
            return folder
    return default_content_dir()


def verify_analysis(analysis: Analysis, games: int, *, root: Path | None = None,
                    policies: Sequence[str] = POLICIES) -> StoryVerification:
    storybook = analysis.graph.storybook
    out = StoryVerification(storybook.display)
    found = verdicts(analysis)
    root = root or content_root(Path(storybook.display))
    try:
        catalog = load_catalog(root, storybook.wanderer)
    except EngineFault as fault:
        out.skipped = f"the engine cannot set up a game for it ({fault})"
        return out
    aims = targets(analysis, [(k, e, c) for k, e, c, _ in found.decided])
    out.unobserved = [f"the spawning condition {json.dumps(c)} is said to be "
                      f"{'always' if v else 'never'} true (card spawns are not observed)"
                      for k, _, c, v in found.decided if k == "spawn"]
    out.unobserved += [f"the card entrance {json.dumps(c)} of entry {e} is said to be always "
                       "true (a refused card is an illegal action: no log shows it)"
                       for k, e, c, v in found.decided if k == "card-entrance" and v]
    with observing() as seen:
        for policy in policies:
            for seed in range(games):
                game = NewGame(storybook.wanderer, seed, 1 + seed % 4)
                result = _observed(found, seen, out, f"{policy} seed {seed}",
                                   partial(play, catalog, game, policy=policy, keep_record=False))
                if result is None:
                    continue
                out.games += 1
                _refuted(found, result, seen, out,
                         f"{policy} policy, {game.seats} wanderers, seed {seed}")
        _aim(analysis, catalog, found, aims, games, out, seen)
    _replay_witnesses(analysis, out, root)
    return out


def _aim(analysis: Analysis, catalog: Catalog, found: Verdicts, aims: list[Target],
         games: int, out: StoryVerification, seen: Seen) -> None:
    """`games` targeted games at each place called impossible (aim.py)."""
    wanderer = analysis.graph.storybook.wanderer
    options = Options(catalog.entries)
    for target in aims:
        out.targets.append(f"{target.code} {target.label}")
        aim = Aim(target, distances(analysis, target.goals), options)
        for seed in range(games):
            policy = AIMED_POLICIES[seed % len(AIMED_POLICIES)]
            game = NewGame(wanderer, seed, 1 + seed % 4)
            played = _observed(found, seen, out, f"aimed at {target.label}: {policy} seed {seed}",
                               partial(aimed_game, catalog, game, aim, policy))
            if played is None:
                continue
            out.aimed_games += 1
            _refuted(found, played, seen, out, f"aimed at {target.code} {target.label}; "
                     f"{policy} policy, {game.seats} wanderers, seed {seed}")


def _observed(found: Verdicts, seen: Seen, out: StoryVerification, where: str,
              game: Callable[[], T]) -> T | None:
    """One game played with its conditions observed afresh; None when the engine stopped
    it (noted by _stopped under `where`)."""
    seen.clear()
    try:
        return game()
    except EngineFault as fault:
        _stopped(found, fault, where, out)
        return None


def _refuted(found: Verdicts, result: Any, seen: Seen, out: StoryVerification,
             how: str) -> None:
    """Each verdict the game refuted, as a contradiction naming how it was played."""
    for what in refuted(found, result, seen):
        out.contradictions.append(f"{what} ({how})")


def _stopped(found: Verdicts, fault: EngineFault, game: str,
             out: StoryVerification) -> None:
    """A game the engine stopped: inside a trap (DM307) it is what the verdict says; at
    the nesting limit elsewhere, an engine limit (reported); else a contradiction."""
    match = re.search(r"nests more than \d+ blocks .*\(entry (\d+)\)", str(fault))
    if match is None:
        out.contradictions.append(f"{game}: the engine stopped: {fault}")
    elif not any(int(match.group(1)) in t for t in found.traps):
        out.limited.append(f"{game}: {fault}")


def _replay_witnesses(analysis: Analysis, out: StoryVerification, root: Path) -> None:
    """Each witness replayed in the engine (replay.py); one that cannot be set up is
    reported with why, one that does not get there is a contradiction."""
    for witness in witnesses(analysis):
        label = render_witness(witness).splitlines()[0]
        script = witness_script(witness, analysis)
        why = replay(script, root)
        if why is None:
            out.confirmed.append(label)
        elif why.startswith("not replayed: "):
            out.needs_setup.append(f"{label} ({why.removeprefix('not replayed: ')})")
        else:
            out.contradictions.append(f"the witness '{label}' does not get there: {why}")


def run_verify(paths: Sequence[Path], games: int,
               check: CheckOptions | None = None) -> list[StoryVerification]:
    checked = check_storybooks(paths, check)
    return [verify_analysis(a, games) for a in checked.analyses()]


def render(results: Sequence[StoryVerification]) -> str:
    lines: list[str] = []
    for r in results:
        if r.skipped:
            lines.append(f"verify {r.storybook}: not played: {r.skipped}")
            continue
        witnesses = len(r.confirmed) + len(r.needs_setup)
        lines.append(f"verify {r.storybook}: {r.games} games, {r.aimed_games} aimed at "
                     f"{len(r.targets)} place(s) called impossible, "
                     f"{len(r.contradictions)} contradiction(s); witnesses: "
                     f"{len(r.confirmed)} of {witnesses} replayed to their place")
        lines += [f"  contradiction: {c}" for c in r.contradictions]
        lines += [f"  not replayed: {w}" for w in r.needs_setup]
        lines += [f"  not observed: {u}" for u in r.unobserved]
        lines += [f"  stopped at the engine's limit: {g}" for g in r.limited]
    return "\n".join(lines) + "\n"


def as_data(results: Sequence[StoryVerification]) -> list[dict[str, Any]]:
    return [{"storybook": r.storybook, "games": r.games, "aimed_games": r.aimed_games,
             "targets": r.targets, "contradictions": r.contradictions,
             "confirmed": r.confirmed, "needs_setup": r.needs_setup,
             "unobserved": r.unobserved, "limited": r.limited, "skipped": r.skipped}
            for r in results]

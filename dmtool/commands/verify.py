"""`dmtool graph --verify N`: the rules engine as the referee of the story analysis.

For each storybook analysed, N seeded games per policy are played (player counts 1 to 4 in
turn) and every game is held against what the analysis says can never happen: an entry
called unreachable (DM303) read, a conclusion its ending's finale can never reach (DM305)
read in that finale, a coda card never awarded (DM309) gained, an ending's score above the
bound `score_bounds` states. Then each witness the analysis prints for a place it calls
reachable is replayed in the engine as the scenario fixture `--witness-dir` writes; a
witness whose path needs no setup (no condition along it, no otherworld die) must get
there, the others are reported as needing setup.

This sits above both the story graph and the engine (the layers keep them apart).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.loading import read_document
from dmtool.model.content_index import default_content_dir
from dmtool.scenarios.commands import run_one
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.checked import check_storybooks
from dmtool.storygraph.fixtures import fixture_skeleton
from dmtool.storygraph.witness import Witness, render_witness, witnesses
from dmtool.validation.pipeline import CheckOptions

POLICIES = ("random", "first", "greedy", "planner")
INF = float("inf")


@dataclass
class Verdicts:
    """What one analysis calls impossible, in the terms a played game can refute."""

    unreachable: frozenset[int]
    never_concluded: dict[str, frozenset[int]]  # ending -> conclusions its finale never reads
    never_awarded: frozenset[str]
    most: dict[str, float]  # ending -> the most points it can have at the end of a game


@dataclass
class StoryVerification:
    storybook: str
    games: int = 0
    contradictions: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)  # witnesses replayed to their place
    needs_setup: list[str] = field(default_factory=list)
    skipped: str | None = None  # why no game could be played


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
    )


def refuted(found: Verdicts, result: GameResult) -> Iterable[str]:
    """Each verdict of `found` the played game refutes, in words."""
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
    for policy in policies:
        for seed in range(games):
            game = NewGame(storybook.wanderer, seed, 1 + seed % 4)
            try:
                result = play(catalog, game, policy=policy, keep_record=False)
            except EngineFault as fault:
                out.contradictions.append(f"{policy} seed {seed}: the engine stopped: {fault}")
                continue
            out.games += 1
            for what in refuted(found, result):
                out.contradictions.append(
                    f"{what} ({policy} policy, {game.seats} wanderers, seed {seed})")
    _replay_witnesses(analysis, out, root)
    return out


def _replay_witnesses(analysis: Analysis, out: StoryVerification, root: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="dmtool-verify-") as folder:
        for witness in witnesses(analysis):
            label = render_witness(witness).splitlines()[0]
            name, text = fixture_skeleton(witness, analysis, folder=Path(folder))
            # The fixture reads the storybook from the tree it belongs to.
            text = text.replace("\nkind: scenario\n",
                                f"\nkind: scenario\ncontent: {json.dumps(str(root))}\n", 1)
            path = Path(folder) / name
            path.write_text(text, encoding="utf-8")
            loaded = read_document(path, name)
            result = run_one(loaded.document) if loaded.document is not None else None
            if result is not None and result.status == "passed":
                out.confirmed.append(label)
            elif _needs_setup(text, witness):
                out.needs_setup.append(label)
            else:
                why = "; ".join(d.message for d in result.diagnostics) if result else "unreadable"
                out.contradictions.append(f"the witness '{label}' does not get there: {why}")


def _needs_setup(skeleton: str, witness: Witness) -> bool:
    """Whether the skeleton says its path needs setup it cannot script: a condition, an
    otherworld die roll, or a start in a block that is not an entry."""
    return "  # " in skeleton or not isinstance(witness.hops[0].node, int)


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
        lines.append(f"verify {r.storybook}: {r.games} games, {len(r.contradictions)} "
                     f"contradiction(s); witnesses: {len(r.confirmed)} replayed to their "
                     f"place, {len(r.needs_setup)} need setup")
        lines += [f"  contradiction: {c}" for c in r.contradictions]
        lines += [f"  needs setup: {w}" for w in r.needs_setup]
    return "\n".join(lines) + "\n"


def as_data(results: Sequence[StoryVerification]) -> list[dict[str, Any]]:
    return [{"storybook": r.storybook, "games": r.games, "contradictions": r.contradictions,
             "confirmed": r.confirmed, "needs_setup": r.needs_setup, "skipped": r.skipped}
            for r in results]

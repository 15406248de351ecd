"""Random playthroughs: walking a storybook many times with seeded random choices and dice.

A playthrough is a simplified game that only follows the story: the storybook setup, then
up to ten rounds, each reading its round tracker's event entry, spawning cards whose
spawning condition holds, and resolving a few encounters picked at random among the world
shards not yet completed and the spawned cards. When the total score reaches the goal the
stage is won and the ending with the highest score is entered (ties A, B, C, D); its
finale reads the setup and event phase blocks and encounters (the start first) until a
conclusion. Test outcomes are drawn with their exact probability at the current sentience
values (dice.py), so no dice are rolled; choices and optional effects are uniform;
conditions are evaluated on what the walk knows (codas, visited entries, scores, round,
sentience, trapped) and coin-flipped when they ask about the board. Monsters, health and
the abomination are not played: this measures the story's shape, not a real game.
Randomness comes only from one `random.Random(seed)`, drawn in a fixed order (encounter
picks and finale encounters as `randrange`/`choice` draw them), so a seed gives the same
report on every run. A decision is a test outcome, a choice among the options open, or an
optional effect taken or not. Speed: the storybook is compiled once (program.py) into
chains of opcode nodes that a walk follows without a stack, conditions into functions and
tests into functions remembering their odds by sentience values; one game object is reused
for all playthroughs, so a walk costs little more than its decisions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.dice import COLOURS
from dmtool.storygraph.program import (
    CHOICE,
    CHOOSE_WHEN,
    ENDINGS,
    EXIT,
    GAIN_CODA,
    GOTO,
    IF,
    MAY,
    RELEASE,
    SCORE,
    SENTIENCE,
    SPAWN,
    TEST,
    TRAP,
    Knowledge,
    Program,
    Story,
)


@dataclass(frozen=True, kw_only=True)
class PlayOptions:
    runs: int
    seed: int = 0
    sentience: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 1))
    goal: int = 40
    rounds: int = 10
    encounters_per_round: int = 3
    finale_rounds: int = 12
    # Gotos followed in one walk before we call it stuck in a loop.
    max_links: int = 500
    # Keep each playthrough's path (entries in the order read, scores, ending): `--paths`.
    paths: bool = False


@dataclass
class PlayReport:
    runs: int
    outcomes: Counter[str] = field(default_factory=Counter)  # "A".."D" or "stage failed"
    conclusions: Counter[tuple[str, int | None]] = field(default_factory=Counter)
    visits: Counter[int] = field(default_factory=Counter)
    never_visited: list[int] = field(default_factory=list)
    decisions: int = 0
    stuck: int = 0
    paths: list[dict[str, Any]] = field(default_factory=list)


class _Trail(set[int]):
    """The visited set of a walk that also keeps the order entries were read in (repeats
    too), for `PlayOptions.paths`; a plain set otherwise, so plain walks pay nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list[int] = []

    def add(self, entry: int) -> None:
        self.order.append(entry)
        super().add(entry)

    def clear(self) -> None:
        self.order.clear()
        super().clear()


def play(analysis: Analysis, options: PlayOptions) -> PlayReport:
    story = Story(analysis)
    report = PlayReport(options.runs)
    game = _Game(story, options)
    trail = game.know.visited = _Trail() if options.paths else game.know.visited
    for _ in range(options.runs):
        outcome, conclusion = game.play()
        if isinstance(trail, _Trail):
            report.paths.append({"entries": list(trail.order), "scores": list(game.know.scores),
                                 "outcome": outcome, "conclusion": conclusion})
        report.outcomes[outcome] += 1
        if outcome in ENDINGS:
            report.conclusions[(outcome, conclusion)] += 1
        report.visits.update(game.know.visited)
    report.decisions, report.stuck = game.decisions, game.stuck
    report.never_visited = sorted(n for n in story.entries if n not in report.visits)
    return report


class _Game:
    """One playthrough after another; the state objects are reused from game to game."""

    __slots__ = (
        "at", "coda_sentience", "current", "decisions", "getrandbits", "know", "max_links",
        "options", "random", "spawned", "start", "story", "stuck", "targets", "trapped",
    )  # fmt: skip

    def __init__(self, story: Story, options: PlayOptions) -> None:
        rng = random.Random(options.seed)
        self.story, self.options = story, options
        self.random, self.getrandbits = rng.random, rng.getrandbits
        self.targets, self.coda_sentience = story.targets, story.coda_sentience
        # At least 0, so that entering an entry (a goto counted as link -1) is never stuck.
        self.max_links = max(0, options.max_links)
        self.start = [int(options.sentience.get(c, 0)) for c in COLOURS]
        self.know = Knowledge(list(self.start))
        self.decisions = self.stuck = 0
        self.at: int | None = None
        self.current: int | None = None
        self.trapped: int | None = None
        self.spawned: list[int] = []  # entries of cards spawned, not yet on the board

    def _below(self, n: int) -> int:
        """random.Random.randrange(n) and choice's index, drawn as they draw it."""
        getrandbits, k = self.getrandbits, n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def play(self) -> tuple[str, int | None]:
        story, options, know, random_ = self.story, self.options, self.know, self.random
        know.codas.clear()
        know.visited.clear()
        know.scores[:] = (0, 0, 0, 0)
        know.sentience[:] = self.start
        know.round, know.trapped = 0, False
        self.at = self.current = self.trapped = None
        self.spawned.clear()
        if self.walk(story.blocks.get("setup")) == "fail_stage":
            return "stage failed", None
        open_shards = list(story.shards)
        open_cards: list[int] = []
        waiting = story.spawning
        spawned, events, enter = self.spawned, story.events, self.enter
        for round_ in range(1, options.rounds + 1):
            know.round = round_
            if round_ <= len(events) and enter(events[round_ - 1]) == "fail_stage":
                return "stage failed", None
            if waiting:
                still = []
                for when, entry in waiting:
                    value = when(know) if when is not None else None
                    if random_() < 0.5 if value is None else value:
                        spawned.append(entry)
                    else:
                        still.append((when, entry))
                waiting = still
            for _ in range(options.encounters_per_round):
                if spawned:
                    for entry in spawned:
                        if entry not in open_cards:
                            open_cards.append(entry)
                    spawned.clear()
                pool: list[int] | None
                if self.trapped is not None:
                    number, pool = self.trapped, None
                else:
                    shards = len(open_shards)
                    choices = shards + len(open_cards)
                    if not choices:
                        break
                    pick = self._below(choices)
                    if pick < shards:
                        number, pool = open_shards[pick], open_shards
                    else:
                        number, pool = open_cards[pick - shards], open_cards
                self.current = number
                exit_ = enter(number)
                if exit_ == "fail_stage":
                    return "stage failed", None
                if exit_ == "end" and pool is not None and self.trapped is None:
                    pool.remove(number)  # completed: not offered again
            if sum(know.scores) >= options.goal:
                break
        else:
            return "stage failed", None
        scores = know.scores
        letter = ENDINGS[scores.index(max(scores))]  # ties go to the earliest ending
        return letter, self._finale(letter)

    def _finale(self, letter: str) -> int | None:
        setup, event, first, later = self.story.finales[letter]
        self.trapped = None
        if self.walk(setup) == "conclude":
            return self.at
        for turn in range(self.options.finale_rounds):
            if self.walk(event) == "conclude":
                return self.at
            pool = later if turn else first
            if not pool:
                return None
            if self.enter(pool[self._below(len(pool))]) == "conclude":
                return self.at
        return None

    def enter(self, number: int) -> str:
        """Read an entry if its entrance condition lets us, and follow it to its exit."""
        # A goto that is not counted as a link: entering is not following the story.
        return self.walk((GOTO, number, None, None), -1)

    def walk(self, node: Program, links: int = 0) -> str:
        """Follow a program to its exit; returns the exit's kind (or open, refused, stuck)."""
        if node is None:
            return "open"
        # Only what most walks use is held in locals; a walk meets few effects.
        know, random_, targets, visit = self.know, self.random, self.targets, self.know.visited.add
        decisions = 0
        result = "open"
        while node is not None:
            code, a, b, then = node
            if code == GOTO:
                links += 1
                if links > self.max_links:
                    self.stuck += 1
                    result = "stuck"
                    break
                target = targets.get(a)
                if target is None:
                    result = "refused"
                    break
                gate, node = target
                if gate is not None:
                    value = gate(know)
                    if not (random_() < 0.5 if value is None else value):
                        result = "refused"
                        break
                self.at = a
                visit(a)
            elif code == EXIT:
                result = a
                break
            elif code == CHOICE:
                decisions += 1
                node = a[int(random_() * b)]
            elif code == SCORE:
                scores = know.scores
                for index, points in a:
                    value = scores[index] + points
                    scores[index] = max(0, value)
                node = then
            elif code == TEST:
                decisions += 1
                node = b if random_() < a(know.sentience) else then
            elif code == SPAWN:
                self.spawned.append(a)
                node = then
            elif code == GAIN_CODA:
                if a not in know.codas:
                    know.codas.add(a)
                    for colour, delta in self.coda_sentience.get(a, ()):
                        know.sentience[colour] += delta
                node = then
            elif code == IF:
                value = a(know)
                node = b if (random_() < 0.5 if value is None else value) else then
            elif code == CHOOSE_WHEN:
                options = [head for when, head in a if when is None or when(know) is not False]
                if options:
                    decisions += 1
                    node = options[int(random_() * len(options))]
                else:
                    node = then
            elif code == MAY:
                decisions += 1
                node = a if random_() < 0.5 else then
            elif code == SENTIENCE:
                sentience = know.sentience
                for colour, delta in a:
                    sentience[colour] += delta
                node = then
            elif code == TRAP:
                # Trapped wanderers keep resolving the encounter they are trapped in.
                self.trapped, know.trapped = self.current, True
                node = then
            elif code == RELEASE:
                self.trapped, know.trapped = None, False
                node = then
            else:  # LOSE_CODA
                know.codas.discard(a)
                node = then
        self.decisions += decisions
        return result

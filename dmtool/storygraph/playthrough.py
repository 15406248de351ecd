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
Randomness comes only from one `random.Random(seed)`. Effects are compiled once into
small opcode tuples (program.py) so that a walk costs little more than its decisions.
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
    ENDINGS,
    EXIT,
    GAIN_CODA,
    GOTO,
    IF,
    LOSE_CODA,
    MAY,
    RELEASE,
    SCORE,
    SENTIENCE,
    SPAWN,
    TEST,
    TRAP,
    Knowledge,
    Program,
    Tests,
    compile_effects,
    sentience_changes,
)


@dataclass(frozen=True, kw_only=True)
class PlayOptions:
    runs: int
    seed: int = 0
    sentience: Mapping[str, int] = field(default_factory=lambda: {c: 1 for c in COLOURS})
    goal: int = 40
    rounds: int = 10
    encounters_per_round: int = 3
    finale_rounds: int = 12
    # Gotos followed in one walk before we call it stuck in a loop.
    max_links: int = 500


@dataclass
class PlayReport:
    runs: int
    outcomes: Counter[str] = field(default_factory=Counter)  # "A".."D" or "stage failed"
    conclusions: Counter[tuple[str, int | None]] = field(default_factory=Counter)
    visits: Counter[int] = field(default_factory=Counter)
    never_visited: list[int] = field(default_factory=list)
    decisions: int = 0
    stuck: int = 0


class _Story:
    """The storybook compiled once for all playthroughs."""

    def __init__(self, analysis: Analysis) -> None:
        graph = analysis.graph
        self.tests = Tests()
        # Pass probability by (test, sentience values): most walks meet the same few values.
        self.odds: dict[tuple[int, tuple[int, ...]], float] = {}
        self.entries: dict[int, Program] = {
            n: compile_effects(e.effects, self.tests) for n, e in graph.entries.items()
        }
        self.blocks = {
            n: compile_effects(graph.effects_of(n)[0], self.tests)
            for n in graph.arcs
            if isinstance(n, str)
        }
        self.entrances = dict(graph.entrances)
        context = graph.context
        rounds = context.rounds
        self.events = (
            [s.entry for s in rounds]
            if rounds is not None
            else sorted(n for n, e in graph.entries.items() if e.kind == "event")
        )
        self.shards = [s.entry for s in context.shards if s.entry in self.entries]
        self.cards = {
            s.card_id: s for s in context.cards + context.finale if s.entry in self.entries
        }
        self.spawning = [s for s in context.cards if s.spawned and s.card_id in self.cards]
        self.coda_sentience = {
            coda: tuple(
                c
                for e in effects
                if isinstance(e, dict) and isinstance(e.get("modify_sentience"), dict)
                for c in sentience_changes(e["modify_sentience"])
            )
            for coda, effects in context.coda_effects.items()
        }
        self.starts = {letter: e.start for letter, e in graph.storybook.endings.items()}
        self.finale = {
            letter: [
                s.entry for s in context.finale if s.ending == letter and s.kind == "finale-shard"
            ]
            for letter in graph.storybook.endings
        }


def play(analysis: Analysis, options: PlayOptions) -> PlayReport:
    story = _Story(analysis)
    rng = random.Random(options.seed)
    report = PlayReport(options.runs)
    start = [int(options.sentience.get(c, 0)) for c in COLOURS]
    for _ in range(options.runs):
        game = _Game(story, rng, options, list(start))
        outcome, conclusion = game.play()
        report.outcomes[outcome] += 1
        if outcome in ENDINGS:
            report.conclusions[(outcome, conclusion)] += 1
        report.visits.update(game.know.visited)
        report.decisions += game.decisions
        report.stuck += game.stuck
    report.never_visited = sorted(n for n in story.entries if n not in report.visits)
    return report


class _Game:
    def __init__(
        self, story: _Story, rng: random.Random, options: PlayOptions, sentience: list[int]
    ) -> None:
        self.story, self.rng, self.options = story, rng, options
        self.know = Knowledge(sentience)
        self.decisions = 0
        self.stuck = 0
        self.at: Any = None
        self.current: Any = None
        self.trapped: Any = None
        self.spawned: list[str] = []

    def play(self) -> tuple[str, int | None]:
        story, options, know = self.story, self.options, self.know
        if self.walk(story.blocks.get("setup", ())) == "fail_stage":
            return "stage failed", None
        open_shards = list(story.shards)
        open_cards: list[int] = []
        waiting = list(story.spawning)
        for know.round in range(1, options.rounds + 1):
            if (
                know.round <= len(story.events)
                and self.enter(story.events[know.round - 1]) == "fail_stage"
            ):
                return "stage failed", None
            for card in list(waiting) if waiting else ():
                if self._decide(know.holds(card.spawn) if card.spawn else None):
                    waiting.remove(card)
                    self.spawned.append(card.card_id)
            for _ in range(options.encounters_per_round):
                if self.spawned:
                    self._flush_spawned(open_cards)
                if self.trapped is not None:
                    number, pool = self.trapped, None
                else:
                    choices = len(open_shards) + len(open_cards)
                    if not choices:
                        break
                    pick = self.rng.randrange(choices)
                    pool = open_shards if pick < len(open_shards) else open_cards
                    number = pool[pick if pool is open_shards else pick - len(open_shards)]
                self.current = number
                exit_ = self.enter(number)
                if exit_ == "fail_stage":
                    return "stage failed", None
                if exit_ == "end" and pool is not None and self.trapped is None:
                    pool.remove(number)  # completed: not offered again
            if sum(know.scores) >= options.goal:
                break
        else:
            return "stage failed", None
        scores = know.scores
        best = max(range(4), key=lambda i: (scores[i], -i))
        return ENDINGS[best], self._finale(ENDINGS[best])

    def _finale(self, letter: str) -> int | None:
        story = self.story
        self.trapped = None
        if self.walk(story.blocks.get(f"{letter}:setup", ())) == "conclude":
            return self.at
        start = story.starts.get(letter)
        others = story.finale.get(letter, [])
        for turn in range(self.options.finale_rounds):
            if self.walk(story.blocks.get(f"{letter}:event", ())) == "conclude":
                return self.at
            pool = [
                n
                for n in ([start] if turn == 0 or not others else [start, *others])
                if n in story.entries
            ]
            if not pool or self.enter(self.rng.choice(pool)) == "conclude":
                return self.at if pool else None
        return None

    def _flush_spawned(self, open_cards: list[int]) -> None:
        """Cards spawned so far are on the board and can be encountered."""
        for card_id in self.spawned:
            entry = self.story.cards[card_id].entry
            if entry not in open_cards:
                open_cards.append(entry)
        self.spawned.clear()

    def _decide(self, value: bool | None) -> bool:
        return self.rng.random() < 0.5 if value is None else value

    def enter(self, number: int) -> str:
        """Read an entry if its entrance condition lets us, and follow it to its exit."""
        gate = self.story.entrances.get(number)
        if gate is not None and not self._decide(self.know.holds(gate)):
            return "refused"
        self.at = number
        self.know.visited.add(number)
        return self.walk(self.story.entries[number])

    def walk(self, program: Program) -> str:
        """Follow a program to its exit; returns the exit's kind (or open, refused, stuck)."""
        story, know = self.story, self.know
        entries, entrances, probability = story.entries, story.entrances, story.tests.probability
        odds = story.odds
        random_, holds, visit, sentience = (
            self.rng.random,
            know.holds,
            know.visited.add,
            know.sentience,
        )
        stack = [iter(program)]
        links = decisions = 0
        result = "open"
        while stack:
            op = next(stack[-1], None)
            if op is None:
                stack.pop()
                continue
            code, a, b = op
            if code == TEST:
                decisions += 1
                key = (a, tuple(sentience))
                chance = odds.get(key)
                if chance is None:
                    chance = odds[key] = probability(a, sentience)
                stack.append(iter(b[0] if random_() < chance else b[1]))
            elif code == GOTO:
                links += 1
                gate = entrances.get(a)
                if links > self.options.max_links:
                    self.stuck += 1
                    result = "stuck"
                    break
                if a not in entries or (gate is not None and not self._decide(holds(gate))):
                    result = "refused"
                    break
                self.at = a
                visit(a)
                stack = [iter(entries[a])]
            elif code == EXIT:
                result = a
                break
            elif code == CHOICE:
                options = [p for when, p in a if when is None or holds(when) is not False]
                if options:
                    decisions += 1
                    stack.append(iter(options[int(random_() * len(options))]))
            elif code == IF:
                value = holds(a) if a is not None else True
                stack.append(iter(b[0] if (random_() < 0.5 if value is None else value) else b[1]))
            elif code == SCORE:
                scores = know.scores
                for index, points in a:
                    scores[index] = max(0, scores[index] + points)
            elif code == MAY:
                decisions += 1
                if random_() < 0.5:
                    stack.append(iter(a))
            else:
                self._apply(code, a)
        self.decisions += decisions
        return result

    def _apply(self, code: int, a: Any) -> None:
        know = self.know
        if code == GAIN_CODA and a not in know.codas:
            know.codas.add(a)
            for colour, delta in self.story.coda_sentience.get(a, ()):
                know.sentience[colour] += delta
        elif code == LOSE_CODA:
            know.codas.discard(a)
        elif code == SENTIENCE:
            for colour, delta in a:
                know.sentience[colour] += delta
        elif code == SPAWN and a in self.story.cards:
            self.spawned.append(a)
        elif code == TRAP:
            # Trapped wanderers keep resolving the encounter they are trapped in.
            self.trapped, know.trapped = self.current, True
        elif code == RELEASE:
            self.trapped, know.trapped = None, False

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
Randomness comes only from one `random.Random(seed)`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Node
from dmtool.storygraph.dice import COLOURS, pass_probability

ENDINGS = ("A", "B", "C", "D")
TERMINALS = frozenset({"end", "conclude", "fail_stage"})


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
    """What the walks need, precomputed once."""

    def __init__(self, analysis: Analysis) -> None:
        graph = analysis.graph
        self.entries = {n: e.effects for n, e in graph.entries.items()}
        self.entrances = dict(graph.entrances)
        self.blocks = {n: graph.effects_of(n)[0] for n in graph.arcs if isinstance(n, str)}
        context = graph.context
        if context.rounds is not None:
            self.events = [s.entry for s in context.rounds]
        else:
            self.events = sorted(n for n, e in graph.entries.items() if e.kind == "event")
        self.shards = [s.entry for s in context.shards if s.entry in self.entries]
        self.cards = {s.card_id: s for s in context.cards + context.finale if s.entry in self.entries}
        self.coda_sentience = {
            coda: [e["modify_sentience"] for e in effects if isinstance(e, dict) and "modify_sentience" in e]
            for coda, effects in context.coda_effects.items()
        }
        self.starts = {letter: e.start for letter, e in graph.storybook.endings.items()}
        self.finale = {letter: [s.entry for s in context.finale if s.ending == letter and s.kind == "finale-shard"]
                       for letter in graph.storybook.endings}


def play(analysis: Analysis, options: PlayOptions) -> PlayReport:
    story = _Story(analysis)
    rng = random.Random(options.seed)
    report = PlayReport(options.runs)
    probabilities: dict[tuple[int, tuple[int, ...]], float] = {}
    for _ in range(options.runs):
        game = _Game(story, rng, options, probabilities)
        outcome, conclusion = game.play()
        report.outcomes[outcome] += 1
        if outcome in ENDINGS:
            report.conclusions[(outcome, conclusion)] += 1
        report.visits.update(game.visited)
        report.decisions += game.decisions
        report.stuck += game.stuck
    report.never_visited = sorted(n for n in story.entries if n not in report.visits)
    return report


class _Game:
    def __init__(self, story: _Story, rng: random.Random, options: PlayOptions,
                 probabilities: dict[tuple[int, tuple[int, ...]], float]) -> None:
        self.story, self.rng, self.options, self.probabilities = story, rng, options, probabilities
        self.scores = [0, 0, 0, 0]
        self.codas: set[str] = set()
        self.visited: set[int] = set()
        self.sentience = {c: int(options.sentience.get(c, 0)) for c in COLOURS}
        self.round = 0
        self.trapped: tuple[str, Any] | None = None
        self.spawned: list[str] = []
        self.done: set[Any] = set()
        self.decisions = 0
        self.stuck = 0
        self.at: Node | None = None
        self.current: tuple[str, Any] | None = None

    def play(self) -> tuple[str, int | None]:
        story, options, rng = self.story, self.options, self.rng
        if self.walk("setup") == "fail_stage":
            return "stage failed", None
        for self.round in range(1, options.rounds + 1):
            if self.round <= len(story.events) and self.walk(story.events[self.round - 1]) == "fail_stage":
                return "stage failed", None
            for card_id, card in story.cards.items():
                if card.kind == "card" and card.spawned and card_id not in self.spawned:
                    if self._decide(self.holds(card.spawn) if card.spawn else None):
                        self.spawned.append(card_id)
            for _ in range(options.encounters_per_round):
                choice = self.trapped or self._pick_encounter()
                if choice is None:
                    break
                self.current = choice
                exit_ = self.walk(choice[1])
                if exit_ == "fail_stage":
                    return "stage failed", None
                if exit_ == "end" and self.trapped is None:
                    self.done.add(choice)
            if sum(self.scores) >= options.goal:
                break
        else:
            return "stage failed", None
        best = max(range(4), key=lambda i: (self.scores[i], -i))
        return ENDINGS[best], self._finale(ENDINGS[best])

    def _finale(self, letter: str) -> int | None:
        story = self.story
        self.trapped = None
        if self.walk(f"{letter}:setup") == "conclude":
            return self._concluded()
        start = story.starts.get(letter)
        others = story.finale.get(letter, [])
        for turn in range(self.options.finale_rounds):
            if self.walk(f"{letter}:event") == "conclude":
                return self._concluded()
            pool = [start] if turn == 0 or not others else [start, *others]
            pool = [n for n in pool if n in story.entries]
            if not pool:
                return None
            if self.walk(self.rng.choice(pool)) == "conclude":
                return self._concluded()
        return None

    def _concluded(self) -> int | None:
        return self.at if isinstance(self.at, int) else None

    def _pick_encounter(self) -> tuple[str, Any] | None:
        story = self.story
        pool: list[tuple[str, Any]] = [("shard", n) for n in story.shards if ("shard", n) not in self.done]
        for card_id in self.spawned:
            card = story.cards[card_id]
            if ("card", card.entry) not in self.done and self.holds(card.entrance) is not False:
                pool.append(("card", card.entry))
        return self.rng.choice(pool) if pool else None

    def _decide(self, value: bool | None) -> bool:
        return self.rng.random() < 0.5 if value is None else value

    def walk(self, node: Node) -> str:
        """Read a node and follow it to its exit; returns the exit's kind."""
        story, rng = self.story, self.rng
        if isinstance(node, int):
            if node not in story.entries or not self._enter(node):
                return "refused"
            effects = story.entries[node]
        else:
            effects = story.blocks.get(node, ())
        self.at = node
        stack: list[list[Any]] = [[effects, 0]]
        links = 0
        while stack:
            frame = stack[-1]
            seq, index = frame
            if index >= len(seq):
                stack.pop()
                continue
            frame[1] = index + 1
            ((name, body),) = seq[index].items()
            if name == "goto":
                links += 1
                if links > self.options.max_links:
                    self.stuck += 1
                    return "stuck"
                if body not in story.entries or not self._enter(body):
                    return "refused"
                self.at = body
                stack = [[story.entries[body], 0]]
            elif name in TERMINALS:
                return name
            elif name == "test":
                self.decisions += 1
                passed = rng.random() < self._probability(body)
                stack.append([body.get("pass" if passed else "fail") or (), 0])
            elif name == "choice":
                options = [o for o in body if self.holds(o.get("when")) is not False]
                if options:
                    self.decisions += 1
                    stack.append([rng.choice(options).get("effects") or (), 0])
            elif name == "if":
                side = "then" if self._decide(self.holds(body.get("when"))) else "else"
                stack.append([body.get(side) or (), 0])
            elif name == "may":
                self.decisions += 1
                if rng.random() < 0.5:
                    stack.append([body, 0])
            elif name in ("all_wanderers", "central_wanderer"):
                stack.append([body, 0])
            else:
                self._apply(name, body, node)
        return "open"

    def _enter(self, number: int) -> bool:
        gate = self.story.entrances.get(number)
        if gate is not None and not self._decide(self.holds(gate)):
            return False
        self.visited.add(number)
        return True

    def _probability(self, body: Mapping[str, Any]) -> float:
        key = (id(body), tuple(self.sentience.values()))
        found = self.probabilities.get(key)
        if found is None:
            found = self.probabilities[key] = float(pass_probability(body.get("roll", {}), self.sentience))
        return found

    def _apply(self, name: str, body: Any, node: Node) -> None:
        if name == "score":
            for letter, points in body.items():
                i = ENDINGS.index(letter)
                self.scores[i] = max(0, self.scores[i] + points)
        elif name == "gain_coda" and body not in self.codas:
            self.codas.add(body)
            for change in self.story.coda_sentience.get(body, ()):
                self._apply("modify_sentience", change, node)
        elif name == "lose_coda":
            self.codas.discard(body)
        elif name == "modify_sentience":
            for colour, delta in body.items():
                self.sentience[colour] = self.sentience.get(colour, 0) + delta
        elif name == "spawn_encounter":
            card = body.get("card")
            if card in self.story.cards and card not in self.spawned:
                self.spawned.append(card)
        elif name == "trap":
            # Trapped wanderers keep resolving the encounter they are trapped in.
            self.trapped = self.current
        elif name == "release_trap":
            self.trapped = None

    def holds(self, condition: Any) -> bool | None:
        """A condition on what the walk knows; None when it depends on the board."""
        if condition is None:
            return True
        ((name, value),) = condition.items()
        if name == "not":
            inner = self.holds(value)
            return None if inner is None else not inner
        if name in ("all", "any"):
            results = [self.holds(c) for c in value]
            decisive = name == "any"
            if decisive in results:
                return decisive
            return None if None in results else not decisive
        if name == "has_coda":
            return value in self.codas
        if name == "visited":
            return value in self.visited
        if name == "score_at_least":
            return all(self.scores[ENDINGS.index(e)] >= n for e, n in value.items())
        if name == "round_at_least":
            return self.round >= value
        if name == "round_at_most":
            return self.round <= value
        if name == "sentience_at_least":
            return all(self.sentience.get(c, 0) >= n for c, n in value.items())
        if name == "trapped":
            return (self.trapped is not None) == value
        if name == "is_central":
            return value is True
        if name == "wanderers_at_least":
            return value <= 1
        return None

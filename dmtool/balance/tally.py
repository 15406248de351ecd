"""Counts over many games that merge: a chunk of games is tallied where it was played, and
the chunks' tallies are added up in seed order (so a float sum never depends on --jobs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from dmtool.balance.summary import GameSummary

FINALE = "reached the finale"


def labels(game: GameSummary) -> tuple[str, ...]:
    """The outcomes a game counts toward, broadest first: 'reached the finale' or
    'failed: reason', then 'ending X' and 'ending X, conclusion N' for a finale."""
    if game.outcome == "failed":
        return (f"failed: {game.detail}",)
    if game.outcome == "stalled":
        return ("stalled",)
    return (FINALE, game.outcome, f"{game.outcome}, {game.detail}")


@dataclass
class TestTally:
    """One test's tries: how often it was taken and passed, and the exact chances summed."""

    tries: int = 0
    passed: int = 0
    exact: float = 0.0

    def merge(self, other: TestTally) -> None:
        self.tries += other.tries
        self.passed += other.passed
        self.exact += other.exact


@dataclass
class Tally:
    """Everything the report counts, over the games of one configuration."""

    games: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, int] = field(default_factory=dict)  # outcome -> its lowest seed
    rounds: Counter[int] = field(default_factory=Counter)
    finale_rounds: Counter[int] = field(default_factory=Counter)
    deaths: Counter[int] = field(default_factory=Counter)
    withered: Counter[int] = field(default_factory=Counter)
    steps: int = 0
    # Scores at the end of each round: sums over the games still in the wanderer stage.
    score_sums: dict[int, list[int]] = field(default_factory=dict)
    score_games: Counter[int] = field(default_factory=Counter)
    entries: Counter[int] = field(default_factory=Counter)  # games that read each entry
    tests: dict[tuple[str, str], TestTally] = field(default_factory=dict)
    items: Counter[str] = field(default_factory=Counter)  # games that saw each card or coda
    item_outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    # Cards first seen in a finale, counted among that ending's games: (ending, card) and
    # (ending, card, conclusion label).
    finale_items: Counter[tuple[str, str]] = field(default_factory=Counter)
    finale_item_outcomes: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    paired: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)  # seed, labels

    def add(self, game: GameSummary) -> None:
        self.games += 1
        names = labels(game)
        for name in names:
            self.outcomes[name] += 1
            if name not in self.examples or game.seed < self.examples[name]:
                self.examples[name] = game.seed
        self.paired.append((game.seed, names))
        self.rounds[game.rounds] += 1
        if game.finale_rounds:
            self.finale_rounds[game.finale_rounds] += 1
        self.deaths[game.deaths] += 1
        self.withered[game.withered] += 1
        self.steps += game.steps
        for number, scores in enumerate(game.scores, start=1):
            sums = self.score_sums.setdefault(number, [0] * len(scores))
            for i, value in enumerate(scores):
                sums[i] += value
            self.score_games[number] += 1
        self.entries.update(game.entries)
        for test in game.tests:
            tally = self.tests.setdefault((test.where, test.need), TestTally())
            tally.tries += 1
            tally.passed += test.passed
            tally.exact += test.exact
        self.items.update(game.items)
        self.item_outcomes.update((item, name) for item in game.items for name in names)
        if game.finale_items:
            self.finale_items.update((game.outcome, item) for item in game.finale_items)
            self.finale_item_outcomes.update((game.outcome, item, names[-1])
                                             for item in game.finale_items)

    def merge(self, other: Tally) -> None:
        """Add another tally's games (call in seed order for identical float sums)."""
        self.games += other.games
        self.outcomes.update(other.outcomes)
        for name, seed in other.examples.items():
            self.examples[name] = min(seed, self.examples.get(name, seed))
        for mine, theirs in ((self.rounds, other.rounds),
                             (self.finale_rounds, other.finale_rounds),
                             (self.deaths, other.deaths), (self.withered, other.withered),
                             (self.score_games, other.score_games),
                             (self.entries, other.entries), (self.items, other.items)):
            mine.update(theirs)
        self.steps += other.steps
        for number, sums in other.score_sums.items():
            mine_sums = self.score_sums.setdefault(number, [0] * len(sums))
            self.score_sums[number] = [a + b for a, b in zip(mine_sums, sums)]
        for key, test in other.tests.items():
            self.tests.setdefault(key, TestTally()).merge(test)
        self.item_outcomes.update(other.item_outcomes)
        self.finale_items.update(other.finale_items)
        self.finale_item_outcomes.update(other.finale_item_outcomes)
        self.paired.extend(other.paired)

"""Counts over many games that merge: a chunk of games is tallied where it was played, and
the chunks' tallies are added up in seed order (so a float sum never depends on --jobs)."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from dmtool.balance.stats import Clustered
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


class Paired:
    """Each game's outcomes by seed, for runs compared seed by seed (--against, --sweep,
    policies against the best): a two-byte code a game, in seed order from the first seed
    added, naming one of the few sets of outcomes (`labels`) a wanderer's games come to.
    Code 0 is a seed not played (a gap an interrupted run leaves)."""

    __slots__ = ("codes", "first", "index", "sets")

    def __init__(self) -> None:
        self.codes = array("H")
        self.first = 0
        self.sets: list[tuple[str, ...]] = [()]
        self.index: dict[tuple[str, ...], int] = {}

    def add(self, seed: int, names: tuple[str, ...]) -> None:
        code = self.index.get(names)
        if code is None:
            code = self.index[names] = len(self.sets)
            self.sets.append(names)
        if not self.codes:
            self.first = seed
        elif seed < self.first:  # a chunk merged before those of lower seeds
            self.codes[0:0] = array("H", bytes(2 * (self.first - seed)))
            self.first = seed
        offset = seed - self.first
        if offset >= len(self.codes):
            self.codes.extend(array("H", bytes(2 * (offset + 1 - len(self.codes)))))
        self.codes[offset] = code

    def merge(self, other: Paired) -> None:
        for seed, names in other:
            self.add(seed, names)

    def __iter__(self) -> Iterator[tuple[int, tuple[str, ...]]]:
        """(seed, outcomes) of every game played, in seed order."""
        sets = self.sets
        for offset, code in enumerate(self.codes):
            if code:
                yield self.first + offset, sets[code]

    def seeds(self) -> set[int]:
        return {seed for seed, _ in self}

    def outcomes(self, seed: int) -> tuple[str, ...] | None:
        """The outcomes of that seed's game; None when it was not played."""
        offset = seed - self.first
        code = self.codes[offset] if 0 <= offset < len(self.codes) else 0
        return self.sets[code] if code else None

    def __getstate__(self) -> tuple[bytes, int, list[tuple[str, ...]]]:
        return self.codes.tobytes(), self.first, self.sets

    def __setstate__(self, state: tuple[bytes, int, list[tuple[str, ...]]]) -> None:
        codes, self.first, self.sets = state
        self.codes = array("H")
        self.codes.frombytes(codes)
        self.index = {names: code for code, names in enumerate(self.sets) if code}


@dataclass
class TestTally:
    """One test's tries: how often it was taken and passed, and the exact chances summed;
    and the sums over games a cluster-robust interval needs (stats.Clustered)."""

    tries: int = 0
    passed: int = 0
    exact: float = 0.0
    games: int = 0
    tries_sq: int = 0
    passed_sq: int = 0
    cross: int = 0

    def add_game(self, tries: int, passed: int, exact: float) -> None:
        self.tries += tries
        self.passed += passed
        self.exact += exact
        self.games += 1
        self.tries_sq += tries * tries
        self.passed_sq += passed * passed
        self.cross += tries * passed

    def merge(self, other: TestTally) -> None:
        self.tries += other.tries
        self.passed += other.passed
        self.exact += other.exact
        self.games += other.games
        self.tries_sq += other.tries_sq
        self.passed_sq += other.passed_sq
        self.cross += other.cross

    def clustered(self) -> Clustered:
        return Clustered(self.games, self.tries, self.passed, self.tries_sq, self.passed_sq,
                         self.cross)


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
    # Each game's outcomes by seed (Paired); None in a merged tally that compares nothing
    # seed by seed, whose memory then does not grow with the games.
    paired: Paired | None = field(default_factory=Paired)
    # Features (summary.GameSummary.features): games that met each, by the round first met
    # and by outcome; and games that met it only as a death's consequence.
    feature_rounds: Counter[tuple[str, int]] = field(default_factory=Counter)
    feature_outcomes: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    by_death: Counter[str] = field(default_factory=Counter)
    feature_lengths: Counter[tuple[str, int]] = field(default_factory=Counter)  # rounds lasted
    feature_length_outcomes: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    # The games that met a feature only as a death's consequence, by rounds lasted (and
    # outcome): they are weighed on neither side of that feature (causes.DEATH_RULE).
    death_lengths: Counter[tuple[str, int]] = field(default_factory=Counter)
    death_length_outcomes: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    # A storybook test's first result in a game ('where, need', passed) and its outcomes.
    first_tries: Counter[tuple[str, bool]] = field(default_factory=Counter)
    first_try_outcomes: Counter[tuple[str, bool, str]] = field(default_factory=Counter)
    reads: Counter[int] = field(default_factory=Counter)  # times each entry was read
    options: Counter[tuple[int, str]] = field(default_factory=Counter)  # times chosen
    option_games: Counter[tuple[int, str]] = field(default_factory=Counter)
    length_outcomes: Counter[tuple[int, str]] = field(default_factory=Counter)  # rounds lasted
    deaths_are_withered: int = 0  # games whose Withered cards were as many as their deaths

    def add(self, game: GameSummary) -> None:
        self.games += 1
        names = labels(game)
        for name in names:
            self.outcomes[name] += 1
            if name not in self.examples or game.seed < self.examples[name]:
                self.examples[name] = game.seed
        if self.paired is not None:
            self.paired.add(game.seed, names)
        self.rounds[game.rounds] += 1
        self.length_outcomes.update((game.rounds, name) for name in names)
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
        self.deaths_are_withered += game.deaths == game.withered
        self._tests(game, names)
        self._features(game, names)
        # A malformation a death spawned stands for the death (causes.DEATH_RULE): it would
        # only restate the death rule beside every outcome a death makes.
        items = [item for item in game.items if item not in game.by_death]
        self.items.update(items)
        self.item_outcomes.update((item, name) for item in items for name in names)
        if game.finale_items:
            self.finale_items.update((game.outcome, item) for item in game.finale_items)
            self.finale_item_outcomes.update((game.outcome, item, names[-1])
                                             for item in game.finale_items)

    def _tests(self, game: GameSummary, names: tuple[str, ...]) -> None:
        tries: dict[tuple[str, str], list[float]] = {}  # tries, passed, exact
        for test in game.tests:
            sums = tries.get((test.where, test.need))
            if sums is None:
                sums = tries[(test.where, test.need)] = [0, 0, 0.0]
                if test.where.startswith("entry "):
                    key = (f"{test.where}, {test.need}", test.passed)
                    self.first_tries[key] += 1
                    self.first_try_outcomes.update(key + (name,) for name in names)
            sums[0] += 1
            sums[1] += test.passed
            sums[2] += test.exact
        for key, (count, passed, exact) in tries.items():
            self.tests.setdefault(key, TestTally()).add_game(int(count), int(passed), exact)

    def _features(self, game: GameSummary, names: tuple[str, ...]) -> None:
        spawned = set(game.by_death)  # they stand for the death: see causes.DEATH_RULE
        for feature, first in game.features:
            if feature in spawned:
                continue
            self.feature_rounds[(feature, first)] += 1
            self.feature_lengths[(feature, game.rounds)] += 1
            self.feature_length_outcomes.update((feature, game.rounds, n) for n in names)
            self.feature_outcomes.update((feature, first, name) for name in names)
        self.by_death.update(game.by_death)
        for feature in spawned:
            self.death_lengths[(feature, game.rounds)] += 1
            self.death_length_outcomes.update((feature, game.rounds, n) for n in names)
        self.reads.update(dict(game.reads))
        self.options.update(game.options)
        self.option_games.update(set(game.options))

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
                             (self.entries, other.entries), (self.items, other.items),
                             (self.feature_rounds, other.feature_rounds),
                             (self.feature_outcomes, other.feature_outcomes),
                             (self.by_death, other.by_death),
                             (self.feature_lengths, other.feature_lengths),
                             (self.feature_length_outcomes, other.feature_length_outcomes),
                             (self.death_lengths, other.death_lengths),
                             (self.death_length_outcomes, other.death_length_outcomes),
                             (self.first_tries, other.first_tries),
                             (self.first_try_outcomes, other.first_try_outcomes),
                             (self.reads, other.reads), (self.options, other.options),
                             (self.option_games, other.option_games),
                             (self.length_outcomes, other.length_outcomes)):
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
        if self.paired is not None and other.paired is not None:
            self.paired.merge(other.paired)
        self.deaths_are_withered += other.deaths_are_withered


def seed_pairs(before: Tally, after: Tally) -> Counter[tuple[tuple[str, ...], tuple[str, ...]]]:
    """How many seeds both runs played came to each pair of outcome sets (before, after):
    a few counts, whatever the number of games."""
    if before.paired is None or after.paired is None:
        raise ValueError("runs compared seed by seed must keep their pairs (collect's paired)")
    later = after.paired
    found: Counter[tuple[tuple[str, ...], tuple[str, ...]]] = Counter()
    for seed, old in before.paired:
        new = later.outcomes(seed)
        if new is not None:
            found[(old, new)] += 1
    return found

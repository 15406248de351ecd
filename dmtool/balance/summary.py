"""One finished game boiled down to what the balance report counts (small, picklable)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dmtool.engine.dawn_of_madness.constants import ENDINGS, domain_text, domains_from_mapping
from dmtool.storygraph.dice import pass_probability

# The `rolled` reasons that open a test the log then reports with a `test` event.
TEST_ROLLS = frozenset(("test", "release test", "confrontation test"))
WITHERED = "withered"
ENGINE_FAILURES = ("all_wanderers_dead", "tenth_round", "fourth_withered")


@dataclass(frozen=True, slots=True)
class TestRoll:
    """One test taken: where (an entry, the confrontation card, or elsewhere), what it
    needed, whether it passed, and the exact chance of the dice rolled passing alone."""

    where: str
    need: str
    passed: bool
    exact: float


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What one seeded game came to.

    `outcome` is 'failed', 'stalled' or 'ending X'; `detail` the failure's reason or the
    conclusion's entry. `scores[r]` are the ending scores (A, B, C, D) at the end of
    wanderer-stage round r + 1. `items` are the cards and codas the wanderer stage saw, as
    'kind: id' texts; `finale_items` those first seen in the finale (which only a game of
    that ending can see, so they are weighed among that ending's games).
    """

    seed: int
    outcome: str
    detail: str
    rounds: int
    finale_rounds: int
    deaths: int
    withered: int
    scores: tuple[tuple[int, ...], ...]
    entries: tuple[int, ...]
    tests: tuple[TestRoll, ...]
    items: tuple[str, ...]
    steps: int
    finale_items: tuple[str, ...] = ()
    # What the wanderer stage met, each with the round it was first met in: entries read
    # ('entry 109'), storybook tests passed or failed ('test at entry 109 (green eye)
    # failed'), cards, codas and monsters (as in `items`). The causes are sought among them.
    features: tuple[tuple[str, int], ...] = ()
    # Features this game met only as a rule's consequence of a death (a malformation the
    # death spawned): they stand for the death, not for anything an author wrote.
    by_death: tuple[str, ...] = ()
    # Every option chosen, in order, with the entry it was chosen at; how often each entry
    # was read (an entry can be read more than once in a game).
    options: tuple[tuple[int, str], ...] = ()
    reads: tuple[tuple[int, int], ...] = ()

    @property
    def reached_finale(self) -> bool:
        return self.outcome.startswith("ending")


def need_key(domains: Iterable[str]) -> str:
    """A test's requirement as one text: 'blue brain, yellow skull'."""
    return ", ".join(domains)


def roll_mapping(need: Iterable[str]) -> dict[str, list[str]]:
    """['blue brain', 'blue eye'] -> {'blue': ['brain', 'eye']} (the storybook's form)."""
    out: dict[str, list[str]] = {}
    for text in need:
        colour, kind = text.split(" ", 1)
        out.setdefault(colour, []).append(kind)
    return out


@lru_cache(maxsize=65536)
def exact_chance(need: tuple[str, ...], dice: tuple[tuple[str, int], ...]) -> float:
    """The exact chance that `dice` (counts per colour) meet `need` with no help."""
    return float(pass_probability(roll_mapping(need), dict(dice)))


def _dice_counts(dice: Mapping[str, list[str]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((colour, len(faces)) for colour, faces in dice.items()))


# The event kinds `_item` can name a card or coda for.
ITEM_EVENTS = frozenset(("coda_gained", "domain_card_gained", "existence_card_bought",
                         "legacy_gained", "encounter_started", "condition_gained", "spawned"))


def _item(event: Mapping[str, Any]) -> str | None:
    """The card or coda an event hands to the game, as 'kind: id' (None for others)."""
    name = event["event"]
    if name == "coda_gained":
        return f"coda: {event['coda']}"
    if name == "domain_card_gained":
        return f"domain card: {event['card']}"
    if name == "existence_card_bought":
        return f"existence card: {event['card']}"
    if name == "legacy_gained":
        return f"legacy card: {event['card']}"
    if name == "encounter_started" and event.get("card"):
        return f"encounter card: {event['card']}"
    if name == "condition_gained" and event.get("condition") != WITHERED:
        return f"condition card: {event.get('card') or event.get('condition')}"
    if name == "spawned" and event.get("kind") in ("terror", "malformation"):
        return f"{event['kind']}: {event['monster']}"
    return None


class _Reader:
    """Walks one game's event log once, keeping the running figures."""

    def __init__(self, tests_by_entry: Mapping[int, frozenset[str]]) -> None:
        self.tests_by_entry = tests_by_entry
        self.scores = [0] * len(ENDINGS)
        self.snapshots: list[tuple[int, ...]] = []
        self.round = 1
        self.finale = False
        self.finale_rounds = 0
        self.deaths = 0
        self.withered = 0
        self.entries: set[int] = set()
        self.items: set[str] = set()
        self.finale_items: set[str] = set()
        self.tests: list[TestRoll] = []
        self.entry: int | None = None
        self.card: Any = None
        self.dice: tuple[tuple[str, int], ...] | None = None
        self.died_central = False
        self.features: dict[str, int] = {}
        self.by_death: set[str] = set()
        self.options: list[tuple[int, str]] = []
        self.reads: Counter[int] = Counter()

    def read(self, log: Iterable[Mapping[str, Any]]) -> None:
        """Every event of a game's log, in order."""
        # hot path: a game logs some eight hundred events, most of which count for nothing
        # here: one look-up each decides, in one loop.
        readers = _READERS
        for event in log:
            name = event["event"]
            handler = readers.get(name)
            if handler is not None:
                handler(self, event)
            if name in ITEM_EVENTS:
                item = _item(event)
                if item is not None and item not in self.items:
                    (self.finale_items if self.finale else self.items).add(item)
                if item is not None and not self.finale:
                    self._met(item, by_death=str(event.get("why", "")).startswith("death of"))

    def _met(self, feature: str, *, by_death: bool = False) -> None:
        """A feature met in the wanderer stage; by_death: only as a death's consequence."""
        if feature not in self.features:
            self.features[feature] = self.round
            if by_death:
                self.by_death.add(feature)
        elif not by_death:
            self.by_death.discard(feature)

    def _score(self, event: Mapping[str, Any]) -> None:
        self.scores = [int(event["scores"].get(e, 0)) for e in ENDINGS]

    def _finale(self, event: Mapping[str, Any]) -> None:
        self._close_stage()
        self.finale = True

    def _entry(self, event: Mapping[str, Any]) -> None:
        self.entry = int(event["entry"])
        self.entries.add(self.entry)
        self.reads[self.entry] += 1
        if not self.finale:
            self._met(f"entry {self.entry}")

    def _option(self, event: Mapping[str, Any]) -> None:
        if self.entry is not None:
            self.options.append((self.entry, str(event.get("label", ""))))

    def _confrontation(self, event: Mapping[str, Any]) -> None:
        self.card = event.get("card")

    def _rolled(self, event: Mapping[str, Any]) -> None:
        if event.get("why") in TEST_ROLLS:
            self.dice = _dice_counts(event.get("dice") or {})

    def _died(self, event: Mapping[str, Any]) -> None:
        self.deaths += 1

    def _central_died(self, event: Mapping[str, Any]) -> None:
        self.died_central = True

    def _condition(self, event: Mapping[str, Any]) -> None:
        if event.get("condition") == WITHERED:
            self.withered += 1

    def _phase(self, event: Mapping[str, Any]) -> None:
        number = int(event.get("round", self.round))
        if self.finale:
            self.finale_rounds = max(self.finale_rounds, number)
            return
        while len(self.snapshots) < number - 1:  # a new round: the last one has ended
            self.snapshots.append(tuple(self.scores))
        self.round = max(self.round, number)

    def _close_stage(self) -> None:
        if not self.finale and len(self.snapshots) < self.round:
            self.snapshots.append(tuple(self.scores))

    def _test(self, event: Mapping[str, Any]) -> None:
        need = tuple(event.get("need") or ())
        key = need_key(need)
        if event.get("kind") == "confront":
            where = f"confrontation card {self.card}"
        elif self.entry is not None and key in self.tests_by_entry.get(self.entry, ()):
            where = f"entry {self.entry}"
        else:
            where = "elsewhere"
        exact = exact_chance(need, self.dice or ())
        passed = bool(event.get("passed"))
        self.tests.append(TestRoll(where, key, passed, exact))
        if where.startswith("entry ") and not self.finale:
            self._met(test_feature(where, key, passed))
        self.dice = None


# What `_Reader.read` does for each event kind it counts (others are only looked at by
# `_item`, if they are among ITEM_EVENTS).
_READERS: dict[str, Callable[[_Reader, Mapping[str, Any]], None]] = {
    "score": _Reader._score, "phase": _Reader._phase, "finale": _Reader._finale,
    "entry": _Reader._entry, "confrontation_revealed": _Reader._confrontation,
    "rolled": _Reader._rolled, "test": _Reader._test, "died": _Reader._died,
    "central_died": _Reader._central_died, "condition_gained": _Reader._condition,
    "option": _Reader._option,
}


def test_feature(where: str, need: str, passed: bool) -> str:
    """'test at entry 109 (green eye) failed': a storybook test's result as a feature."""
    return f"test at {where} ({need}) {'passed' if passed else 'failed'}"


def summarise(seed: int, *, log: Iterable[Mapping[str, Any]], final: Any, stalled: bool,
              steps: int, tests_by_entry: Mapping[int, frozenset[str]]) -> GameSummary:
    """A GameSummary from a finished game's event log and final state."""
    reader = _Reader(tests_by_entry)
    reader.read(log)
    reader._close_stage()
    if stalled:
        outcome, detail = "stalled", f"stalled in round {final.round}"
    elif final.stage == "finale":
        entry = (final.conclusion or {}).get("entry")
        how = " (central wanderer died)" if reader.died_central else ""
        outcome, detail = f"ending {final.ending}", f"conclusion {entry}{how}"
    elif final.reason in ENGINE_FAILURES:
        outcome, detail = "failed", str(final.reason)
    else:  # the storybook's own fail_stage, whose reason is prose: name its entry
        outcome, detail = "failed", f"storybook entry {reader.entry}"
    return GameSummary(
        seed=seed, outcome=outcome, detail=detail, rounds=reader.round,
        finale_rounds=reader.finale_rounds, deaths=reader.deaths, withered=reader.withered,
        scores=tuple(reader.snapshots), entries=tuple(sorted(reader.entries)),
        tests=tuple(reader.tests), items=tuple(sorted(reader.items)), steps=steps,
        finale_items=tuple(sorted(reader.finale_items)),
        features=tuple(sorted(reader.features.items())), by_death=tuple(sorted(reader.by_death)),
        options=tuple(reader.options), reads=tuple(sorted(reader.reads.items())))


def storybook_tests(entries: Mapping[int, Mapping[str, Any]]) -> dict[int, frozenset[str]]:
    """For each entry, the requirements of the tests written in it (at any depth)."""
    found: dict[int, frozenset[str]] = {}
    for number, entry in entries.items():
        keys = {need_key(domain_text(d) for d in domains_from_mapping(roll))
                for roll in _rolls(entry.get("effects", []))}
        if keys:
            found[int(number)] = frozenset(keys)
    return found


def _rolls(node: Any) -> Iterable[Mapping[str, Any]]:
    if isinstance(node, list):
        for item in node:
            yield from _rolls(item)
    elif isinstance(node, dict):
        spec = node.get("test")
        if isinstance(spec, dict) and isinstance(spec.get("roll"), dict):
            yield spec["roll"]
        for value in node.values():
            yield from _rolls(value)

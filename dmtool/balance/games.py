"""What a balance run plays: configurations, seeds cut into chunks, and one chunk played.

Game i of every configuration uses seed `seed + i`, the same seed `dmtool play --seed`
takes, so any game in a report can be replayed and read on its own. The chunks depend on
the number of games only (never on --jobs or the cluster), and their tallies are merged in
seed order: that is what makes the results identical however the work is spread.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from dmtool.balance.summary import GameSummary, storybook_tests, summarise
from dmtool.balance.tally import Tally
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame

CHUNK = 20  # games per task: small enough for a steady progress bar and a quick Ctrl-C


@dataclass(frozen=True, order=True)
class Config:
    """One way to play the wanderer: who decides, the score goal, seats, the devour rule."""

    policy: str
    variant: str = "standard"
    players: int = 1
    devour: bool = False

    @property
    def label(self) -> str:
        seats = f"{self.players} player{'s' if self.players != 1 else ''}"
        return f"{self.policy}, {self.variant}, {seats}{', devour' if self.devour else ''}"


@dataclass(frozen=True)
class Bundle:
    """Everything a worker needs to play a wanderer's games (sent once to each worker)."""

    wanderer: str
    catalog: Catalog
    tests_by_entry: Mapping[int, frozenset[str]]

    @classmethod
    def load(cls, root: Path, wanderer: str) -> Bundle:
        catalog = load_catalog(root, wanderer)
        return cls(wanderer, catalog, storybook_tests(catalog.entries))


@dataclass(frozen=True, order=True)
class Chunk:
    """A task: `count` games of configuration number `config`, from seed `first`."""

    config: int
    first: int
    count: int


@dataclass(frozen=True)
class Plan:
    """A run's chunks, made as they are asked for (never all at once: a run of 10^12
    games holds no list of its tasks), as often as they are iterated."""

    configs: int
    games: int
    seed: int

    def __iter__(self) -> Iterator[Chunk]:
        return chunks(self.configs, self.games, self.seed)

    @property
    def total(self) -> int:
        return self.configs * self.games


def chunks(configs: int, games: int, seed: int) -> Iterator[Chunk]:
    """The tasks of a run, in the order their tallies are merged."""
    for number in range(configs):
        for start in range(0, games, CHUNK):
            yield Chunk(number, seed + start, min(CHUNK, games - start))


def play_one(bundle: Bundle, config: Config, seed: int) -> GameSummary:
    game = NewGame(bundle.wanderer, seed, config.players, config.variant, config.devour)
    result = play(bundle.catalog, game, policy=config.policy, keep_record=False)
    return summarise(seed, log=result.log, final=result.state, stalled=result.stalled,
                     steps=result.steps, tests_by_entry=bundle.tests_by_entry)


def play_chunk(bundle: Bundle, configs: tuple[Config, ...], chunk: Chunk) -> Tally:
    """Play one chunk's games in seed order and tally them."""
    tally = Tally()
    config = configs[chunk.config]
    for seed in range(chunk.first, chunk.first + chunk.count):
        tally.add(play_one(bundle, config, seed))
    return tally

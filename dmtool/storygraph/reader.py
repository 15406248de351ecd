"""A storybook's compiled program as plain data, for the site's reader to play.

The reader (the site's `dmtool-reader.js`) interprets exactly what `dmtool odds --runs` walks:
the `Story` that playthrough.py builds, its opcode chains written as one table of nodes
(shared tails once), its conditions as the trees they were compiled from, its tests as the
dice they roll with each colour's exact pass chance per number of dice. Nothing is
compiled twice, so the site and the command line cannot disagree about the story.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.dice import COLOURS, FAVOURED, TYPES, pass_probability, requirement
from dmtool.storygraph.playthrough import PlayOptions
from dmtool.storygraph.program import (
    CHOICE,
    CHOOSE_WHEN,
    EXIT,
    GOTO,
    IF,
    MAY,
    SCORE,
    SENTIENCE,
    TEST,
    Program,
    Story,
)

# Pass chances are listed up to this many dice of a colour; the reader refuses more.
MAX_DICE = 20


def compiled(analysis: Analysis, options: PlayOptions) -> dict[str, Any]:
    """The story as JSON-ready data: node table, entries, blocks, rounds, finales, tests."""
    story = Story(analysis)
    table = _Table(story)
    entries = {str(n): table.node(program) for n, program in story.entries.items()}
    gates = {str(n): table.tree(gate) for n, (gate, _) in story.targets.items()
             if gate is not None}
    blocks = {name: table.node(program) for name, program in story.blocks.items()}
    finales = {letter: [table.node(setup), table.node(event), first, later]
               for letter, (setup, event, first, later) in story.finales.items()}
    return {
        "nodes": table.nodes,
        "entries": entries,
        "gates": gates,
        "blocks": blocks,
        "events": story.events,
        "shards": story.shards,
        "spawning": [[table.tree(when), entry] for when, entry in story.spawning],
        "codaSentience": {k: [list(c) for c in v] for k, v in story.coda_sentience.items()},
        "finales": finales,
        "tests": [_test(roll) for roll in story.tests.rolls],
        "colours": list(COLOURS),
        "faces": {c: [*TYPES, FAVOURED[c]] for c in COLOURS},
        "start": [int(options.sentience.get(c, 0)) for c in COLOURS],
        "rules": {"goal": options.goal, "rounds": options.rounds,
                  "perRound": options.encounters_per_round,
                  "finaleRounds": options.finale_rounds, "maxLinks": options.max_links},
    }


def _test(roll: dict[str, Any]) -> dict[str, Any]:
    """A test's dice per colour and, per colour, its exact chance with 0..MAX_DICE dice as
    [numerator, denominator] (Python's float of the product is what the walk draws against;
    the reader multiplies the same fractions)."""
    need = requirement(roll)
    chances = {c: [_pair(pass_probability({c: roll[c]}, {c: n})) for n in range(MAX_DICE + 1)]
               for c in need}
    return {"roll": {c: list(roll[c]) for c in need}, "chances": chances}


def _pair(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


class _Table:
    """Nodes numbered as first met; a node shared by several chains is written once."""

    def __init__(self, story: Story) -> None:
        self.story = story
        self.nodes: list[list[Any]] = []
        self._index: dict[int, int] = {}

    def tree(self, function: Any) -> Any:
        return None if function is None else self.story.compiler.trees[id(function)]

    def node(self, program: Program) -> int | None:
        if program is None:
            return None
        found = self._index.get(id(program))
        if found is not None:
            return found
        index = self._index[id(program)] = len(self.nodes)
        self.nodes.append([])
        self.nodes[index] = [program[0], *self._arguments(program), self.node(program[3])]
        return index

    def _arguments(self, program: Any) -> list[Any]:
        code, a, b, _ = program
        if code == TEST:
            return [self.story.tests.chances.index(a), self.node(b)]
        if code == CHOICE:
            return [[self.node(h) for h in a], self.story.compiler.labels[id(program)]]
        if code == CHOOSE_WHEN:
            return [[[self.tree(when), self.node(h)] for when, h in a],
                    self.story.compiler.labels[id(program)]]
        if code == IF:
            return [self.tree(a), self.node(b)]
        if code == MAY:
            return [self.node(a), None]
        if code in (SCORE, SENTIENCE):
            return [[list(pair) for pair in a], None]
        if code in (GOTO, EXIT):
            return [a, None]
        return [a, None]  # SPAWN, GAIN_CODA, LOSE_CODA (a: entry or coda), TRAP, RELEASE

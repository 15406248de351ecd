"""A storybook compiled for fast random walks: effect lists as chains of small opcode nodes
instead of mappings, with every effect that cannot change the story's course (damage, tokens,
monsters...) dropped, conditions and test odds as functions. The walk lives in
playthrough.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dmtool.model.storybook import GROUPS, TERMINALS, single
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.dice import COLOURS, pass_probability, requirement

# Opcodes, numbered by how often a walk meets them (the walk tests them in this order).
GOTO, EXIT, CHOICE, SCORE, TEST, SPAWN, GAIN_CODA, IF, CHOOSE_WHEN, MAY = range(10)
SENTIENCE, TRAP, RELEASE, LOSE_CODA = range(10, 14)
ENDINGS = ("A", "B", "C", "D")

# A program is a chain of nodes (code, a, b, then), None when it does nothing. Branches are
# linked to the rest of the program they sit in, so a walk only ever follows pointers and
# keeps no stack: TEST (chance, pass node, fail node), IF (condition, then node, else node),
# CHOICE (option nodes, count, then), CHOOSE_WHEN ((condition or None, node) pairs, -, then),
# MAY (node when taken, -, then), GOTO (entry, -, -), EXIT (kind, body, -), SCORE ((ending
# index, points) pairs, -, then), SENTIENCE ((colour index, change) pairs, -, then).
Node = tuple[int, Any, Any, "Node | None"]
Program = Node | None
Condition = Callable[["Knowledge"], bool | None]
Chance = Callable[[Sequence[int]], float]


class Tests:
    """Each distinct test's requirement, and its pass probability per dice counts (cached)."""

    def __init__(self) -> None:
        self.rolls: list[dict[str, Any]] = []
        self.colours: list[tuple[int, ...]] = []  # indexes into COLOURS that the test rolls
        self.chances: list[Chance] = []
        self._index: dict[str, int] = {}
        self._cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def add(self, roll: Mapping[str, Any]) -> int:
        key = repr(sorted((c, sorted(t)) for c, t in requirement(roll).items()))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.rolls)
            self.rolls.append(dict(roll))
            self.colours.append(tuple(COLOURS.index(c) for c in requirement(roll)))
            self.chances.append(self._chance(found))
        return found

    def probability(self, index: int, sentience: Sequence[int]) -> float:
        dice = tuple(max(0, sentience[c]) for c in self.colours[index])
        key = (index, dice)
        found = self._cache.get(key)
        if found is None:
            values = {COLOURS[c]: n for c, n in zip(self.colours[index], dice)}
            found = self._cache[key] = float(pass_probability(self.rolls[index], values))
        return found

    def _chance(self, index: int) -> Chance:
        """The test's pass probability as a function of sentience values, remembered by the
        values of the colours it rolls (a walk meets the same few again and again)."""
        probability, colours = self.probability, self.colours[index]
        known: dict[Any, float] = {}
        if len(colours) == 1:
            (c,) = colours

            def one(sentience: Sequence[int]) -> float:
                found = known.get(sentience[c])
                if found is None:
                    found = known[sentience[c]] = probability(index, sentience)
                return found

            return one
        if len(colours) == 2:
            c, d = colours

            def two(sentience: Sequence[int]) -> float:
                key = (sentience[c], sentience[d])
                found = known.get(key)
                if found is None:
                    found = known[key] = probability(index, sentience)
                return found

            return two
        return lambda sentience: probability(index, sentience)


class Compiler:
    """Compiles effect lists against one storybook's tests and encounter cards."""

    def __init__(self, tests: Tests, cards: Mapping[str, int]) -> None:
        self.tests = tests
        self.cards = cards  # card id -> its entry, for the cards a walk can put in play
        # What the functions and nodes were made from, for the site's reader (reader.py):
        # id(condition function) -> its Tree, id(choice node) -> its options' labels.
        self.trees: dict[int, Tree] = {}
        self.labels: dict[int, list[str]] = {}

    def condition(self, condition: Any) -> Condition:
        tree = condition_tree(condition)
        function = compile_tree(tree)
        self.trees[id(function)] = tree
        return function

    def effects(self, effects: Sequence[Any], then: Program = None) -> Program:
        """The chain for `effects`, continuing with `then` when they do not exit."""
        steps: list[tuple[str, Any]] = []
        for effect in effects:
            parsed = single(effect)
            if parsed is None:
                continue
            steps.append(parsed)
            if parsed[0] == "goto" or parsed[0] in TERMINALS:
                break  # nothing after an exit is ever resolved
        node = then
        for name, body in reversed(steps):
            node = self._step(name, body, node)
        return node

    def _step(self, name: str, body: Any, then: Program) -> Program:
        sides = self.effects
        if name == "goto":
            return (GOTO, body, None, None)
        if name in TERMINALS:
            return (EXIT, name, body, None)
        if name == "test" and isinstance(body, dict):
            index = self.tests.add(body.get("roll") or {})
            return (
                TEST,
                self.tests.chances[index],
                sides(body.get("pass") or (), then),
                sides(body.get("fail") or (), then),
            )
        if name == "choice" and isinstance(body, list):
            options = [
                (self.condition(o["when"]) if o.get("when") is not None else None, o)
                for o in body
                if isinstance(o, dict)
            ]
            heads = [sides(o.get("effects") or (), then) for _, o in options]
            if not heads:
                return then  # nothing to choose: not a decision
            node: Node
            if all(when is None for when, _ in options):
                node = (CHOICE, tuple(heads), len(heads), then)
            else:
                pairs = tuple((when, head) for (when, _), head in zip(options, heads))
                node = (CHOOSE_WHEN, pairs, None, then)
            self.labels[id(node)] = [str(o.get("label") or o.get("text") or f"Option {i + 1}")
                                     for i, (_, o) in enumerate(options)]
            return node
        if name == "if" and isinstance(body, dict):
            yes, no = sides(body.get("then") or (), then), sides(body.get("else") or (), then)
            when = body.get("when")
            return yes if when is None else (IF, self.condition(when), yes, no)
        if name == "may":
            return (MAY, sides(body or (), then), None, then)
        if name in GROUPS:
            return sides(body or (), then)  # read in place, as if always true
        if name == "score" and isinstance(body, dict):
            points = tuple((ENDINGS.index(e), n) for e, n in body.items() if e in ENDINGS)
            return (SCORE, points, None, then)
        if name == "gain_coda":
            return (GAIN_CODA, body, None, then)
        if name == "lose_coda":
            return (LOSE_CODA, body, None, then)
        if name == "modify_sentience" and isinstance(body, dict):
            return (SENTIENCE, sentience_changes(body), None, then)
        if name == "spawn_encounter" and isinstance(body, dict):
            entry = self.cards.get(body.get("card"))  # type: ignore[arg-type]
            return then if entry is None else (SPAWN, entry, None, then)
        if name == "trap":
            return (TRAP, None, None, then)
        if name == "release_trap":
            return (RELEASE, None, None, then)
        return then


class Story:
    """The storybook compiled once for all playthroughs."""

    def __init__(self, analysis: Analysis) -> None:
        graph = analysis.graph
        context = graph.context
        self.tests = Tests()
        cards = {
            s.card_id: s.entry
            for s in context.cards + context.finale
            if s.entry in graph.entries and s.card_id is not None
        }
        self.compiler = compiler = Compiler(self.tests, cards)
        self.entries = {n: compiler.effects(e.effects) for n, e in graph.entries.items()}
        # Entry -> (entrance condition or None, program): what a goto or an encounter reads.
        self.targets: dict[int, tuple[Condition | None, Program]] = {
            n: (_gate(compiler, graph.entrances.get(n)), program)
            for n, program in self.entries.items()
        }
        self.blocks = {
            n: compiler.effects(graph.effects_of(n)[0]) for n in graph.arcs if isinstance(n, str)
        }
        rounds = context.rounds
        self.events = (
            [s.entry for s in rounds]
            if rounds is not None
            else sorted(n for n, e in graph.entries.items() if e.kind == "event")
        )
        self.shards = [s.entry for s in context.shards if s.entry in self.entries]
        # Cards that spawn by themselves: (spawning condition, None for a coin flip; entry).
        self.spawning: list[tuple[Condition | None, int]] = [
            (compiler.condition(s.spawn) if s.spawn else None, cards[s.card_id])
            for s in context.cards
            if s.spawned and s.card_id in cards
        ]
        self.coda_sentience = {
            coda: tuple(
                c
                for e in effects
                if isinstance(e, dict) and isinstance(e.get("modify_sentience"), dict)
                for c in sentience_changes(e["modify_sentience"])
            )
            for coda, effects in context.coda_effects.items()
        }
        # Per ending: its setup and event phase blocks, and the encounters of its finale's
        # first turn (the start) and of later turns (the start and the finale shards).
        self.finales: dict[str, tuple[Program, Program, list[int], list[int]]] = {}
        endings = graph.storybook.endings
        for letter in ENDINGS:
            start = endings[letter].start if letter in endings else None
            others = [
                s.entry
                for s in context.finale
                if s.ending == letter and s.kind == "finale-shard" and letter in endings
            ]
            self.finales[letter] = (
                self.blocks.get(f"{letter}:setup"),
                self.blocks.get(f"{letter}:event"),
                [n for n in [start] if n in self.entries],
                [n for n in [start, *others] if n in self.entries],
            )


def _gate(compiler: Compiler, condition: object) -> Condition | None:
    return None if condition is None else compiler.condition(condition)


def sentience_changes(body: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    return tuple((COLOURS.index(c), n) for c, n in body.items() if c in COLOURS)


class Knowledge:
    """What a walk knows, for conditions: codas, visited entries, scores, round, sentience."""

    __slots__ = ("codas", "round", "scores", "sentience", "trapped", "visited")

    def __init__(self, sentience: list[int]) -> None:
        self.codas: set[str] = set()
        self.visited: set[int] = set()
        self.scores = [0, 0, 0, 0]
        self.round = 0
        self.sentience = sentience
        self.trapped = False


# A condition as plain data (lists, JSON as it is), the one form both the walk's functions
# (`compile_tree`) and the site's reader (its script reads the same lists) are made from:
# ["const", True|False|None], ["coda", id], ["visited", n], ["not", t], ["all"|"any", [t]],
# ["score", [[ending index, least]]], ["round_min"|"round_max", n],
# ["sentience", [[colour index, least]]], ["trapped", value].
Tree = list[Any]


def compile_condition(condition: Any) -> Condition:
    """A function of a walk's Knowledge giving True, False, or None when the condition asks
    about the board (monsters, tokens...), which the walk then settles with a coin flip.
    A mapping is read by its first key the walk understands; None holds."""
    return compile_tree(condition_tree(condition))


def condition_tree(condition: Any) -> Tree:
    """The condition as a Tree (see above)."""
    if condition is None:
        return ["const", True]
    if isinstance(condition, dict):
        for name, value in condition.items():
            found = _tree_one(name, value)
            if found is not None:
                return found
    return ["const", None]


# Conditions whose tree is their value under another name.
_RENAMED = {"has_coda": "coda", "visited": "visited", "round_at_least": "round_min",
            "round_at_most": "round_max", "trapped": "trapped"}
# Conditions on least values per ending or colour: the tree's name and the names' order.
_LEAST = {"score_at_least": ("score", ENDINGS), "sentience_at_least": ("sentience", COLOURS)}


def _tree_one(name: str, value: Any) -> Tree | None:
    if name in _RENAMED:
        return [_RENAMED[name], value]
    if name == "not":
        return ["not", condition_tree(value)]
    if name in ("all", "any") and isinstance(value, list):
        return [name, [condition_tree(c) for c in value]]
    if name in _LEAST and isinstance(value, dict):
        tree, order = _LEAST[name]
        if not all(key in order for key in value):
            return ["const", None]
        return [tree, [[order.index(key), n] for key, n in value.items()]]
    if name == "is_central":
        return ["const", value is True]
    if name == "wanderers_at_least":
        return ["const", value <= 1]
    return None


def compile_tree(tree: Tree) -> Condition:
    """The walk's function for a Tree."""
    name, value = tree
    if name == "coda":
        return lambda k: value in k.codas
    if name == "visited":
        return lambda k: value in k.visited
    if name == "not":
        inner = compile_tree(value)

        def negated(k: Knowledge) -> bool | None:
            result = inner(k)
            return None if result is None else not result

        return negated
    if name in ("all", "any"):
        parts = [compile_tree(c) for c in value]
        decisive = name == "any"

        def combined(k: Knowledge) -> bool | None:
            results = [part(k) for part in parts]
            if decisive in results:
                return decisive
            return None if None in results else not decisive

        return combined
    if name == "score":
        if len(value) == 1:
            ((i, least),) = value
            return lambda k: k.scores[i] >= least
        return lambda k: all(k.scores[i] >= n for i, n in value)
    if name == "round_min":
        return lambda k: k.round >= value
    if name == "round_max":
        return lambda k: k.round <= value
    if name == "sentience":
        return lambda k: all(k.sentience[i] >= n for i, n in value)
    if name == "trapped":
        return lambda k: k.trapped == value
    return _const(value)


def _const(result: bool | None) -> Condition:
    return lambda k: result

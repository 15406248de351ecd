"""Building the storybook graph: one node per entry (plus the setup and finale blocks), one
arc per branch of its effects, the roots of the wanderer stage and of each ending's finale."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from dmtool.diagnostics.model import Location
from dmtool.model.effects import Outline, walk_outlines
from dmtool.model.storybook import ENDINGS, Branch, Parts, Storybook, first_branches
from dmtool.storygraph.context import Place, Source, StoryContext

# A node is an entry number, or a block that is not an entry: "setup" (the storybook's
# special setup), "A:setup" and "A:event" (an ending's special setup and event phase).
Node = int | str

# Beyond this many branches in one entry we stop walking it (and say so, DM314).
MAX_BRANCHES = 512
NO_SCORE = (0, 0, 0, 0)


class Arc:
    """One branch of a node, digested for the analyses.

    The branch itself (its decisions, plain effects and places) is walked again from the
    node's effects when first asked for (`branch`): only a finding or a drawing reads it.

    A class with slots whose fields build_graph sets once, not a named tuple: the analyses
    read an arc's fields some thirty times a check, and a slot is read several times faster
    than a named tuple's field (which CPython 3.11 does not specialise).
    """

    __slots__ = ("broken", "changes", "codas", "completes", "conditions", "economy", "enables",
                 "exit_value", "gain", "goto", "index", "kind", "loses", "node", "scores",
                 "spawns", "walks")
    node: Node
    index: int
    kind: str  # how the branch ends: goto | end | conclude | fail_stage | open
    exit_value: Any  # what its exit says: the goto's target, the terminal's value (open: None)
    goto: int | None  # target entry when the branch links to an existing entry
    broken: int | None  # target entry number when it links to a missing one
    enables: tuple[int, ...]  # entries of encounter cards the branch spawns
    conditions: tuple[tuple[Mapping[str, Any], bool], ...]  # (condition, negated) to take it
    codas: tuple[str, ...]
    loses: tuple[str, ...]  # the coda cards its lose_coda effects give back
    scores: tuple[tuple[int, int, int, int], ...]  # each score effect in order, A..D
    gain: tuple[int, int, int, int]  # their sum
    # The `card` of each spawn_encounter effect on the branch, whatever it names, in order.
    spawns: tuple[Any, ...]
    # The body of each modify_sentience effect on the branch that is a mapping, in order.
    changes: tuple[Mapping[str, Any], ...]
    # Whether the branch places a completed token on the shard being resolved (after which
    # the rulebook lets nobody resolve that shard's encounter again).
    completes: bool
    # Whether the branch restores mental capacity, gains domains, traps or removes a token:
    # only such nodes are read again for the action economy (storygraph.economy).
    economy: bool
    walks: Walks  # the graph's branches in full, shared by its arcs

    def __repr__(self) -> str:
        return f"Arc({node_name(self.node)}, branch {self.index}, {self.kind} {self.exit_value!r})"

    @property
    def branch(self) -> Branch:
        return self.walks.of(self.node)[self.index]

    @property
    def escapes(self) -> bool:
        """Whether the branch leaves the graph: a terminal, an open end or a broken link."""
        return self.goto is None


class Walks:
    """The branches of a graph's nodes in full, each node's walked from its effects the first
    time one of them is asked for. A check reads the arcs' digests (walk_outlines) and a
    branch only for a finding, so most nodes are never walked in full; the walk is the one
    the outlines were made by, so a node's branch `i` is the one its arc `i` digests."""

    __slots__ = ("_storybook", "_walked")

    def __init__(self, storybook: Storybook) -> None:
        self._storybook = storybook  # not the graph: arcs holding their graph would be a cycle
        self._walked: dict[Node, list[Branch]] = {}

    def of(self, node: Node) -> list[Branch]:
        found = self._walked.get(node)
        if found is None:
            effects, parts = effects_of(self._storybook, node)
            found = self._walked[node] = first_branches(effects, parts, MAX_BRANCHES)
        return found


@dataclass(frozen=True, slots=True)
class Root:
    node: Node
    # setup | round | event | shard | card (wanderer stage) or start | finale-setup |
    # finale-event | finale-shard | finale-card (an ending's finale)
    kind: str
    label: str
    location: Location | Place | None = None
    ending: str | None = None
    # Conditions the root needs (a card's spawning and entrance conditions), each with what
    # it governs in words: "spawns only when", "can be entered only when".
    conditions: tuple[tuple[Mapping[str, Any], str], ...] = ()
    # The rounds in which it is read: a round tracker's entry in its round, the setup
    # before round 1, an encounter in any of the wanderer stage's, a finale's without end.
    rounds: tuple[float, float] = (1, float("inf"))


@dataclass
class StoryGraph:
    storybook: Storybook
    context: StoryContext
    arcs: dict[Node, tuple[Arc, ...]] = field(default_factory=dict)
    truncated: set[Node] = field(default_factory=set)
    # The nodes whose effects may hold one written after an exit (DM313): the walk of the
    # others met none, so local_findings need not look for one there.
    may_hold_dead: set[Node] = field(default_factory=set)
    # The nodes with a side taken only under a condition (the others' arcs are all open,
    # whatever the facts).
    conditioned: set[Node] = field(default_factory=set)
    # The nodes with a side that gains a coda card (the others' arcs gain none).
    awarding: set[Node] = field(default_factory=set)
    stage_roots: list[Root] = field(default_factory=list)
    finale_roots: dict[str, list[Root]] = field(default_factory=dict)
    # Entrance conditions by entry: a side leading there is taken only if it can hold.
    entrances: dict[int, Mapping[str, Any]] = field(default_factory=dict)
    # Encounter cards' entrance conditions by the card's entry, with the card's label: a
    # branch that spawns the card leads there only if it can hold.
    card_entrances: dict[int, tuple[Mapping[str, Any], str]] = field(default_factory=dict)
    # open arcs per Facts object (reach.open_map), keyed by id with the Facts kept alive.
    open_cache: dict[int, tuple[Any, dict[Any, tuple[Arc, ...]]]] = field(
        default_factory=dict, repr=False
    )
    components_cache: dict[int, tuple[Any, list[list[Any]]]] = field(
        default_factory=dict, repr=False
    )
    # The action economy per Facts object (storygraph.totals.economy), kept alive beside it.
    economy_cache: dict[Any, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    # The names of the conditions written anywhere in the graph (storygraph.bounds.asked).
    asked: frozenset[str] | None = None

    def all_roots(self) -> list[Root]:
        """The roots of the wanderer stage, then those of each ending's finale."""
        return self.stage_roots + [r for rs in self.finale_roots.values() for r in rs]

    @property
    def entries(self) -> Mapping[int, Any]:
        return self.storybook.entries

    def nodes(self) -> Iterator[Node]:
        return iter(self.arcs)

    def effects_of(self, node: Node) -> tuple[tuple[Any, ...], Parts]:
        """The effect list of a node and where it is written."""
        return effects_of(self.storybook, node)


def effects_of(storybook: Storybook, node: Node) -> tuple[tuple[Any, ...], Parts]:
    """The effect list of a node of the storybook's graph and where it is written."""
    if isinstance(node, int):
        entry = storybook.entries[node]
        return entry.effects, entry.effects_parts
    if node == "setup":
        return storybook.setup, ("setup", "effects")
    letter, block = node.split(":")
    ending = storybook.endings[letter]
    if block == "setup":
        return ending.setup, ending.parts + ("setup", "effects")
    return ending.event_phase, ending.parts + ("event_phase", "effects")


def node_name(node: Node) -> str:
    """How a node is named in messages."""
    if isinstance(node, int):
        return f"entry {node}"
    if node == "setup":
        return "the storybook's setup"
    letter, block = node.split(":")
    return f"ending {letter}'s {'setup' if block == 'setup' else 'event phase'}"


def build_graph(storybook: Storybook, context: StoryContext | None = None) -> StoryGraph:
    context = context or StoryContext()
    graph = StoryGraph(storybook, context)
    cards = {s.card_id: s for s in context.cards + context.finale if s.card_id}
    entries = storybook.entries
    # Each entry's effects (effects_of, spelt out for the many), then the blocks'.
    nodes: list[tuple[Node, tuple[Any, ...]]] = [
        (number, entry.effects) for number, entry in entries.items()]
    blocks: list[Node] = ["setup"] if storybook.setup else []
    for letter in storybook.endings:
        blocks += [f"{letter}:setup", f"{letter}:event"]
    nodes += [(block, effects_of(storybook, block)[0]) for block in blocks]
    conditioned = graph.conditioned
    walks = Walks(storybook)
    for node, effects in nodes:
        outlines, may_hold_dead = walk_outlines(effects, MAX_BRANCHES + 1, _DIGESTED)
        if may_hold_dead:
            graph.may_hold_dead.add(node)
        if len(outlines) > MAX_BRANCHES:
            graph.truncated.add(node)
            outlines = outlines[:MAX_BRANCHES]
        graph.arcs[node] = _arcs(node, outlines, walks, entries, cards, graph.awarding)
        for outline in outlines:
            if outline[2]:  # a side taken only under a condition
                conditioned.add(node)
                break
    for number, entry in storybook.entries.items():
        if entry.entrance is not None:
            graph.entrances[number] = entry.entrance
    for source in context.cards + context.finale:
        if source.entrance is not None:
            graph.card_entrances.setdefault(source.entry, (source.entrance, source.label))
    _roots(graph)
    return graph


# The plain effects that give an encounter action back or make an entry be read again.
_ECONOMY = frozenset({"restore_mental_capacity", "gain_domain", "trap", "remove_token"})
# The plain effects an arc digests; the outlines pass every other one over.
_DIGESTED = frozenset({"spawn_encounter", "gain_coda", "score", "modify_sentience",
                       "place_token", "lose_coda", *_ECONOMY})


def _arcs(node: Node, outlines: list[Outline], walks: Walks, entries: Mapping[int, Any],
          cards: Mapping[str, Source], awarding: set[Node]) -> tuple[Arc, ...]:
    """The arcs of a node, one per outline (hot path: every branch of every storybook, so
    one call per node, not per arc); the node goes into `awarding` if one gains a coda."""
    arcs: list[Arc] = []
    for index, (kind, value, conditions, kept) in enumerate(outlines):
        arc = _make(Arc)  # every field is set here, each a slot (see Arc)
        arcs.append(arc)
        arc.node = node
        arc.index = index
        arc.kind = kind
        arc.exit_value = value
        arc.conditions = conditions
        arc.walks = walks
        arc.goto = arc.broken = None
        if kind == "goto":
            if value in entries:
                arc.goto = value
            else:
                arc.broken = value if isinstance(value, int) else -1
        arc.completes = arc.economy = False
        if not kept:  # most branches: nothing to digest
            arc.enables = arc.codas = arc.scores = arc.spawns = arc.changes = arc.loses = ()
            arc.gain = NO_SCORE
            continue
        # each field starts as the empty tuple and grows only when something is found
        enables: tuple[int, ...] = ()
        spawns: tuple[Any, ...] = ()
        codas: tuple[str, ...] = ()
        scores: tuple[tuple[int, int, int, int], ...] = ()
        changes: tuple[Mapping[str, Any], ...] = ()
        loses: tuple[str, ...] = ()
        for name, body in kept:
            if name == "spawn_encounter" and isinstance(body, dict):
                spawns += (body.get("card"),)
                card = cards.get(spawns[-1])
                if card is not None and card.entry in entries:
                    enables += (card.entry,)
            elif name == "gain_coda" and isinstance(body, str):
                codas += (body,)
            elif name == "score" and isinstance(body, dict):
                scores += (_points(body),)
            elif name == "modify_sentience" and isinstance(body, Mapping):
                changes += (body,)
            elif name == "lose_coda" and isinstance(body, str):
                loses += (body,)
            elif name == "place_token" and _completes(body):
                arc.completes = True
            elif name in _ECONOMY:
                arc.economy = True
        arc.enables = enables
        arc.codas = codas
        arc.loses = loses
        if codas:
            awarding.add(node)
        arc.scores = scores
        arc.spawns = spawns
        arc.changes = changes
        if not scores:
            arc.gain = NO_SCORE
        elif len(scores) == 1:
            arc.gain = scores[0]
        else:
            arc.gain = tuple(map(sum, zip(*scores)))  # type: ignore[assignment]
    return tuple(arcs)


_make = object.__new__


def _completes(body: Any) -> bool:
    """Whether a place_token effect puts a completed token on the shard being resolved."""
    return (isinstance(body, Mapping) and body.get("token") == "completed"
            and body.get("shard", "current") == "current")


def _points(score: Mapping[Any, Any]) -> tuple[int, int, int, int]:
    """The points a score effect gives each ending, A..D; a value that is not a number gives
    none. (Read off the effect's own keys: most name one ending.)"""
    points = [0, 0, 0, 0]
    for key, value in score.items():
        slot = _SLOTS.get(key)
        if slot is not None and isinstance(value, int) and not isinstance(value, bool):
            points[slot] = value
    return tuple(points)  # type: ignore[return-value]


_SLOTS = {ending: slot for slot, ending in enumerate(ENDINGS)}


def _roots(graph: StoryGraph) -> None:
    storybook, context = graph.storybook, graph.context
    stage: list[Root] = []
    if storybook.setup:
        stage.append(Root("setup", "setup", "storybook setup", rounds=(1, 1)))
    if context.rounds is None:
        stage += [
            Root(n, "event", f"event entry {n}", rounds=STAGE_ROUNDS)
            for n, e in storybook.entries.items()
            if e.kind == "event"
        ]
    else:
        stage += [
            Root(s.entry, "round", s.label, s.location, rounds=_round_of(s))
            for s in context.rounds
            if s.entry in storybook.entries
        ]
    stage += [
        Root(s.entry, "shard", s.label, s.location, rounds=STAGE_ROUNDS)
        for s in context.shards
        if s.entry in storybook.entries
    ]
    stage += [
        Root(s.entry, "card", s.label, s.location, conditions=_card_conditions(s),
             rounds=STAGE_ROUNDS)
        for s in context.cards
        if s.spawned and s.entry in storybook.entries
    ]
    graph.stage_roots = stage
    for letter, ending in storybook.endings.items():
        roots = [
            Root(f"{letter}:setup", "finale-setup", f"ending {letter} setup", ending=letter),
            Root(f"{letter}:event", "finale-event", f"ending {letter} event phase", ending=letter),
        ]
        if ending.start in storybook.entries:
            roots.append(
                Root(
                    ending.start,
                    "start",
                    f"ending {letter} start",
                    Place(storybook, ending.parts + ("start",)),
                    ending=letter,
                )
            )
        for source in context.finale:
            if (
                source.ending == letter
                and source.entry in storybook.entries
                and (source.kind == "finale-shard" or source.spawned)
            ):
                    roots.append(
                        Root(
                            source.entry,
                            source.kind,
                            source.label,
                            source.location,
                            ending=letter,
                            conditions=_card_conditions(source),
                        )
                    )
        graph.finale_roots[letter] = roots


# The wanderer stage's rounds: its tenth round's refresh phase ends it (DoM "Refresh Phase").
STAGE_ROUNDS = (1, 10)


def _round_of(source: Source) -> tuple[float, float]:
    """The round a tracker names its entry for (its label says 'round N')."""
    number = source.label.removeprefix("round ")
    return (int(number), int(number)) if number.isdigit() and 1 <= int(number) <= 10 else (
        STAGE_ROUNDS)


def _card_conditions(source: Source) -> tuple[tuple[Mapping[str, Any], str], ...]:
    found: list[tuple[Mapping[str, Any], str]] = []
    if source.spawned and source.spawn is not None:
        found.append((source.spawn, "spawns only when"))
    if source.entrance is not None:
        found.append((source.entrance, "can be entered only when"))
    return tuple(found)

"""Reachability over the storybook graph under some Facts, strongly connected components,
and traps. A side whose conditions can never hold is not a link (see conditions); the
fixpoint that finds the tightest Facts is storygraph.solve."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from dmtool.storygraph.build import Arc, Node, Root, StoryGraph
from dmtool.storygraph.conditions import Facts, evaluate, feasible

# node -> (previous node, arc taken, "goto" | "enables"); roots map to (None, None, "root").
Parents = dict[Node, tuple[Node | None, Arc | None, str]]


def open_map(graph: StoryGraph, facts: Facts) -> dict[Node, tuple[Arc, ...]]:
    """Every node's arcs whose conditions can hold under `facts` (computed once per facts)."""
    cached = graph.open_cache.get(id(facts))
    if cached is not None and cached[0] is facts:
        return cached[1]
    found = dict(graph.arcs)  # in the graph's order, each node's own arcs at first
    for node in graph.conditioned:
        found[node] = tuple(
            a for a in graph.arcs[node] if not a.conditions or feasible(a.conditions, facts)
        )
    graph.open_cache[id(facts)] = (facts, found)
    return found


def open_arcs(graph: StoryGraph, node: Node, facts: Facts) -> tuple[Arc, ...]:
    """The arcs of a node whose conditions can hold."""
    return open_map(graph, facts).get(node, ())


def enterable(graph: StoryGraph, node: Node, facts: Facts) -> bool:
    condition = graph.entrances.get(node) if isinstance(node, int) else None
    return condition is None or evaluate(condition, facts) is not False


# What every way to a node has surely done: coda cards the reader holds, entries read.
Must = tuple[frozenset[str], frozenset[int]]
NOTHING: Must = (frozenset(), frozenset())


class Track:
    """What a search follows along every way in: the coda cards and entries some condition
    asks about (no others matter), the nodes where a condition or an award may concern
    another wanderer than the reader (inside all_wanderers or central_wanderer: their
    awards are not counted and their conditions are judged without the reader's cards),
    and whether awards count at all (not in a finale, where coda cards have left)."""

    __slots__ = ("codas", "entries", "gains", "grouped")

    def __init__(self, codas: frozenset[str], entries: frozenset[int], grouped: frozenset[Node],
                 *, gains: bool = True) -> None:
        self.codas, self.entries, self.grouped, self.gains = codas, entries, grouped, gains


def search(
    graph: StoryGraph, roots: Iterable[Node | Root], facts: Facts, *, enables: bool = True,
    rounds: dict[Node, tuple[float, float]] | None = None,
    track: Track | None = None, must: dict[Node, Must] | None = None,
) -> Parents:
    """Breadth-first search from the roots (a Root only when it can enter play); the parents
    give shortest paths back.

    Each node is judged in the rounds it can be read in (`rounds`, filled in when given): a
    root's own (Root.rounds), the hull of those of the nodes that link to it, a spawned
    card's from its spawner's first round to its stage's last. A node whose rounds widen is
    looked at again, so the search stays a least fixpoint (at most a few passes: rounds
    only widen, over ten values and the finale's open end).

    With `track`, each node also knows what every way to it has surely done (`must`,
    filled in when given: the intersection over the ways in, a walk's awards and reads
    added along it, a spawned card's walk keeping only the reads); a node whose knowledge
    shrinks is looked at again, so nothing supports itself here either.
    """
    parents: Parents = {}
    interval: dict[Node, tuple[float, float]] = {} if rounds is None else rounds
    known: dict[Node, Must] = {} if must is None else must
    queue: deque[Node] = deque()
    for root in roots:
        span = root.rounds if isinstance(root, Root) else facts.rounds
        here = facts.at_rounds(span)
        if isinstance(root, Root) and not root_open(graph, root, here):
            continue
        node = root.node if isinstance(root, Root) else root
        if node not in graph.arcs or not enterable(graph, node, here):
            continue
        _visit(parents, interval, queue, node, (None, None, "root"), span, known, NOTHING)
    entrances = graph.entrances
    while queue:
        node = queue.popleft()
        span = interval[node]
        here = facts.at_rounds(span)
        arcs = open_map(graph, here)[node]
        held, seen = known.get(node, NOTHING)
        if track is not None:
            if node in track.entries:
                seen = seen | {node}
            if held or seen:
                here = here.knowing(held if node not in track.grouped else frozenset(), seen)
                if node in graph.conditioned:
                    arcs = tuple(a for a in graph.arcs[node]
                                 if not a.conditions or feasible(a.conditions, here))
        for arc in arcs:
            target = arc.goto
            after = held
            if track is not None and node in track.grouped:
                after = frozenset()  # the reader may change inside a group: nothing kept
            elif track is not None and (arc.codas or arc.loses):
                won = frozenset(arc.codas) & track.codas if track.gains else frozenset()
                after = (held | won) - frozenset(arc.loses)
            there = here if track is None else here.knowing(after, seen)
            # hot path: enterable() spelt out (most entries have no entrance condition)
            if target is not None and (
                    target not in entrances or evaluate(entrances[target], there) is not False):
                _visit(parents, interval, queue, target, (node, arc, "goto"), span, known,
                       (after, seen))
            if enables and arc.enables:
                # A card spawned now is entered in this round or a later one of its stage.
                later = (span[0], _STAGE_END if span[1] <= _STAGE_END else span[1])
                there = facts.at_rounds(later)
                for target in arc.enables:
                    if not (enterable(graph, target, there) and card_open(graph, target, there)):
                        continue
                    _visit(parents, interval, queue, target, (node, arc, "enables"), later,
                           known, (frozenset(), seen))
    return parents


_STAGE_END = 10


def _visit(parents: Parents, interval: dict[Node, tuple[float, float]], queue: deque[Node],
           node: Node, via: tuple[Node | None, Arc | None, str],
           span: tuple[float, float], known: dict[Node, Must], must: Must) -> None:
    """Reach `node` in the rounds `span`, knowing `must`: found the first time (by `via`),
    looked at again when its rounds widen or what it knows shrinks."""
    if node not in parents:
        parents[node] = via
        interval[node] = span
        if must is not NOTHING:
            known[node] = must
        queue.append(node)
        return
    changed = False
    low, high = interval[node]
    if span[0] < low or span[1] > high:
        interval[node] = (min(low, span[0]), max(high, span[1]))
        changed = True
    was = known.get(node, NOTHING)
    if was is not NOTHING:
        now = (was[0] & must[0], was[1] & must[1])
        if now != was:
            known[node] = now
            changed = True
    if changed:
        queue.append(node)


def all_roots(graph: StoryGraph) -> list[Root]:
    return graph.all_roots()


def card_open(graph: StoryGraph, entry: int, facts: Facts) -> bool:
    """Whether the card whose entry this is can be entered (its entrance condition)."""
    found = graph.card_entrances.get(entry)
    return found is None or evaluate(found[0], facts) is not False


def root_open(graph: StoryGraph, root: Root, facts: Facts) -> bool:
    """Whether a root can enter play: its node can be entered and its conditions can hold."""
    if not enterable(graph, root.node, facts):
        return False
    # Most roots have no condition: no generator for them (every root, every search).
    return not root.conditions or all(
        evaluate(condition, facts) is not False for condition, _ in root.conditions
    )


def components(
    graph: StoryGraph, facts: Facts, nodes: Iterable[Node] | None = None
) -> list[list[Node]]:
    """Strongly connected components over goto arcs, sinks first (Tarjan, iterative).

    Over every node (nodes=None) the result is kept per facts and reused.
    """
    if nodes is None:
        cached = graph.components_cache.get(id(facts))
        if cached is not None and cached[0] is facts:
            return cached[1]
        found = _tarjan(graph, facts, None)
        graph.components_cache[id(facts)] = (facts, found)
        return found
    return _tarjan(graph, facts, nodes)


def _tarjan(graph: StoryGraph, facts: Facts, nodes: Iterable[Node] | None) -> list[list[Node]]:
    arcs_of = open_map(graph, facts)
    succ = {
        n: [a.goto for a in arcs_of[n] if a.goto is not None]
        for n in (graph.arcs if nodes is None else nodes)
    }
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    out: list[list[Node]] = []
    for start in succ:
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        # Each node on the path with what is left of its links (an iterator, resumed when
        # the search comes back to it): the recursive algorithm without recursion.
        work = [(start, iter(succ[start]))]
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in succ:
                    continue
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(succ[target])))
                    break
                if target in on_stack and index[target] < low[node]:
                    low[node] = index[target]
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    if low[node] < low[parent]:
                        low[parent] = low[node]
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(component)
    return out


def escaping(graph: StoryGraph, facts: Facts) -> set[Node]:
    """Nodes from which some way leads out of the graph (a terminal, an open end, a broken
    link), or that have no side that can be taken at all (reported elsewhere)."""
    arcs_of = open_map(graph, facts)
    found: set[Node] = set()
    pending: list[Node] = []
    # Links mostly lead on to later entries: looked at from the last node back, most nodes
    # link to one already found (every node of a clean storybook, in one pass). The others
    # are found by following back the links among them alone.
    for node in reversed(arcs_of):
        arcs = arcs_of[node]
        if not arcs:
            found.add(node)
            continue
        for arc in arcs:
            if arc.goto is None or arc.goto in found:  # Arc.escapes, or on to a way out
                found.add(node)
                break
        else:
            pending.append(node)
    preds: dict[Node, list[Node]] = {}
    for node in pending:
        for arc in arcs_of[node]:
            preds.setdefault(arc.goto, []).append(node)
    queue = deque(target for target in preds if target in found)
    while queue:
        node = queue.popleft()
        for pred in preds.get(node, ()):
            if pred not in found:
                found.add(pred)
                queue.append(pred)
    return found


def traps(graph: StoryGraph, facts: Facts) -> list[list[int]]:
    """Cycles of entries with no way out to a terminal, each sorted, smallest entry first."""
    out_ = escaping(graph, facts)
    arcs_of = open_map(graph, facts)
    # A component holding one node that cannot escape holds only such nodes (they all reach
    # each other), and their links lead only to such nodes: the components of those nodes
    # alone are the candidates (none at all in a clean storybook).
    stuck = [n for n in graph.arcs if n not in out_]
    found = []
    for component in components(graph, facts, stuck):
        node = component[0]
        cyclic = len(component) > 1 or any(a.goto == node for a in arcs_of.get(node, ()))
        if cyclic:
            found.append(sorted(n for n in component if isinstance(n, int)))
    return sorted(found)

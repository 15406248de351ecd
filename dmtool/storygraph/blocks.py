"""The block an entry is read in: the entries of its encounter, or of its ending's finale.

Used to suggest the entry an author meant by a number that does not exist: a neighbour
in the same block first (dmtool.diagnostics.hints). A block is the run of entries the gotos
reach from one root (a round's event, a shard's or card's encounter), and for an ending's
finale, what all that ending's roots reach together.
"""

from __future__ import annotations

from functools import cached_property

from dmtool.storygraph.build import Node, StoryGraph


class Blocks:
    """The blocks of one storybook graph, worked out the first time one is asked for."""

    def __init__(self, graph: StoryGraph) -> None:
        self._graph = graph
        # The union of the blocks at each set of indexes asked for so far.
        self._unions: dict[tuple[int, ...], frozenset[int]] = {}

    def around(self, node: Node) -> frozenset[int]:
        """Every entry of a block that also holds `node` (just `node` if none does)."""
        holding = self._holding.get(node, ())
        found = self._unions.get(holding)
        if found is None:
            found = self._unions[holding] = frozenset().union(
                *(self._blocks[index] for index in holding))
        if isinstance(node, int) and node not in found:
            return found | {node}
        return found

    @cached_property
    def _blocks(self) -> list[set[int]]:
        return self._stage + list(self._finales.values())

    @cached_property
    def _holding(self) -> dict[Node, tuple[int, ...]]:
        """node -> the indexes of the blocks holding it (asked for every node: an index
        instead of a scan of every block each time)."""
        holding: dict[Node, list[int]] = {}
        for index, members in enumerate(self._blocks):
            for member in members:
                holding.setdefault(member, []).append(index)
        return {member: tuple(indexes) for member, indexes in holding.items()}

    def of_ending(self, letter: str) -> frozenset[int]:
        return frozenset(self._finales.get(letter, ()))

    @cached_property
    def unlinked(self) -> frozenset[int]:
        """Entries no goto and no root leads to."""
        graph = self._graph
        linked = {arc.goto for arcs in graph.arcs.values() for arc in arcs}
        linked |= {root.node for root in graph.stage_roots}
        linked |= {root.node for roots in graph.finale_roots.values() for root in roots}
        return frozenset(n for n in graph.storybook.entries if n not in linked)

    @cached_property
    def _stage(self) -> list[set[int]]:
        return [self._reach([root.node]) for root in self._graph.stage_roots]

    @cached_property
    def _finales(self) -> dict[str, set[int]]:
        return {letter: self._reach([root.node for root in roots])
                for letter, roots in self._graph.finale_roots.items()}

    @cached_property
    def _root_numbers(self) -> list[int]:
        graph = self._graph
        nodes = [root.node for root in graph.stage_roots]
        nodes += [root.node for roots in graph.finale_roots.values() for root in roots]
        return sorted({node for node in nodes if isinstance(node, int)})

    def _reach(self, starts: list[Node]) -> set[int]:
        """Entries the gotos reach from `starts` (the starts included), conditions aside,
        with the run of numbers they span up to the next root: an author numbers a block
        as a run, and an entry whose only link is mistyped is still part of it."""
        seen: set[Node] = set(starts)
        pending = list(starts)
        while pending:
            for arc in self._graph.arcs.get(pending.pop(), ()):
                if arc.goto is not None and arc.goto not in seen:
                    seen.add(arc.goto)
                    pending.append(arc.goto)
        numbers = [node for node in seen if isinstance(node, int)]
        if not numbers:
            return set()
        low, high = min(numbers), max(numbers)
        following = [n for n in self._root_numbers if n > low]
        if following:
            high = max(high, following[0] - 1)
        return {n for n in self._graph.storybook.entries if low <= n <= high}

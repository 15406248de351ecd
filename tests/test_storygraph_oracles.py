"""Random storybooks checked against independent oracles: networkx for reachability and
traps, brute-force walk enumeration for score bounds and certificates."""

from __future__ import annotations

import random
from itertools import accumulate
from typing import Any

import networkx as nx
import pytest
from storygraph_support import entry, storybook_data

from dmtool.model.storybook import Storybook
from dmtool.storygraph.analysis import analyse
from dmtool.storygraph.reach import escaping

ENDINGS = "ABCD"


def _random_book(rng: random.Random, size: int, *, acyclic: bool) -> dict[str, Any]:
    entries = []
    for number in range(1, size + 1):
        options = []
        for k in range(rng.randint(1, 3)):
            effects: list[Any] = []
            if rng.random() < 0.6:
                effects.append({"score": {rng.choice(ENDINGS): rng.choice([-2, -1, 1, 2, 3])}})
            if rng.random() < 0.4:
                effects.append({"score": {rng.choice(ENDINGS): rng.choice([1, 2])}})
            targets = range(number + 1, size + 1) if acyclic else range(1, size + 1)
            if targets and rng.random() < 0.75:
                effects.append({"goto": rng.choice(list(targets))})
            else:
                effects.append({"end": "encounter"})
            options.append({"label": f"o{k}", "effects": effects})
        effects = [{"choice": options}] if len(options) > 1 else options[0]["effects"]
        entries.append(entry(number, effects, kind="event" if number <= 2 else "exploration"))
    return storybook_data(entries, endings=[])


def _walk_gains(book: dict[str, Any], root: int) -> list[list[tuple[int, ...]]]:
    """Every walk from `root` (acyclic books), as the list of score vectors met in order."""
    by_number = {e["entry"]: e for e in book["entries"]}
    out: list[list[tuple[int, ...]]] = []

    def options(effects: list[Any]) -> list[list[Any]]:
        first = effects[0]
        return [o["effects"] for o in first["choice"]] if "choice" in first else [effects]

    def go(number: int, gains: list[tuple[int, ...]]) -> None:
        for effects in options(by_number[number]["effects"]):
            seen = list(gains)
            target = None
            for effect in effects:
                if "score" in effect:
                    seen.append(tuple(effect["score"].get(e, 0) for e in ENDINGS))
                elif "goto" in effect:
                    target = effect["goto"]
            if target is None:
                out.append(seen)
            else:
                go(target, seen)

    go(root, [])
    return out


def _best(walks: list[list[tuple[int, ...]]], weight: Any) -> int:
    """The largest prefix sum of a weight over all walks (0: stop before anything)."""
    return max(max([0, *accumulate(weight(g) for g in walk)]) for walk in walks)


@pytest.mark.parametrize("seed", range(40))
def test_score_bounds_and_certificates_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    book = _random_book(rng, rng.randint(3, 9), acyclic=True)
    analysis = analyse(Storybook.from_data(book))
    walks = [w for root in (1, 2) for w in _walk_gains(book, root)]
    for i, e in enumerate(ENDINGS):
        assert analysis.scores.bounds[e].walk_max == _best(walks, lambda g, i=i: g[i])
        assert analysis.scores.bounds[e].walk_min == -_best(walks, lambda g, i=i: -g[i])
    for y in range(1, 4):
        dominated = any(
            _best(walks, lambda g, x=x, y=y: max(g[y], 0) - g[x]) <= 0 for x in range(y)
        )
        assert (ENDINGS[y] in analysis.scores.certificates) == dominated


def _oracle(book: dict[str, Any]) -> tuple[set[int], list[list[int]]]:
    graph = nx.DiGraph()
    exits: set[int] = set()
    for item in book["entries"]:
        number = item["entry"]
        graph.add_node(number)
        first = item["effects"][0]
        sides = [o["effects"] for o in first["choice"]] if "choice" in first else [item["effects"]]
        for effects in sides:
            targets = [e["goto"] for e in effects if "goto" in e]
            if targets:
                graph.add_edge(number, targets[0])
            else:
                exits.add(number)
    reachable = set(nx.descendants(graph, 1)) | set(nx.descendants(graph, 2)) | {1, 2}
    can_exit = set(exits).union(*(nx.ancestors(graph, n) for n in exits)) if exits else set()
    traps = []
    for component in nx.strongly_connected_components(graph):
        node = next(iter(component))
        cyclic = len(component) > 1 or graph.has_edge(node, node)
        if cyclic and not component & can_exit:
            traps.append(sorted(component))
    return reachable, sorted(traps)


@pytest.mark.parametrize("seed", range(60))
def test_reachability_and_traps_match_networkx(seed: int) -> None:
    rng = random.Random(1000 + seed)
    book = _random_book(rng, rng.randint(3, 25), acyclic=False)
    analysis = analyse(Storybook.from_data(book))
    reachable, traps = _oracle(book)
    assert {n for n in analysis.solution.reached if isinstance(n, int)} == reachable
    assert analysis.traps == traps


@pytest.mark.parametrize("seed", range(40))
def test_the_nodes_with_a_way_out_match_networkx(seed: int) -> None:
    rng = random.Random(2000 + seed)
    book = _random_book(rng, rng.randint(3, 25), acyclic=False)
    analysis = analyse(Storybook.from_data(book))
    graph, facts = analysis.graph, analysis.solution.facts
    links: nx.DiGraph = nx.DiGraph()
    exits = set()
    for node, arcs in graph.arcs.items():
        links.add_node(node)
        for arc in arcs:
            if arc.goto is None:
                exits.add(node)
            else:
                links.add_edge(node, arc.goto)
    expected = exits.union(*(nx.ancestors(links, node) for node in exits))
    assert escaping(graph, facts) == expected

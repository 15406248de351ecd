"""Witness paths: for each ending, a shortest way to give it points in the wanderer stage and a
shortest way from its finale's roots to each of its conclusions, as readable text (the
scenario fixture skeletons are written by fixtures.py)."""

from __future__ import annotations

from dataclasses import dataclass

from dmtool.model.describe import describe_condition, plain
from dmtool.model.storybook import ENDINGS, Step
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Arc, Node, Root, node_name
from dmtool.storygraph.reach import Parents, open_arcs, search


@dataclass(frozen=True, slots=True)
class Hop:
    node: Node
    arc: Arc | None  # the branch taken out of the node (None at the last node)
    how: str  # how the node was entered: root | goto | enables


@dataclass(frozen=True, slots=True)
class Witness:
    ending: str
    purpose: str  # "score" (the stage gives the ending points) or "conclusion"
    conclusion: int | None
    root: Root
    hops: tuple[Hop, ...]


def witnesses(analysis: Analysis) -> list[Witness]:
    graph, solution = analysis.graph, analysis.solution
    found: list[Witness] = []
    stage = search(graph, graph.stage_roots, solution.facts)
    for letter, ending in graph.storybook.endings.items():
        scoring = _first_scoring(analysis, stage, ENDINGS.index(letter))
        if scoring is not None:
            node, arc = scoring
            found.append(
                Witness(letter, "score", None, *_trace(graph.stage_roots, stage, node, arc))
            )
        roots = graph.finale_roots.get(letter, [])
        parents = search(graph, roots, solution.facts)
        for conclusion in ending.conclusions:
            if conclusion.entry in parents:
                found.append(
                    Witness(
                        letter,
                        "conclusion",
                        conclusion.entry,
                        *_trace(roots, parents, conclusion.entry, None),
                    )
                )
    return found


def _first_scoring(analysis: Analysis, parents: Parents, index: int) -> tuple[Node, Arc] | None:
    # Parents preserve breadth-first order, so the first hit is on a shortest path.
    for node in parents:
        for arc in open_arcs(analysis.graph, node, analysis.solution.facts):
            if any(s[index] > 0 for s in arc.scores):
                return node, arc
    return None


def _trace(
    roots: list[Root], parents: Parents, last: Node, last_arc: Arc | None
) -> tuple[Root, tuple[Hop, ...]]:
    hops: list[Hop] = []
    node: Node | None = last
    arc = last_arc
    while node is not None:
        previous, via, how = parents[node]
        hops.append(Hop(node, arc, how))
        node, arc = previous, via
    hops.reverse()
    root = next(r for r in roots if r.node == hops[0].node)
    return root, tuple(hops)


def describe_step(step: Step) -> str:
    """The decision in words, conditions whole ('if you hold the coda card The Wheel Turned');
    an `else` side reads as its condition negated, so both sides start with 'if '."""
    if step.kind in ("pass", "fail"):
        return f"test {'passes' if step.kind == 'pass' else 'fails'}"
    if step.kind == "option":
        return f"choose '{step.label}'"
    if step.kind in ("then", "else"):
        if step.condition is None:
            return "if the condition holds" if step.kind == "then" else "if it does not hold"
        return "if " + plain(describe_condition(step.condition, negated=step.kind == "else"))
    return "take the optional effects" if step.kind == "take" else "skip the optional effects"


def describe_arc(arc: Arc) -> str:
    parts = [describe_step(s) for s in arc.branch.steps]
    for gain in arc.scores:
        parts += [f"{'+' if g > 0 else ''}{g} {e}" for e, g in zip(ENDINGS, gain) if g]
    exit_ = arc.branch.exit
    if exit_.kind in ("end", "conclude", "fail_stage"):
        parts.append(f"{exit_.kind.replace('_', ' ')} {exit_.value}")
    return ", ".join(parts)


def render_witness(witness: Witness) -> str:
    if witness.purpose == "score":
        head = f"ending {witness.ending}: points in the wanderer stage, from {witness.root.label}"
    else:
        head = (
            f"ending {witness.ending}: conclusion {witness.conclusion}, from {witness.root.label}"
        )
    lines = [head]
    for hop in witness.hops:
        via = " (spawned)" if hop.how == "enables" else ""
        detail = (
            f": {describe_arc(hop.arc)}" if hop.arc is not None and describe_arc(hop.arc) else ""
        )
        lines.append(f"  {node_name(hop.node)}{via}{detail}")
    return "\n".join(lines)

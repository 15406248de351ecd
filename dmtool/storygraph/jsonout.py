"""The storybook graph as plain JSON data for other tools: nodes, edges, roots, terminals,
findings and score bounds."""

from __future__ import annotations

from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Node
from dmtool.storygraph.certify import certificates
from dmtool.storygraph.dot import edge_label
from dmtool.storygraph.local import where

SCHEMA_VERSION = 1


def _id(node: Node) -> int | str:
    return node


def finding(diagnostic: Diagnostic) -> dict[str, Any]:
    loc = diagnostic.location
    return {
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "path": loc.path,
        "line": loc.line,
        "column": loc.column,
        "pointer": loc.pointer,
        "hint": diagnostic.hint,
    }


def graph_data(analysis: Analysis) -> dict[str, Any]:
    graph, solution = analysis.graph, analysis.solution
    storybook = graph.storybook
    problems = analysis.problems
    nodes = []
    for node in graph.arcs:
        record: dict[str, Any] = {"id": _id(node)}
        if isinstance(node, int):
            entry = storybook.entries[node]
            record.update(
                kind=entry.kind,
                title=entry.title,
                line=where(storybook, entry.parts + ("entry",)).line,
            )
        else:
            record.update(
                kind="block", title=node, line=where(storybook, graph.effects_of(node)[1]).line
            )
        record["reachable"] = node in solution.reached
        record["stage"] = node in solution.stage
        record["problems"] = sorted(p for p, members in problems.items() if node in members)
        nodes.append(record)
    edges = []
    terminals = []
    for node, arcs in graph.arcs.items():
        for arc in arcs:
            exit_ = arc.branch.exit
            line = where(storybook, exit_.parts).line if exit_.parts else None
            if arc.goto is not None:
                edges.append(
                    {
                        "source": _id(node),
                        "target": arc.goto,
                        "kind": "goto",
                        "label": edge_label(arc),
                        "line": line,
                        "gain": list(arc.gain),
                    }
                )
            elif arc.broken is not None:
                edges.append(
                    {
                        "source": _id(node),
                        "target": arc.broken,
                        "kind": "broken",
                        "label": edge_label(arc),
                        "line": line,
                        "gain": list(arc.gain),
                    }
                )
            elif exit_.is_terminal:
                terminals.append(
                    {"node": _id(node), "kind": exit_.kind, "value": exit_.value, "line": line}
                )
            for target in arc.enables:
                edges.append(
                    {
                        "source": _id(node),
                        "target": target,
                        "kind": "enables",
                        "label": "spawns",
                        "line": None,
                        "gain": [0, 0, 0, 0],
                    }
                )
    roots = [
        {"node": _id(r.node), "kind": r.kind, "label": r.label, "ending": r.ending}
        for r in graph.stage_roots + [r for rs in graph.finale_roots.values() for r in rs]
    ]
    return {
        "version": SCHEMA_VERSION,
        "storybook": storybook.id,
        "path": storybook.display,
        "nodes": nodes,
        "edges": _unique(edges),
        "roots": roots,
        "terminals": _unique(terminals),
        "findings": [finding(d) for d in sorted(analysis.diagnostics, key=lambda d: d.sort_key())],
        "score_bounds": {e: b.as_dict() for e, b in analysis.scores.bounds.items()},
        "never_highest": {e: {"winner": c.winner} for e, c in analysis.scores.certificates.items()},
        # What each verdict of impossibility rests on (storygraph.certify).
        "certificates": certificates(analysis),
    }


def _unique(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    out = []
    for record in records:
        key = repr(sorted(record.items(), key=lambda kv: kv[0]))
        if key not in seen:
            seen.add(key)
            out.append(record)
    return out

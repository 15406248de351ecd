"""What `dmtool graph` makes of analysed storybooks: the summary of each, its JSON data,
witness paths and fixture skeletons, and the drawing (graph_files.py).

A plain run prints the summaries alone: the JSON data, the witnesses and the drawing are
made, and their modules imported, only when asked for (the imports alone were 3% of a
cold `dmtool graph` of the bench corpus)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.conditions import PREMISE

if TYPE_CHECKING:
    from dmtool.storygraph.commands import GraphOptions


@dataclass
class GraphOutput:
    texts: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=lambda: {"storybooks": []})
    written: list[Path] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    not_drawn: bool = False


def graph_output(analyses: list[Analysis], options: GraphOptions) -> GraphOutput:
    """Summaries, JSON data, witnesses and the drawing of the analysed storybooks."""
    out = GraphOutput()
    for analysis in analyses:
        # The JSON data locates every node and edge (a second parse for positions): only
        # when it is printed.
        if options.fmt == "json":
            from dmtool.storygraph.jsonout import graph_data

            record = graph_data(analysis)
        else:
            record = {"id": analysis.graph.storybook.id}
        out.data["storybooks"].append(record)
        out.texts.append(_summary(analysis))
        if options.witness:
            from dmtool.storygraph.graph_files import witness_output

            record["witnesses"], done = witness_output(analysis, options.witness_dir)
            out.texts += done.texts
            out.written += done.written
            out.messages += done.messages
    if options.output is not None and analyses:
        from dmtool.storygraph.graph_files import drawing_output

        drawn = drawing_output(analyses[0], options)
        out.written += drawn.written
        out.messages += drawn.messages
        out.not_drawn = drawn.not_drawn
    return out


def _summary(analysis: Analysis) -> str:
    graph, solution = analysis.graph, analysis.solution
    entries = len(graph.entries)
    reached = sum(1 for n in graph.entries if n in solution.reached)
    roots = len(graph.stage_roots) + sum(len(r) for r in graph.finale_roots.values())
    lines = [
        f"storybook '{graph.storybook.id}' ({graph.storybook.display}): {entries} entries, "
        f"{roots} roots, {reached} reachable"
    ]
    for letter, bound in analysis.scores.bounds.items():
        game = "unbounded" if bound.game_max == float("inf") else f"at most {bound.game_max}"
        lines.append(
            f"  ending {letter}: {bound.walk_min}..{bound.walk_max} points in one walk, "
            f"{game} {PREMISE}"
        )
    return "\n".join(lines)


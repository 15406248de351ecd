"""What `dmtool graph` makes of analysed storybooks: the summary of each, its JSON data,
witness paths and fixture skeletons, and the drawing (with Graphviz when it can finish)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dmtool.errors import UsageError
from dmtool.model.storybook import ENDINGS
from dmtool.storygraph import render as graphviz
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.conditions import PREMISE
from dmtool.storygraph.dot import draw
from dmtool.storygraph.fixtures import fixture_skeleton
from dmtool.storygraph.jsonout import graph_data
from dmtool.storygraph.witness import render_witness, witnesses
from dmtool.writing import AlreadyExists, check_report_path, create_file, write_report

if TYPE_CHECKING:
    from dmtool.storygraph.commands import GraphOptions

DRAWING_SUFFIXES = (".svg", ".png", ".dot")
_DRAW_A_PART = (
    "Draw a part of it instead: --ending A (one ending's finale) or --focus ENTRY --depth 2 "
    "(the entries near one), or write the DOT text with -o NAME.dot and lay it out yourself"
)


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
        json_out = options.fmt == "json"
        record = graph_data(analysis) if json_out else {"id": analysis.graph.storybook.id}
        out.data["storybooks"].append(record)
        out.texts.append(_summary(analysis))
        if options.witness:
            found = witnesses(analysis)
            record["witnesses"] = [render_witness(w) for w in found]
            out.texts += [render_witness(w) for w in found] or [
                "no witness paths: no ending can be reached"
            ]
            if options.witness_dir is not None:
                for witness in found:
                    name, text = fixture_skeleton(witness, analysis, folder=options.witness_dir)
                    if _write_fixture(options.witness_dir / name, text, out.messages):
                        out.written.append(options.witness_dir / name)
    if options.output is not None and analyses:
        try:
            written_path, message = _draw(analyses[0], options)
        except graphviz.RenderError as problem:
            # The analysis is still worth reading; say how to get a picture.
            out.not_drawn = True
            out.messages.append(f"{problem}. {_DRAW_A_PART}")
        else:
            out.written.append(written_path)
            out.messages += [message] if message else []
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


def _draw(analysis: Analysis, options: GraphOptions) -> tuple[Path, str | None]:
    output = options.output
    assert output is not None
    suffix = output.suffix.lower()
    if suffix not in DRAWING_SUFFIXES:
        raise UsageError(f"cannot draw to '{output}': name the file .svg, .png or .dot")
    if options.focus is not None and options.focus not in analysis.graph.entries:
        raise UsageError(f"--focus {options.focus}: the storybook has no entry {options.focus}")
    if options.ending is not None and options.ending not in analysis.graph.storybook.endings:
        raise UsageError(f"--ending {options.ending}: choose one of {', '.join(ENDINGS)}")
    drawing = draw(analysis, focus=options.focus, depth=options.depth, ending=options.ending)
    dot = None if suffix == ".dot" else graphviz.find_dot()
    if dot is not None:
        reason = graphviz.too_large(drawing.nodes, drawing.edges)
        if reason is not None:
            raise graphviz.RenderError(reason)
    if dot is None:
        # DOT asked for, or no Graphviz: the DOT text, whatever its size.
        written = output if suffix == ".dot" else output.with_suffix(".dot")
        write_report(written, drawing.text)
        if suffix == ".dot":
            return written, None
        return written, graphviz.INSTALL_HINT.format(
            dot=written.as_posix(), svg=output.with_suffix(".svg").as_posix()
        )
    check_report_path(output)  # refuse before the renderer runs
    write_report(output, graphviz.render(drawing.text, suffix[1:], dot))
    return output, None


def _write_fixture(path: Path, text: str, messages: list[str]) -> bool:
    """A new fixture skeleton; one already there may hold the author's edits and is kept."""
    try:
        create_file(path, text)
    except AlreadyExists:
        if path.read_text(encoding="utf-8", errors="replace") == text:
            return True
        messages.append(f"{path.as_posix()} already exists and was left as it is")
        return False
    return True

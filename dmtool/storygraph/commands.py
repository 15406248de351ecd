"""`dmtool graph` and `dmtool odds` as plain functions: frozen options in, data and rendered
text out. They never print or exit; bad flags raise UsageError (the CLI's exit code 2)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.diagnostics import Diagnostic, Report, Severity
from dmtool.errors import UsageError
from dmtool.model.storybook import ENDINGS, Storybook
from dmtool.storygraph import render as graphviz
from dmtool.storygraph.analysis import Analysis, analyse
from dmtool.storygraph.conditions import PREMISE
from dmtool.storygraph.context import context_for
from dmtool.storygraph.loader import load_storybooks
from dmtool.writing import AlreadyExists, check_report_path, create_file, write_report

DRAWING_SUFFIXES = (".svg", ".png", ".dot")
_DRAW_A_PART = (
    "Draw a part of it instead: --ending A (one ending's finale) or --focus ENTRY --depth 2 "
    "(the entries near one), or write the DOT text with -o NAME.dot and lay it out yourself"
)


@dataclass(frozen=True, kw_only=True)
class GraphOptions:
    paths: tuple[Path, ...]
    output: Path | None = None  # .svg, .png or .dot
    fmt: str = "text"  # text | json
    witness: bool = False
    witness_dir: Path | None = None  # write a scenario skeleton per witness here
    focus: int | None = None
    depth: int = 2
    ending: str | None = None


@dataclass(frozen=True)
class GraphResult:
    text: str
    data: dict[str, Any]
    diagnostics: tuple[Diagnostic, ...]
    written: tuple[Path, ...] = ()
    messages: tuple[str, ...] = ()  # for standard error, e.g. how to get SVG without Graphviz
    exit_code: int = 0


def analyses_of(paths: tuple[Path, ...]) -> tuple[list[Analysis], list[Diagnostic]]:
    corpus, storybooks, problems = load_storybooks(paths)
    if not storybooks and not problems:
        shown = ", ".join(p.as_posix() for p in paths)
        raise UsageError(
            f"no storybook found in {shown}; give a storybook.yaml file or a folder holding one"
        )
    analyses = []
    for document in storybooks:
        storybook = Storybook.from_document(document)
        analyses.append(analyse(storybook, context_for(corpus, storybook.wanderer)))
    return analyses, problems


def run_graph(options: GraphOptions) -> GraphResult:
    from dmtool.reporters import render as render_report
    from dmtool.storygraph.fixtures import fixture_skeleton
    from dmtool.storygraph.jsonout import graph_data
    from dmtool.storygraph.witness import render_witness, witnesses

    if options.fmt not in ("text", "json"):
        raise UsageError(f"unknown format {options.fmt!r}; choose text or json")
    if options.output is None and (options.focus is not None or options.ending is not None):
        raise UsageError("--focus, --depth and --ending choose what -o draws; add -o FILE.svg")
    analyses, problems = analyses_of(options.paths)
    if options.output is not None and len(analyses) > 1:
        raise UsageError("-o draws one storybook; give the path of a single storybook.yaml")
    diagnostics = list(problems) + [d for a in analyses for d in a.diagnostics]
    written: list[Path] = []
    messages: list[str] = []
    data: dict[str, Any] = {"storybooks": []}
    texts: list[str] = []
    for analysis in analyses:
        data["storybooks"].append(graph_data(analysis))
        texts.append(_summary(analysis))
        if options.witness:
            found = witnesses(analysis)
            data["storybooks"][-1]["witnesses"] = [render_witness(w) for w in found]
            texts += [render_witness(w) for w in found] or [
                "no witness paths: no ending can be reached"
            ]
            if options.witness_dir is not None:
                for witness in found:
                    name, text = fixture_skeleton(witness, analysis, folder=options.witness_dir)
                    if _write_fixture(options.witness_dir / name, text, messages):
                        written.append(options.witness_dir / name)
    not_drawn = False
    if options.output is not None and analyses:
        try:
            written_path, message = _draw(analyses[0], options)
        except graphviz.RenderError as problem:
            # The analysis is still worth reading; say how to get a picture.
            not_drawn = True
            messages.append(f"{problem}. {_DRAW_A_PART}")
        else:
            written.append(written_path)
            messages += [message] if message else []
    report = Report(diagnostics=diagnostics, files_checked=len(analyses))
    texts.append(render_report(report, fmt="text", color=False, tool_version=__version__).rstrip())
    texts += [f"wrote {p.as_posix()}" for p in written]
    data["findings"] = len(diagnostics)
    errors = any(d.severity is Severity.ERROR for d in diagnostics)
    text = (
        json.dumps(data, indent=2, ensure_ascii=True)
        if options.fmt == "json"
        else "\n".join(t for t in texts if t)
    )
    exit_code = 2 if not_drawn else 1 if errors else 0
    return GraphResult(
        text + "\n", data, tuple(diagnostics), tuple(written), tuple(messages), exit_code
    )


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
    from dmtool.storygraph.dot import draw

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

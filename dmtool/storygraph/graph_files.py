"""What `dmtool graph` adds to the summaries on request: witness paths and the fixture
skeletons written from them, and the drawing (with Graphviz when it can finish). Imported
only when asked for (graph_output.py): the DOT writer, Graphviz's runner and the file
writer are a tenth of what a plain `dmtool graph` of the bench corpus costs to import."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dmtool.errors import UsageError
from dmtool.model.storybook import ENDINGS
from dmtool.storygraph import render as graphviz
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.dot import draw
from dmtool.storygraph.fixtures import fixture_skeleton
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
class Written:
    """What was printed or written besides the summaries, and what to tell on stderr."""

    texts: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    not_drawn: bool = False


def witness_output(analysis: Analysis, folder: Path | None) -> tuple[list[str], Written]:
    """The storybook's witnesses rendered, printed (or why there are none) and, with a
    folder, written there as fixture skeletons."""
    found = witnesses(analysis)
    rendered = [render_witness(w) for w in found]
    done = Written(texts=rendered or ["no witness paths: no ending can be reached"])
    if folder is not None:
        for witness in found:
            name, text = fixture_skeleton(witness, analysis, folder=folder)
            if _write_fixture(folder / name, text, done.messages):
                done.written.append(folder / name)
    return rendered, done


def drawing_output(analysis: Analysis, options: GraphOptions) -> Written:
    """The drawing asked for with -o, or why it was not laid out and what to do instead."""
    try:
        written_path, message = _draw(analysis, options)
    except graphviz.RenderError as problem:
        # The analysis is still worth reading; say how to get a picture.
        return Written(messages=[f"{problem}. {_DRAW_A_PART}"], not_drawn=True)
    return Written(written=[written_path], messages=[message] if message else [])
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

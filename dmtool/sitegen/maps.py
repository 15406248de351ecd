"""Branch pictures: each storybook whole and each of its endings drawn by Graphviz at build
time, every entry a link to its place in the storybook's page.

The drawings come from storygraph's DOT (its escaping, its large-graph decision); the site
only adds the links. Without `dot` the map page says how to get the pictures.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from dmtool.model.storybook import ENDINGS
from dmtool.sitegen.links import Links
from dmtool.sitegen.markdown import plain, table
from dmtool.sitegen.pages import Page
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Root
from dmtool.storygraph.context import Place
from dmtool.storygraph.dot import KIND_STYLE, Linker, draw
from dmtool.storygraph.render import INSTALL_HINT, RenderError, find_dot, render, too_large

NO_DOT = ("The branch pictures are drawn by Graphviz's `dot` while the site is built, and `dot` "
          "was not found on the machine that built this site. Install Graphviz (for example "
          "`apt-get install graphviz` or `brew install graphviz`) and run `dmtool site` again; "
          "`make site` and `make test` install it where they may.")


def legend() -> str:
    """Two keys, each its own table: what a shape and its fill say about an entry, and
    what an outline or an arrow's style says. Swatches take their colours from the
    stylesheet (`dmtool-fill-<kind>`), which tests/test_site_maps.py holds to KIND_STYLE."""
    shapes = {"box": "box", "ellipse": "ellipse", "hexagon": "hexagon", "octagon": "octagon",
              "doubleoctagon": "double octagon"}
    kinds = {"event": "event (read in the event phase)", "exploration": "exploration",
             "reality_shard": "reality shard", "finale": "finale", "conclusion": "conclusion"}
    rows = [[f'<span class="dmtool-swatch dmtool-fill-{kind.replace("_", "-")}"></span>',
             shapes.get(shape, shape), kinds.get(kind, kind), fill]
            for kind, (shape, fill) in KIND_STYLE.items()]
    rows.append(['<span class="dmtool-swatch dmtool-fill-root"></span>', "arrow-shaped tag",
                 "where play enters: a round, a world shard, a card (click it to read the "
                 "card)", "white"])
    marks = [["red outline", "a dead end: a branch that neither goes on nor ends"],
             ["orange outline", "part of a trap: no way out to an end"],
             ["grey fill, dashed outline", "unreachable from any start"],
             ["dashed blue arrow", "spawns an encounter card"],
             ["dotted red arrow", "its condition can never hold"]]
    return "\n\n".join([
        "**Entries: shape and fill**",
        table(["Fill", "Shape", "Entry", "Colour"], rows),
        "**Outlines and arrows**",
        table(["Drawn as", "Means"], marks),
    ])


@dataclass(frozen=True)
class Picture:
    """One picture to draw: where its SVG goes in the docs folder and its DOT."""

    path: str
    dot: str
    size: tuple[int, int]  # nodes, edges


def pictures(analysis: Analysis, folder: str, book_id: str, book_page: str,
             links: Links | None = None) -> list[Picture]:
    """The whole storybook and each ending with a finale, nodes linking to `book_page`, and
    (given the map page's `links`) the round trackers, shards and cards to their pages."""
    link = posixpath.basename(book_page).removesuffix(".md") + ".html"

    def url(number: int) -> str:
        return f"{link}#entry-{number}"

    def source(root: Root) -> str | None:
        if links is None:
            return None
        if root.kind in ("round", "event"):
            found = links.to("round-trackers", "round")
        else:
            document = root.location.document if isinstance(root.location, Place) else None
            data = getattr(document, "data", None)  # a card's or shard's document
            data = data if isinstance(data, dict) else {}
            found = links.to(str(data.get("kind")), data.get("id")) if data.get("id") else None
        if found is None:
            return None
        path, hash_, anchor = found.partition("#")  # a picture's links are not MkDocs'
        return path.removesuffix(".md") + (".html" if path.endswith(".md") else "") + hash_ + anchor

    out = [_drawing(analysis, f"{folder}/maps/{book_id}-all.svg", url, None, source)]
    for letter in ENDINGS:
        if analysis.solution.finale.get(letter):
            out.append(_drawing(analysis, f"{folder}/maps/{book_id}-ending-{letter.lower()}.svg",
                                url, letter, source))
    return out


def _drawing(analysis: Analysis, path: str, url: Linker, ending: str | None,
             source: Callable[[Root], str | None]) -> Picture:
    drawn = draw(analysis, ending=ending, link=url, name=path.rsplit("/", 1)[-1][:-4],
                 legend=False, root_link=source)
    return Picture(path, drawn.text, (drawn.nodes, drawn.edges))


def draw_all(found: list[Picture]) -> tuple[list[Page], dict[str, str]]:
    """SVG pages for the drawings dot could make, and for the others why not."""
    dot = find_dot()
    if dot is None:
        return [], {d.path: NO_DOT for d in found}
    problems: dict[str, str] = {}
    todo = []
    for drawing in found:
        reason = too_large(*drawing.size)
        if reason is None:
            todo.append(drawing)
        else:
            problems[drawing.path] = f"This picture was not drawn: {reason}."

    def one(drawing: Picture) -> tuple[Picture, bytes | str]:
        try:
            return drawing, render(drawing.dot, "svg", dot)
        except RenderError as error:
            return drawing, str(error)

    pages = []
    with ThreadPoolExecutor(max_workers=2) as pool:  # dot runs as its own process
        for drawing, result in pool.map(one, todo):
            if isinstance(result, str):
                problems[drawing.path] = f"This picture could not be drawn: {result}."
            else:
                pages.append(Page(drawing.path, result.decode("utf-8")))
    return pages, problems


def map_page(title: str, book_page: str, found: list[Picture], problems: dict[str, str]) -> str:
    """The page holding the pictures: the whole storybook (pan and zoom), then each ending."""
    blocks = ["---\nhide:\n  - navigation\n  - toc\nsearch:\n  exclude: true\n---", f"# Map of {plain(title)}",
              f"Every shape is an entry of [{plain(title)}]({posixpath.basename(book_page)}): "
              "click one to read it. Arrows are the ways on, labelled with what leads there "
              "(a test's outcome, a choice, a condition, points gained). "
              "Drag to move the large map; use the mouse wheel or its buttons to zoom.",
              legend()]
    for drawing in found:
        name = drawing.path.rsplit("/", 1)[-1][:-4]
        letter = name.rsplit("-", 1)[-1].upper() if "-ending-" in name else None
        anchor = f"map-ending-{letter.lower()}" if letter else "map-all"
        blocks.append(f"## {'Ending ' + letter if letter else 'The whole storybook'} "
                      f"{{#{anchor}}}")
        if letter:
            blocks.append(f"The finale of [ending {letter}]"
                          f"({posixpath.basename(book_page)}#ending-{letter.lower()}): how it "
                          "starts and how each conclusion is reached.")
        if drawing.path in problems:
            problem = problems[drawing.path]
            # Our own advice keeps its Markdown; anything Graphviz said is shown as text.
            words = problem if problem == NO_DOT else plain(problem)
            blocks.append('!!! warning "No picture"\n    ' + words)
        else:
            extra = "" if letter else " pan-zoom"
            blocks.append(f'<div class="dmtool-graph{extra}" data-graph="{drawing.path}"></div>')
    return "\n\n".join(blocks) + "\n"


__all__ = ["INSTALL_HINT", "NO_DOT", "Picture", "draw_all", "legend", "map_page", "pictures"]

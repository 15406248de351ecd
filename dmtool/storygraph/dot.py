"""Drawing a storybook graph as Graphviz DOT: clusters, shapes by entry kind, labelled edges,
problems highlighted, a legend.

Authored text never reaches DOT unescaped: every label (and any tooltip or URL a later
drawing adds) goes through `quote`, which writes a double-quoted string with backslashes,
quotes and ampersands escaped and every character XML cannot hold removed, so it cannot
close the string, start an HTML-like label, smuggle in a Graphviz escape such as \\N or
\\l, or an entity such as &#1; that Graphviz would copy into the SVG as a raw control
character. Node ids are generated, never authored.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from typing import NamedTuple

from dmtool.model.describe.text import shorten_words, wrap_words
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Arc, Node, Root
from dmtool.storygraph.reach import open_arcs
from dmtool.storygraph.witness import describe_step

KIND_STYLE = {
    "event": ("box", "#dbe9f6"),
    "exploration": ("ellipse", "#e3f1e3"),
    "reality_shard": ("hexagon", "#efe2f5"),
    "finale": ("octagon", "#fff2c2"),
    "conclusion": ("doubleoctagon", "#fbd9bd"),
}
PROBLEM_STYLE = {
    "dead-end": 'color="#c62828", penwidth=2.5',
    "trap": 'color="#ef6c00", penwidth=2.5',
    "unreachable": 'style="filled,dashed", fillcolor="#eeeeee", fontcolor="#777777"',
}
EDGE_STYLE = {
    "spawns": 'style=dashed, color="#1565c0", fontcolor="#1565c0"',
    "never": 'style=dotted, color="#c62828", fontcolor="#c62828"',
}
EDGE_WIDTH = 30  # characters per line of an edge label
Linker = Callable[[int], str]  # entry number -> the address its node links to
GROUP_TITLES = {"stage": "Round events", "shard": "World shards", "card": "Encounter cards"}
# Controls (C0, DEL, C1) and line separators read as spaces; what XML 1.0 cannot hold at
# all (surrogates, U+FFFE, U+FFFF) is dropped.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NOT_TEXT = re.compile(r"[\ud800-\udfff\ufffe\uffff]")


def quote(text: str, *, limit: int = 60) -> str:
    """A DOT double-quoted string holding `text` literally (shortened to `limit`).

    The one function every label, tooltip and URL passes through: `&` becomes `&amp;`
    (Graphviz expands entities in labels, so `&amp;` would be drawn as `&` and `&#1;` as a
    raw control character no XML parser accepts), backslashes and quotes are escaped.
    """
    text = _CONTROL.sub(" ", _NOT_TEXT.sub("", str(text))).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    text = text.replace("&", "&amp;").replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text + '"'


def lines(*parts: str, limit: int = 28) -> str:
    """Several escaped lines in one quoted label (our own line breaks only)."""
    return '"' + "\\n".join(quote(p, limit=limit)[1:-1] for p in parts if p) + '"'


def _nid(node: Node) -> str:
    return f"e{node}" if isinstance(node, int) else "b_" + re.sub(r"[^A-Za-z0-9]", "_", node)


def select(
    analysis: Analysis, *, focus: int | None = None, depth: int = 2, ending: str | None = None
) -> set[Node]:
    """The nodes to draw: everything, a neighbourhood of `focus`, or one ending's finale."""
    graph = analysis.graph
    if ending is not None:
        return set(analysis.solution.finale.get(ending, ()))
    nodes: set[Node] = set(graph.entries)
    if focus is None:
        return nodes | {n for n in graph.arcs if not isinstance(n, int) and _links(analysis, n)}
    near: dict[Node, list[Node]] = {}
    for node, target, _, _ in _edges(analysis, graph.arcs):
        near.setdefault(node, []).append(target)
        near.setdefault(target, []).append(node)
    seen = {focus: 0}
    queue = deque([focus])
    while queue:
        node = queue.popleft()
        if seen[node] < depth:
            for other in near.get(node, ()):
                if other not in seen:
                    seen[other] = seen[node] + 1
                    queue.append(other)
    return set(seen)


def _links(analysis: Analysis, node: Node) -> bool:
    return any(a.goto is not None or a.enables for a in analysis.graph.arcs.get(node, ()))


def _edges(analysis: Analysis, nodes: Iterable[Node]) -> list[tuple[Node, int, str, str]]:
    """(source, target, label, style) for links, duplicates merged; style is goto, spawns,
    or never (a side whose condition can never hold)."""
    out: dict[tuple[Node, int, str, str], None] = {}
    facts = analysis.solution.facts
    for node in nodes:
        possible = {id(a) for a in open_arcs(analysis.graph, node, facts)}
        for arc in analysis.graph.arcs.get(node, ()):
            style = "goto" if id(arc) in possible else "never"
            if arc.goto is not None:
                out[(node, arc.goto, edge_label(arc), style)] = None
            for target in arc.enables:
                out[(node, target, "spawns", "spawns" if style == "goto" else style)] = None
    return list(out)


def edge_label(arc: Arc) -> str:
    """What the reader decided or rolled to follow this link: option labels cut short so the
    test outcomes and points after them stay visible."""
    parts = []
    for step in arc.branch.steps:
        if step.kind == "option":
            parts.append(shorten_words(step.label, 24))
        elif step.kind in ("pass", "fail", "take", "skip"):
            parts.append({"take": "may: yes", "skip": "may: no"}.get(step.kind, step.kind))
        else:
            parts.append(describe_step(step))
    for gain in arc.scores:
        parts += [f"{'+' if g > 0 else ''}{g} {e}" for e, g in zip("ABCD", gain) if g]
    return ", ".join(parts)


def _owners(analysis: Analysis) -> dict[Node, str]:
    """Which cluster draws each node: the first group of roots (in drawing order) to reach it."""
    graph = analysis.graph
    groups: list[tuple[str, list[Root]]] = [
        ("stage", [r for r in graph.stage_roots if r.kind in ("setup", "round", "event")]),
        ("shard", [r for r in graph.stage_roots if r.kind == "shard"]),
        ("card", [r for r in graph.stage_roots if r.kind == "card"]),
    ] + [(f"ending {letter}", roots) for letter, roots in graph.finale_roots.items()]
    owner: dict[Node, str] = {}
    for name, roots in groups:
        queue = deque(r.node for r in roots if r.node not in owner)
        for node in queue:
            owner[node] = name
        while queue:
            node = queue.popleft()
            for arc in open_arcs(graph, node, analysis.solution.facts):
                targets = ([arc.goto] if arc.goto is not None else []) + list(arc.enables)
                for target in targets:
                    if target not in owner:
                        owner[target] = name
                        queue.append(target)
    return owner


class Drawing(NamedTuple):
    """DOT text and how many nodes and edges Graphviz would lay out (the legend aside)."""

    text: str
    nodes: int
    edges: int


def to_dot(
    analysis: Analysis, *, focus: int | None = None, depth: int = 2, ending: str | None = None,
    link: Linker | None = None, name: str | None = None, legend: bool = True
) -> str:
    return draw(analysis, focus=focus, depth=depth, ending=ending, link=link, name=name,
                legend=legend).text


def draw(
    analysis: Analysis, *, focus: int | None = None, depth: int = 2, ending: str | None = None,
    link: Linker | None = None, name: str | None = None, legend: bool = True,
    root_link: Callable[[Root], str | None] | None = None
) -> Drawing:
    """The DOT of the whole storybook, a neighbourhood of `focus`, or one ending's finale.

    With `link`, every entry's node links to the address it gives (the site's pictures);
    `name` prefixes the SVG's element ids, so several pictures can share one page; a page
    that explains the shapes itself draws without the `legend`."""
    graph = analysis.graph
    storybook = graph.storybook
    chosen = select(analysis, focus=focus, depth=depth, ending=ending)
    owner = _owners(analysis)
    problems = analysis.problems
    out = [
        # The root graph's name is the SVG's <title>: the picture's own name when it has one.
        f"digraph {quote(name) if name else 'storybook'} {{",
        f"  graph [label={quote(f'{storybook.title or storybook.id} ({storybook.id})', limit=80)}, "
        'labelloc=t, fontsize=18, fontname="Helvetica", rankdir=LR, newrank=true, '
        "nodesep=0.25, ranksep=0.45, compound=true"
        + (f", id={quote(name)}" if name else "") + "];",
        '  node [fontname="Helvetica", fontsize=10, style=filled, margin="0.08,0.04"];',
        '  edge [fontname="Helvetica", fontsize=8, color="#555555", arrowsize=0.6];',
    ]
    clusters: dict[str, list[str]] = {}
    for node in sorted(
        chosen, key=lambda n: (isinstance(n, str), str(n) if isinstance(n, str) else n)
    ):
        clusters.setdefault(owner.get(node, "unreachable"), []).append(
            _node_line(analysis, node, link))
    root_edges: list[str] = []
    for index, root in enumerate(_drawn_roots(analysis, chosen)):
        url = root_link(root) if root_link is not None else None
        target = (f", URL={quote(url, limit=500)}, target=\"_top\", "
                  f"tooltip={quote(f'Read {root.label}', limit=80)}") if url else ""
        clusters.setdefault(owner.get(root.node, "unreachable"), []).append(
            f"r{index} [label={quote(root.label, limit=30)}, shape=cds, "
            f'fillcolor="#ffffff", fontsize=9{target}];'
        )
        root_edges.append(f'  r{index} -> {_nid(root.node)} [color="#9e9e9e"];')
    # Graphviz stacks left-to-right clusters upwards, so the last one written is drawn on
    # top: write them in reverse to read round events first, endings and problems last.
    ordered = sorted(clusters.items(), key=lambda kv: _order(kv[0]), reverse=True)
    for index, (group, members) in enumerate(ordered):
        title = GROUP_TITLES.get(group, group[0].upper() + group[1:])
        colour = "#c62828" if group == "unreachable" else "#9e9e9e"
        out.append(f"  subgraph cluster_{index} {{")
        if name is not None:  # else the cluster inherits the graph's id: ids must be unique
            out.append(f"    id={quote(f'{name}_cluster_{index}')};")
        out.append(
            f'    label={quote(title)}; style="rounded,dashed"; color="{colour}"; fontsize=12;'
        )
        out += [f"    {line}" for line in members]
        out.append("  }")
    out += root_edges
    nodes, edges = len(chosen) + len(root_edges), len(root_edges)
    # In the graph's own order, not the set's: a set of names iterates in an order that
    # changes with every process (string hashing), and the drawing must not.
    for source, target, label, style in _edges(analysis, [n for n in graph.arcs if n in chosen]):
        if target not in chosen:
            continue
        # Broken between words onto short lines, never cut inside a word or a condition.
        attrs = [f"label={lines(*wrap_words(label, EDGE_WIDTH), limit=1000)}"] if label else []
        attrs += [EDGE_STYLE[style]] if style in EDGE_STYLE else []
        out.append(f"  {_nid(source)} -> {_nid(target)} [{', '.join(attrs)}];")
        edges += 1
    for node in sorted(n for n in chosen if isinstance(n, int) and n in problems.get("broken", ())):
        for arc in graph.arcs[node]:
            if arc.broken is not None:
                missing = f"missing_{node}_{arc.index}"
                nodes, edges = nodes + 1, edges + 1
                out.append(
                    f"  {missing} [label={quote(f'missing entry {arc.broken}')}, shape=plaintext, "
                    'style="", fontcolor="#c62828"];'
                )
                out.append(f'  e{node} -> {missing} [color="#c62828", style=dashed];')
    if legend:
        out += _legend()
    out.append("}")
    return Drawing("\n".join(out) + "\n", nodes, edges)


def _order(name: str) -> tuple[int, str]:
    ranks = {"stage": 0, "shard": 1, "card": 2, "unreachable": 9}
    return ranks.get(name, 5), name


def _node_line(analysis: Analysis, node: Node, link: Linker | None = None) -> str:
    graph = analysis.graph
    if not isinstance(node, int):
        label = quote(node.replace(":", " "))
        return f'{_nid(node)} [label={label}, shape=note, fillcolor="#f5f5f5"];'
    entry = graph.entries[node]
    shape, fill = KIND_STYLE.get(entry.kind, ("ellipse", "#ffffff"))
    exits = sorted(
        {
            f"{a.kind.replace('_', ' ')} {a.branch.exit.value}"
            for a in graph.arcs[node]
            if a.branch.exit.is_terminal
        }
    )
    label = lines(f"{node} {entry.title}", *exits[:2])
    attrs = [f"label={label}", f"shape={shape}", f'fillcolor="{fill}"']
    if link is not None:
        attrs += [f"URL={quote(link(node), limit=500)}", 'target="_top"',
                  f"tooltip={quote(f'Read entry {node}: {entry.title}')}"]
    attrs += [
        PROBLEM_STYLE[p]
        for p in ("unreachable", "trap", "dead-end")
        if node in analysis.problems.get(p, ())
    ]
    return f"{_nid(node)} [{', '.join(attrs)}];"


def _drawn_roots(analysis: Analysis, chosen: set[Node]) -> list[Root]:
    """Root markers (round trackers, shards, cards, ending starts) of the drawn entries."""
    roots = list(analysis.graph.stage_roots)
    for letter_roots in analysis.graph.finale_roots.values():
        roots += [r for r in letter_roots if r.kind in ("start", "finale-shard", "finale-card")]
    return [r for r in roots if isinstance(r.node, int) and r.node in chosen]


def _legend() -> list[str]:
    out = [
        "  subgraph cluster_legend {",
        '    label="Legend"; style=rounded; color="#bdbdbd"; fontsize=12;',
    ]
    previous = None
    for kind, (shape, fill) in KIND_STYLE.items():
        out.append(
            f"    legend_{kind} [label={quote(kind.replace('_', ' '))}, shape={shape}, "
            f'fillcolor="{fill}"];'
        )
    for problem, style in PROBLEM_STYLE.items():
        out.append(
            f"    legend_{problem.replace('-', '_')} [label={quote(problem)}, shape=box, "
            f'fillcolor="#ffffff", {style}];'
        )
    names = [f"legend_{k}" for k in KIND_STYLE] + [
        f"legend_{p.replace('-', '_')}" for p in PROBLEM_STYLE
    ]
    for name in names:
        if previous is not None:
            out.append(f"    {previous} -> {name} [style=invis];")
        previous = name
    for style, text in (("spawns", "spawns a card"), ("never", "condition never holds")):
        out.append(f'    legend_{style}_a [label="", shape=point, width=0.06];')
        out.append(f'    legend_{style}_b [label="", shape=point, width=0.06];')
        out.append(
            f"    legend_{style}_a -> legend_{style}_b [label={quote(text)}, {EDGE_STYLE[style]}];"
        )
    out.append("  }")
    return out

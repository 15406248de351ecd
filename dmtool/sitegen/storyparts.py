"""Parts of a storybook page read from the graph analysis: which entries lead to an entry,
where play enters the storybook, the findings and the score bounds, all in words."""

from __future__ import annotations

from typing import Any

from dmtool.sitegen.links import Links
from dmtool.sitegen.markdown import plain, table
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import Node
from dmtool.storygraph.context import Place, Source
from dmtool.storygraph.scores import INF

KINDS = {"event": "Event entry", "exploration": "Exploration entry",
         "reality_shard": "Reality shard entry", "finale": "Finale entry",
         "conclusion": "Conclusion"}
BLOCKS = {"setup": ("the storybook setup", "#setup")}


def entry_kind(kind: str) -> str:
    return KINDS.get(kind, plain(kind.replace("_", " ").capitalize()) or "Entry")


def predecessors(analysis: Analysis) -> dict[int, list[tuple[Node, str]]]:
    """For each entry, the nodes that lead to it and how: 'goto' or 'spawns'."""
    found: dict[int, dict[tuple[Node, str], None]] = {}
    for node, arcs in analysis.graph.arcs.items():
        for arc in arcs:
            if arc.goto is not None:
                found.setdefault(arc.goto, {})[(node, "goto")] = None
            for target in arc.enables:
                found.setdefault(target, {})[(node, "spawns")] = None
    return {k: list(v) for k, v in found.items()}


def _node_link(node: Node) -> str:
    if isinstance(node, int):
        return f"[entry {node}](#entry-{node})"
    if node in BLOCKS:
        words, anchor = BLOCKS[node]
        return f"[{words}]({anchor})"
    letter, _, part = str(node).partition(":")
    what = "setup" if part == "setup" else "event phase"
    return f"[ending {plain(letter)}'s {what}](#ending-{letter.lower()})"


def reached_from(number: int, preds: dict[int, list[tuple[Node, str]]], analysis: Analysis,
                 links: Links) -> str:
    """'entry 6, entry 12 (spawns its card), round 3's tracker' as Markdown with links."""
    parts = [_node_link(node) + (" (spawns its card)" if how == "spawns" else "")
             for node, how in sorted(preds.get(number, []), key=lambda p: _order(p[0]))]
    context = analysis.graph.context
    for source in (*(context.rounds or ()), *context.shards, *context.cards, *context.finale):
        if source.entry == number:
            parts.append(source_words(source, links))
    for letter, ending in analysis.graph.storybook.endings.items():
        if ending.start == number:
            parts.append(f"[the start of ending {letter}'s finale](#ending-{letter.lower()})")
    return ", ".join(parts)


def _order(node: Node) -> tuple[int, Any]:
    return (0, node) if isinstance(node, int) else (1, str(node))


def source_words(source: Source, links: Links) -> str:
    """A round tracker, world shard or encounter card as words with a link to it."""
    document = source.location.document if isinstance(source.location, Place) else None
    data = document.data if document is not None and isinstance(document.data, dict) else {}
    if source.kind == "round":
        url = links.to("round-trackers", "round")
        words = f"the {plain(source.label)} tracker"
        return f"[{words}]({url})" if url else words
    kind = data.get("kind", "")
    title = plain(data.get("title") or data.get("name") or data.get("id") or source.label)
    url = links.to(str(kind), data.get("id")) if data.get("id") else None
    if source.kind in ("shard", "finale-shard"):
        words = f"world shard {plain(data.get('number', ''))}, {title}"
        if source.kind == "finale-shard":
            words += f" (finale of ending {plain(source.ending or '?')})"
    else:
        words = f"the encounter card {title}"
        if source.spawned:
            words += " (it spawns itself)"
    return f"[{words}]({url})" if url else words


def where_play_enters(analysis: Analysis, links: Links) -> str:
    context = analysis.graph.context
    rows = []
    for source in (*(context.rounds or ()), *context.shards, *context.cards, *context.finale):
        if source.entry in analysis.graph.storybook.entries:
            title = analysis.graph.storybook.entries[source.entry].title
            rows.append([source_words(source, links),
                         f"[{source.entry} · {plain(title)}](#entry-{source.entry})"])
    if not rows:
        return "No round tracker, world shard or encounter card names an entry of this storybook."
    return table(["Where", "Read entry"], rows)


def findings(analysis: Analysis, links: Links) -> list[str]:
    found = sorted(analysis.diagnostics, key=lambda d: d.sort_key())
    if not found:
        return ["The story graph has no broken links, dead ends, unreachable entries or endings, "
                "traps or orphan cards: every entry can be reached and every branch goes on or "
                "ends."]
    lines = []
    for d in found:
        url = links.to("diagnostic", d.code)
        code = f"[{d.code}]({url})" if url else d.code
        lines.append(f"- {code} ({d.severity.value}, line {d.location.line}): {plain(d.message)}")
    return [f"{len(found)} finding{'s' if len(found) != 1 else ''}, the same as "
            "`dmtool check` reports:", "\n".join(lines)]


def score_bounds(analysis: Analysis) -> list[str]:
    lines = []
    for letter, bounds in analysis.scores.bounds.items():
        walk = (f"between {_num(bounds.walk_min)} and {_num(bounds.walk_max)} points"
                if bounds.walk_min != bounds.walk_max else f"exactly {_num(bounds.walk_min)} points")
        game = ("no upper limit" if bounds.game_max == INF
                else f"at most {_num(bounds.game_max)} points")
        lines.append(f"- **[Ending {letter}](#ending-{letter.lower()})**: one walk through the "
                     f"story gives it {walk}; a whole game, each encounter resolved as often as the rules "
                     f"allow, gives it "
                     f"{game}.")
    return ["\n".join(lines)] if lines else ["No ending gets points from this storybook."]


def _num(value: float) -> str:
    return "unlimited" if value == INF else str(int(value))

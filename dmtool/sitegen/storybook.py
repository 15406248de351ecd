"""A storybook as a gamebook: the setup, where play enters, the endings, what the analysis
found, then every entry under its number with its effects in words, every target a link and
the entries that lead to it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dmtool.model.describe import describe_condition, describe_effects
from dmtool.model.describe.words import Names
from dmtool.model.storybook import ENDINGS, Storybook
from dmtool.sitegen.links import Links
from dmtool.sitegen.markdown import link_entries, plain, prose, table
from dmtool.sitegen.storyparts import (
    entry_kind,
    findings,
    predecessors,
    reached_from,
    score_bounds,
    where_play_enters,
)
from dmtool.sitegen.words import Writer
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.dice import COLOURS, pass_probability


def entry_anchor(number: int) -> str:
    return f"entry-{number}"


def ending_anchor(letter: str) -> str:
    return f"ending-{letter.lower()}"


def local_targets(page: str, book: Storybook) -> dict[tuple[str, str], str]:
    """The storybook's own entries and endings, for links from any page of its wanderer."""
    targets = {("entry", str(n)): f"{page}#{entry_anchor(n)}" for n in book.entries}
    targets |= {("ending", e): f"{page}#{ending_anchor(e)}" for e in ENDINGS}
    return targets


def told(text: Any, links: Links) -> str:
    """Authored prose with "entry N" a link wherever N is an entry this page can link to."""
    return link_entries(prose(text), lambda number: links.to("entry", number))


def odds_note(sentience: Mapping[str, int], who: str):  # type: ignore[no-untyped-def]
    """A test's exact pass chance at the wanderer's starting sentience, after its words."""
    def note(effect: Any) -> str:
        test = effect.get("test") if isinstance(effect, Mapping) else None
        if not isinstance(test, Mapping) or not isinstance(test.get("roll"), Mapping):
            return ""
        chance = pass_probability(test["roll"], sentience)
        return f" *(pass chance {chance_words(chance)} with {plain(who)}'s starting sentience)*"
    return note


def chance_words(chance: Fraction) -> str:
    if chance == 1:
        return "certain"
    if chance == 0:
        return "none: this test cannot pass"
    return f"{chance.numerator}/{chance.denominator}, {float(chance):.1%}"


def storybook_page(data: Mapping[str, Any], analysis: Analysis, *, links: Links, names: Names,
                   wanderer_name: str, map_page: str | None,
                   reader_page: str | None = None) -> str:
    book = analysis.graph.storybook
    sentience = dict(analysis.graph.context.sentience or dict.fromkeys(COLOURS, 1))
    writer = Writer(links, note=odds_note(sentience, wanderer_name))
    head = [f"# {plain(book.title or book.id)}",
            f"*The storybook of {plain(wanderer_name)}* · {len(book.entries)} entries"
            + (f" · [map of its branches]({map_page})" if map_page else "")
            + (f" · [read it one entry at a time]({reader_page})" if reader_page else "")]
    if isinstance(data.get("introduction"), str):
        head.append(told(data["introduction"], links))
    head.append(_how_to_read(wanderer_name, sentience))
    blocks = head + _setup(data, analysis, writer, names)
    blocks += _endings(data, analysis, writer, names, map_page)
    blocks += ["## What the analysis found {#findings}", *findings(analysis, links),
               "### Score bounds", *score_bounds(analysis)]
    blocks += _entries(book, analysis, writer, names, map_page)
    return "\n\n".join(blocks) + "\n"


def _how_to_read(wanderer: str, sentience: Mapping[str, int]) -> str:
    values = ", ".join(f"{c} {sentience.get(c, 0)}" for c in COLOURS)
    return "\n".join([
        '!!! info "How to read this storybook"',
        "    Play starts at the [setup](#setup): the round trackers, world shards and encounter "
        "cards listed there send you to entries. Every *go to* is a link, every entry says "
        "which entries lead to it, and every ending says how its finale starts and ends. "
        f"Pass chances are exact, for dice alone, at {plain(wanderer)}'s starting sentience "
        f"({values}).",
    ])


def _setup(data: Mapping[str, Any], analysis: Analysis, writer: Writer,
           names: Names) -> list[str]:
    blocks = ["## Setup {#setup}"]
    setup = data.get("setup")
    if isinstance(setup, Mapping):
        if isinstance(setup.get("text"), str):
            blocks.append(told(setup["text"], writer.links))
        blocks += _effect_list(setup.get("effects"), writer.block(), names)
    blocks += ["**Where play enters the storybook.** Each of these sends a wanderer to an entry:",
               where_play_enters(analysis, writer.links)]
    return blocks


def _effect_list(effects: Any, writer: Writer, names: Names) -> list[str]:
    lines = writer.effects(describe_effects(effects, names))
    return ["\n".join(lines)] if lines else []


def _endings(data: Mapping[str, Any], analysis: Analysis, writer: Writer, names: Names,
             map_page: str | None) -> list[str]:
    blocks = ["## Endings {#endings}",
              "When the wanderer stage is won, the ending with the most points is played; "
              "a tie goes to the earlier letter (A before B before C before D)."]
    for raw in data.get("endings") or []:
        if not isinstance(raw, Mapping) or raw.get("ending") not in ENDINGS:
            continue
        letter = str(raw["ending"])
        blocks.append(f"### Ending {letter}: {plain(raw.get('title', ''))} "
                      f"{{#{ending_anchor(letter)}}}")
        if map_page:
            blocks.append(f"[Map of ending {letter}]({map_page}#map-{ending_anchor(letter)})")
        for key, title in (("setup", "Setup"), ("event_phase", "Each event phase")):
            part = raw.get(key)
            if isinstance(part, Mapping):
                blocks.append(f"**{title}.** " + (told(part["text"], writer.links) if isinstance(
                    part.get("text"), str) else ""))
                blocks += _effect_list(part.get("effects"), writer.block(), names)
        for key, title in (("rules", "Rules"), ("goals", "Goals")):
            if isinstance(raw.get(key), str):
                blocks.append(f"**{title}.** {told(raw[key], writer.links)}")
        bosses = [writer.links.to("final-boss", b) for b in raw.get("final_bosses") or []]
        if raw.get("final_bosses"):
            blocks.append("**Final bosses:** " + ", ".join(
                f"[{plain(names('final-boss', b) or b)}]({url})" if url else plain(b)
                for b, url in zip(raw["final_bosses"], bosses)) + ".")
        if isinstance(raw.get("start"), int):
            start = raw["start"]
            blocks.append(f"**The finale starts at** [entry {start}](#{entry_anchor(start)}).")
        blocks.append(_conclusions(raw, writer, names))
    return blocks


def _conclusions(raw: Mapping[str, Any], writer: Writer, names: Names) -> str:
    rows = []
    for conclusion in raw.get("conclusions") or []:
        if not isinstance(conclusion, Mapping):
            continue
        number = conclusion.get("entry")
        where = f"[{number}](#{entry_anchor(number)})" if isinstance(number, int) else ""
        legacy = conclusion.get("legacy")
        url = writer.links.to("finale-legacy-card", legacy) if legacy else None
        card = plain(names("finale-legacy-card", str(legacy)) or legacy or "")
        rows.append([where, plain(conclusion.get("title", "")), f"[{card}]({url})" if url else card])
    return table(["Entry", "Conclusion", "Finale legacy card"], rows) if rows else ""


def _entries(book: Storybook, analysis: Analysis, writer: Writer, names: Names,
             map_page: str | None = None) -> list[str]:
    blocks = ["## Entries {#entries}"]
    preds = predecessors(analysis)
    for number in sorted(book.entries):
        entry = book.entries[number]
        writer.block()
        blocks.append(f"### {number} · {plain(entry.title)} {{#{entry_anchor(number)}}}")
        meta = [entry_kind(entry.kind)]
        came = reached_from(number, preds, analysis, writer.links)
        meta.append(f"reached from {came}" if came else "no way leads here")
        if map_page:  # raw HTML: the map's script, not an anchor, finds the entry's node
            meta.append(f'<a class="dmtool-on-map" href="{map_page.removesuffix(".md")}.html'
                        f'#map-entry-{number}">show on map</a>')
        blocks.append(" · ".join(meta) + "\n{ .dmtool-entry-meta }")
        if entry.entrance is not None:
            blocks.append("**Entrance:** only if " + writer.phrase(
                describe_condition(entry.entrance, names)) + ".")
        if entry.text:
            blocks.append(told(entry.text, writer.links))
        blocks += _effect_list(entry.effects, writer, names)
    return blocks

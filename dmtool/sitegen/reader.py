"""The reader page of a storybook: the story played one entry at a time in the browser.

The page holds a placeholder that the MkDocs hook (hooks.py) fills with the story as JSON:
the program `dmtool odds --runs` walks (storygraph/reader.py), and for the person reading,
each entry's title and words (its prose and effects, rendered and sanitised here, with
no links: a link would let the reader skip the story), what each encounter is called, and
the endings' titles. assets/dmtool-reader.js plays it; assets/dmtool-reader-ui.js draws it.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

import markdown  # type: ignore[import-untyped]
import nh3

from dmtool.model.describe import describe_effects
from dmtool.model.describe.words import Names
from dmtool.model.storybook import ENDINGS
from dmtool.sitegen.hooks import ATTRIBUTES, TAGS
from dmtool.sitegen.links import Links
from dmtool.sitegen.markdown import plain
from dmtool.sitegen.storybook import odds_note, told
from dmtool.sitegen.words import Writer
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.dice import COLOURS
from dmtool.storygraph.playthrough import PlayOptions
from dmtool.storygraph.program import GAIN_CODA, LOSE_CODA
from dmtool.storygraph.reader import compiled

# The entry's words keep the site's markup but no links (see the module's note).
_TAGS = TAGS - {"a"}


def reader_path(book_page: str) -> str:
    return book_page.removesuffix(".md") + "-reader.md"


def reader_page(title: str, wanderer: str, book_page: str, map_page: str | None,
                data_path: str) -> str:
    """The page's Markdown: a short guide, the reviewer page and map beside, the reader."""
    book = posixpath.basename(book_page)
    extra = f" and the [map of its branches]({map_page})" if map_page else ""
    return "\n\n".join([
        "---\nhide:\n  - toc\nsearch:\n  exclude: true\n---",
        f"# Read {plain(title)}",
        f"Play the storybook of {plain(wanderer)} as a gamebook: one entry at a time, your "
        "choices and tests as buttons, your dice rolled here or at the table. Your place is "
        "kept in this browser. The whole storybook, every branch at once, is on the "
        f"[reviewer's page]({book}){extra}.",
        f'<div class="dmtool-reader" data-story="{data_path}"></div>',
    ]) + "\n"


def reader_data(data: Mapping[str, Any], analysis: Analysis, *, links: Links, names: Names,
                wanderer: str, map_page: str | None) -> str:
    """The story as the page's JSON: compiled program, words, names of encounters."""
    start = dict(analysis.graph.context.sentience or dict.fromkeys(COLOURS, 1))
    story = compiled(analysis, PlayOptions(runs=1, sentience=start))
    book = analysis.graph.storybook
    writer = Writer(links, note=odds_note(start, wanderer))
    story["id"] = book.id
    story["title"] = book.title or book.id
    story["wanderer"] = wanderer
    story["map"] = (map_page.removesuffix(".md") + ".html") if map_page else None
    story["texts"] = {str(n): {"title": e.title or "", "html": _html(
        (told(e.text, links) if e.text else "") + "\n\n" + "\n".join(
            writer.block().effects(describe_effects(e.effects, names))))}
        for n, e in book.entries.items()}
    story["blocks"] = story.pop("blocks")
    story["blockTexts"] = _block_texts(data, links)
    story["endingTitles"] = {str(raw.get("ending")): str(raw.get("title") or "")
                             for raw in data.get("endings") or []
                             if isinstance(raw, Mapping) and raw.get("ending") in ENDINGS}
    story["sources"] = _sources(analysis)
    codas = {str(node[1]) for node in story["nodes"] if node[0] in (GAIN_CODA, LOSE_CODA)}
    story["codaNames"] = {c: names("coda", c) or c for c in sorted(codas)}
    return json.dumps(story, ensure_ascii=True, separators=(",", ":"))


def _block_texts(data: Mapping[str, Any], links: Links) -> dict[str, str]:
    texts = {}
    setup = data.get("setup")
    if isinstance(setup, Mapping) and isinstance(setup.get("text"), str):
        texts["setup"] = _html(told(setup["text"], links))
    for raw in data.get("endings") or []:
        if not isinstance(raw, Mapping) or raw.get("ending") not in ENDINGS:
            continue
        for key, part in (("setup", "setup"), ("event_phase", "event")):
            block = raw.get(key)
            if isinstance(block, Mapping) and isinstance(block.get("text"), str):
                texts[f"{raw['ending']}:{part}"] = _html(told(block["text"], links))
    return texts


def _sources(analysis: Analysis) -> dict[str, str]:
    """What each encounter a reader may pick is called: its world shard or card."""
    context = analysis.graph.context
    names: dict[str, str] = {}
    for source in (*context.shards, *context.cards, *context.finale):
        document = getattr(source.location, "document", None)
        found = document.data if document is not None and isinstance(document.data, dict) else {}
        title = str(found.get("title") or found.get("name") or source.label)
        if source.kind in ("shard", "finale-shard"):
            words = f"World shard {found.get('number', '')}: {title}".replace("  ", " ")
        else:
            words = f"Encounter card: {title}"
        names.setdefault(str(source.entry), words)
    return names


def _html(text: str) -> str:
    """Markdown to HTML, cleaned as every page of the site is, without links."""
    html = markdown.markdown(text, extensions=["tables", "attr_list"])
    return nh3.clean(html, tags=_TAGS, attributes=ATTRIBUTES, link_rel=None,
                     strip_comments=True)

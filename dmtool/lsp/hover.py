"""Hover: what an entry number, an id, a key or a test means, in Markdown."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from lsprotocol import types

from dmtool.diagnostics import catalogue
from dmtool.lsp.context import RequestContext, value_at
from dmtool.lsp.convert import span
from dmtool.lsp.cursor import Cursor
from dmtool.lsp.targets import books_for, id_targets
from dmtool.lsp.words import effects_in_words
from dmtool.storygraph.context import context_for
from dmtool.storygraph.dice import pass_probability
from dmtool.storygraph.odds import describe_roll

_VOCABULARY_NOUNS = (("goto", "effect"), ("has_coda", "condition"))


def hover(context: RequestContext, position: types.Position) -> types.Hover | None:
    cursor = context.cursor(position)
    sections = [s for s in (_subject(context, cursor), _test_odds(context, cursor),
                            _diagnostics(context, position.line)) if s]
    if not sections:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(sections)),
        range=span(context.text, cursor.line, cursor.start, cursor.end) if cursor.end > cursor.start else None,
    )


def _subject(context: RequestContext, cursor: Cursor) -> str | None:
    if cursor.role not in ("key", "value"):
        return None
    place = context.place(cursor.path)
    if place is None:
        return None
    if cursor.role == "value" and cursor.word.isdigit() and place.is_entry_number:
        return _entry(context, int(cursor.word)) or f"No entry {cursor.word} in this storybook."
    if cursor.role == "value" and cursor.word and place.refers_to:
        return _document(context, place.refers_to, cursor.word)
    text = place.description or ""
    if cursor.role == "key":
        noun = _noun(context, cursor.container)
        title = f"`{cursor.word}`" + (f" ({noun})" if noun else "")
        return f"{title}: {text}" if text else title
    if cursor.word and cursor.word in [str(v) for v in place.enum]:
        return f"`{cursor.word}`: {text}" if text else None
    return text or None


def _noun(context: RequestContext, container: tuple[str | int, ...]) -> str | None:
    """'effect' or 'condition' when the key belongs to one of the two vocabularies."""
    place = context.place(container)
    keys = place.keys if place is not None else {}
    return next((noun for marker, noun in _VOCABULARY_NOUNS if marker in keys), None)


def _entry(context: RequestContext, number: int) -> str | None:
    document = context.document
    if document is None:
        return None
    blocks = []
    for book in books_for(document, context.documents):
        found = book.entry(number)
        if found is None:
            continue
        _parts, entry = found
        title = entry.get("title") or "(untitled)"
        heading = f"**Entry {number}: {title}**" + (f" ({entry['kind']})" if entry.get("kind") else "")
        if book.document is not document:
            heading += f"  \n_{book.document.display}_"
        effects = entry.get("effects") if isinstance(entry.get("effects"), list) else []
        lines = [f"- {line}" for line in effects_in_words(effects, context.documents)]
        blocks.append("\n".join([heading, "", *lines] if lines else [heading]))
    return "\n\n".join(blocks) or None


def _document(context: RequestContext, kinds: tuple[str, ...], value: str) -> str:
    targets = id_targets(kinds, value, context.documents)
    if not targets:
        return f"No {' or '.join(kinds)} with the id `{value}`."
    blocks = []
    for target in targets:
        item = value_at(target.document.data, target.parts[:-1])
        item = item if isinstance(item, dict) else {}
        name = item.get("title") or item.get("name") or value
        kind = item.get("kind") or kinds[0]
        blocks.append(f"**{name}** ({kind} `{value}`)  \n_{target.document.display}_")
    return "\n\n".join(blocks)


def _test_odds(context: RequestContext, cursor: Cursor) -> str | None:
    """The exact pass chance of the test the cursor is in, at the starting sentience."""
    parts = cursor.path
    if "test" not in parts:
        return None
    test_at = len(parts) - 1 - parts[::-1].index("test")
    body = value_at(context.data, parts[:test_at + 1])
    if not isinstance(body, dict) or not isinstance(body.get("roll"), dict):
        return None
    wanderer = _wanderer(context.data)
    sentience = context_for(context.snapshot.corpus, wanderer).sentience if wanderer else None
    if not sentience:
        return f"Test {describe_roll(body['roll'])}: no starting sentience known for this storybook's wanderer."
    chance = pass_probability(body["roll"], sentience)
    return (f"Test {describe_roll(body['roll'])}: passes {_percent(chance)} of the time "
            f"({chance}) at {wanderer}'s starting sentience ({_sentience(sentience)}).")


def _wanderer(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    value = data.get("id") if data.get("kind") == "wanderer" else data.get("wanderer")
    return value if isinstance(value, str) else None


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}%"


def _sentience(values: Mapping[str, int]) -> str:
    return ", ".join(f"{colour} {value}" for colour, value in values.items())


def _diagnostics(context: RequestContext, line: int) -> str | None:
    found = [d for d in context.snapshot.diagnostics.get(context.path, ())
             if d.location.line - 1 == line]
    lines = []
    for diagnostic in found:
        info = catalogue().get(diagnostic.code)
        title = info.title if info is not None else ""
        lines.append(f"**{diagnostic.code}** {title}: run `dmtool explain {diagnostic.code}`")
    return "\n\n".join(lines) or None

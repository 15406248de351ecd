"""Code lenses over each entry of a storybook: what links to it, whether a reader can reach
it, and how often its tests pass.

The links in are the places `find references` lists (one walk, targets.entry_uses). The
reachability and the odds are those `dmtool graph` and `dmtool odds` report: the story
graph's analysis of the book in the last analysis's corpus (storygraph.rule.analysis_of),
and the pass chances at the sentience `dmtool odds` rolls at. Both are made once per
version of the workspace and kept for the documents asked about last.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.convert import position
from dmtool.lsp.extents import entry_extents
from dmtool.lsp.schema_nav import ReferenceFinder
from dmtool.lsp.targets import Book, Target, entry_uses, kind_of
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.odds import collect_odds, odds_sentience
from dmtool.storygraph.rule import analysis_of

# The entries named in a "links in" lens before the rest are only counted.
NAMED = 6
_KEEP = 4
_RECENT: dict[tuple[int, int], tuple[SourceDocument, Any, list[types.CodeLens]]] = {}
_MAKING = threading.Lock()


def code_lenses(document: SourceDocument, documents: Mapping[Any, SourceDocument],
                finder: ReferenceFinder, corpus: Any) -> list[types.CodeLens]:
    """A storybook's lenses (none for other documents), made once per version."""
    if kind_of(document) != "storybook":
        return []
    key = (id(document), id(documents))
    with _MAKING:  # requests made together wait for one answer, not make one each
        known = _RECENT.get(key)
        if known is not None and known[0] is document and known[1] is documents:
            return known[2]
        found = _lenses(document, list(documents.values()), finder, corpus)
        _RECENT[key] = (document, documents, found)
        while len(_RECENT) > _KEEP:
            del _RECENT[next(iter(_RECENT))]
        return found


def _lenses(document: SourceDocument, documents: list[SourceDocument], finder: ReferenceFinder,
            corpus: Any) -> list[types.CodeLens]:
    book = Book(document, ())
    links: dict[int, list[str]] = defaultdict(list)
    for number, target in entry_uses(book, documents, finder):
        if isinstance(number, int):
            links[number].append(_origin(book, target))
    analysis = analysis_of(corpus, document, {}) if corpus is not None else None
    odds = _odds(analysis) if analysis is not None else {}
    lenses: list[types.CodeLens] = []
    for number, extent in entry_extents(document, book).items():
        at = position(document.text, extent.first, extent.dash)
        where = types.Range(start=at, end=at)
        titles = [_links_title(links.get(number, []))]
        if analysis is not None:
            titles.append(_reach_title(analysis, number))
        if number in odds:
            titles.append(_odds_title(odds[number]))
        lenses += [types.CodeLens(range=where, command=types.Command(title=title, command=""))
                   for title in titles]
    return lenses


def _origin(book: Book, target: Target) -> str:
    """Where a link comes from, as an author names it: an entry, an ending, a card..."""
    parts = target.parts
    if target.document is book.document:
        if parts[:1] == ("entries",) and len(parts) > 1:
            item = book.data["entries"][parts[1]]
            number = item.get("entry") if isinstance(item, dict) else None
            return str(number) if isinstance(number, int) else "an entry"
        if parts[:1] == ("endings",) and len(parts) > 1:
            ending = book.data["endings"][parts[1]]
            letter = ending.get("ending") if isinstance(ending, dict) else None
            return f"ending {letter}" if isinstance(letter, str) else "an ending"
        return str(parts[0]) if parts else "the storybook"
    data = target.document.data
    name = data.get("id") if isinstance(data, dict) else None
    kind = kind_of(target.document).replace("-", " ")
    return f"{kind} {name}" if isinstance(name, str) else target.document.display


def _links_title(origins: list[str]) -> str:
    if not origins:
        return "no links in"
    unique = list(dict.fromkeys(origins))
    named = ", ".join(unique[:NAMED]) + (f" and {len(unique) - NAMED} more" if len(unique) > NAMED else "")
    count = len(origins)
    return f"{count} link{'s' if count != 1 else ''} in: from {named}"


def _reach_title(analysis: Analysis, number: int) -> str:
    solution = analysis.solution
    if number in solution.stage:
        return "reachable in the wanderer stage"
    endings = [letter for letter, nodes in sorted(solution.finale.items()) if number in nodes]
    if endings:
        return "reachable in the finale of ending " + ", ".join(endings)
    if number in solution.reached:
        return "reachable"
    return "never reached"


def _odds(analysis: Analysis) -> dict[int, list[Fraction]]:
    """The pass chance of each test, by the entry it is in, in the entry's order."""
    sentience, _source = odds_sentience(analysis, {})
    found: dict[int, list[tuple[int, Fraction]]] = defaultdict(list)
    for line in collect_odds(analysis, sentience):
        if isinstance(line.node, int):
            found[line.node].append((line.line, line.probability))
    return {number: [chance for _line, chance in sorted(tests)] for number, tests in found.items()}


def _odds_title(chances: list[Fraction]) -> str:
    said = ", ".join(f"{float(c) * 100:.1f}% ({c})" for c in chances)
    return f"{'tests pass' if len(chances) > 1 else 'test passes'} {said} at starting sentience"

"""Storybook shape rules (DM203, DM258-DM260, DM267, DM268): entry numbers, endings, owners.

A storybook is the one large document of a wanderer, so what these rules need from it is
extracted once per content (a memo stored with the file in the check cache): the
findings that concern the book alone, its wanderer, the legacy cards its conclusions
award, and the kind of each entry. The joins with the wanderer, the legacy cards and the
encounters then read those facts, and an unchanged book is never unpacked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.cache import are_packed, pack, unpack
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules.wanderer_shapes import ENDINGS, Parts, dig

MEMO = "storybook-facts:2"
# (findings of the book alone, wanderer, [(ending, ending index, conclusion index, legacy)],
#  {entry number: entry kind}, the last entry of a number winning)
Facts = tuple[tuple[Any, ...], str, list[tuple[str, int, int, str]], dict[int, str]]


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    yield from _storybooks(corpus)
    yield from _entry_kinds(corpus)


def remember(document: SourceDocument) -> None:
    """A storybook's facts, memoised (see rules/__init__.py)."""
    if document.kind == "storybook":
        facts(document)


def facts(book: SourceDocument) -> Facts:
    """What the rules need of a storybook, memoised with its content."""
    return book.memo(MEMO, _extract, _are_facts)


def _extract(book: SourceDocument) -> Facts:
    data = book.data
    entries = data["entries"]
    found: list[Diagnostic] = []
    first: dict[int, int] = {}
    for index, entry in enumerate(entries):
        number = entry["entry"]
        if number in first:
            found.append(diagnose(
                "DM203", book.locate(("entries", index, "entry")),
                f"entry number {number} is already used; renumber one of the two",
                related=(book.locate(("entries", first[number], "entry")),)))
        else:
            first[number] = index
    legacies: list[tuple[str, int, int, str]] = []
    found.extend(_endings(book, entries, first, legacies))
    # A mapping, not pairs: the joins look entries up in it on every run (a session's).
    kinds = {entry["entry"]: entry["kind"] for entry in entries}
    return tuple(pack(d) for d in found), data["wanderer"], legacies, kinds


def _are_facts(value: Any) -> bool:
    return (type(value) is tuple and len(value) == 4 and are_packed(value[0])
            and type(value[1]) is str and type(value[2]) is list
            and all(type(v) is tuple and len(v) == 4 and type(v[0]) is str
                    and type(v[1]) is int and type(v[2]) is int and type(v[3]) is str
                    for v in value[2])
            and type(value[3]) is dict
            and all(type(k) is int and type(v) is str for k, v in value[3].items()))


def _endings(book: SourceDocument, entries: list[Any], first: dict[int, int],
             legacies: list[tuple[str, int, int, str]]) -> Iterator[Diagnostic]:
    letters: set[str] = set()
    for index, ending in enumerate(book.data["endings"]):
        letter = ending["ending"]
        if letter in letters:
            yield diagnose("DM258", book.locate(("endings", index, "ending")),
                           f"ending {letter} appears twice; the four endings are A, B, C and D, "
                           f"each once")
        letters.add(letter)
        for k, conclusion in enumerate(ending["conclusions"]):
            at = ("endings", index, "conclusions", k)
            target = first.get(conclusion["entry"])
            if target is not None and entries[target]["kind"] != "conclusion":
                yield diagnose(
                    "DM259", book.locate((*at, "entry")),
                    f"conclusion '{conclusion['title']}' points at entry {conclusion['entry']}, "
                    f"which is of kind '{entries[target]['kind']}'; point it at an entry of "
                    f"kind 'conclusion'", related=(book.locate(("entries", target, "kind")),))
            if isinstance(conclusion.get("legacy"), str):
                legacies.append((letter, index, k, conclusion["legacy"]))
    missing = [e for e in ENDINGS if e not in letters]
    if missing:
        yield diagnose("DM258", book.locate(("endings",)),
                       f"the storybook has no ending {', '.join(missing)}; write each of the "
                       f"endings A, B, C and D once")


def _storybooks(corpus: Corpus) -> Iterator[Diagnostic]:
    for book in corpus.of_kind("storybook"):
        own, owner, legacies, _ = facts(book)
        yield from (unpack(d) for d in own)
        for letter, index, k, legacy in legacies:
            card = corpus.get("finale-legacy-card", legacy)
            if card is not None and (card.data["ending"], card.data["wanderer"]) != (
                    letter, owner):
                yield diagnose(
                    "DM260", book.locate(("endings", index, "conclusions", k, "legacy")),
                    f"ending {letter} awards '{card.data['id']}', a finale legacy card of "
                    f"ending {card.data['ending']} of wanderer '{card.data['wanderer']}'; award "
                    f"a card of this ending and wanderer", related=(card.locate(("ending",)),))
        wanderer = corpus.get("wanderer", owner)
        if wanderer is not None and wanderer.data["storybook"] != book.doc_id:
            yield diagnose(
                "DM267", book.locate(("wanderer",)),
                f"storybook '{book.doc_id}' names wanderer '{wanderer.data['id']}', whose "
                f"storybook is '{wanderer.data['storybook']}'; make the two agree",
                related=(wanderer.locate(("storybook",)),))
    for wanderer in corpus.of_kind("wanderer"):
        book = corpus.get("storybook", wanderer.data["storybook"])
        if book is None:
            continue
        owner = facts(book)[1]
        if owner != wanderer.data["id"]:
            yield diagnose(
                "DM267", wanderer.locate(("storybook",)),
                f"storybook '{book.doc_id}' belongs to wanderer '{owner}', "
                f"not '{wanderer.data['id']}'; name this wanderer's own storybook",
                related=(book.locate(("wanderer",)),))


def _entry_kinds(corpus: Corpus) -> Iterator[Diagnostic]:
    kinds_of: dict[str, dict[int, str]] = {}
    for wanderer in corpus.of_kind("wanderer"):
        book = corpus.get("storybook", wanderer.data["storybook"])
        if book is not None:
            kinds_of[wanderer.data["id"]] = facts(book)[3]
    checks: list[tuple[SourceDocument, Parts, str]] = []
    for shard in corpus.of_kind("world-shard"):
        checks.append((shard, ("encounter", "entry"), shard.data["encounter"]["kind"]))
        checks += [(shard, ("finale", "encounters", i, "entry"), "finale")
                   for i in range(len(shard.data["finale"]["encounters"]))]
    checks += [(card, ("entry",), card.data["encounter_kind"])
               for card in corpus.of_kind("encounter-card")]
    checks += [(card, ("entry",), "finale") for card in corpus.of_kind("finale-encounter-card")]
    for document, parts, wanted in checks:
        number = dig(document.data, parts)
        actual = kinds_of.get(document.data["wanderer"], {}).get(number)
        if actual is not None and actual != wanted:
            yield diagnose(
                "DM268", document.locate(parts),
                f"entry {number} is of kind '{actual}' in the storybook, but this encounter "
                f"expects kind '{wanted}'; point it at the right entry or fix either kind")

"""Checks of a campaign state document: its schema, then what it names against the content
(DM424) and the legacy rules it must keep (DM425)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.loading import SourceDocument
from dmtool.validation.schema_errors import schema_diagnostics
from dmtool.validation.schemas import SchemaSet, default_schema_dir

Parts = tuple[Any, ...]


def check_campaign(doc: SourceDocument, catalog: Catalog | None) -> list[Diagnostic]:
    """Schema diagnostics first; the content checks only run on a well-formed document and
    only when a catalogue is given."""
    validator = SchemaSet(default_schema_dir()).validator("campaign-state")
    found = schema_diagnostics(doc, validator.iter_errors(doc.data))
    if found or catalog is None:
        return found
    return list(_content(doc, catalog))


def _hint(word: str, options: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, sorted(options), n=1)
    return f"did you mean '{close[0]}'?" if close else None


def _content(doc: SourceDocument, catalog: Catalog) -> Iterable[Diagnostic]:
    data = doc.data
    known_wanderers = set(catalog.wanderers)
    holders: dict[str, str] = {}
    for wid, progress in (data.get("wanderers") or {}).items():
        where: Parts = ("wanderers", wid)
        if known_wanderers and wid not in known_wanderers:
            yield diagnose("DM424", doc.locate(where, key=True), f"The campaign names the "
                           f"wanderer '{wid}', which the content does not define; fix the id "
                           "or remove the entry.", hint=_hint(wid, known_wanderers))
            continue
        yield from _unlocked(doc, catalog, wid, progress.get("unlocked", []), where)
        yield from _legacy(doc, catalog, wid, progress.get("legacy_cards", []), where, holders)
        finale = progress.get("finale_legacy")
        if finale is not None:
            card = catalog.finale_legacy_cards.get(finale)
            spot = doc.locate(where + ("finale_legacy",))
            if card is None:
                yield diagnose("DM424", spot, f"'{finale}' is not a finale legacy card of the "
                               "content; fix the id or set it to null.",
                               hint=_hint(finale, catalog.finale_legacy_cards))
            elif card.get("wanderer") not in (None, wid):
                yield diagnose("DM425", spot, f"'{finale}' belongs to {card['wanderer']}, not "
                               f"{wid}; move it or set it to null.")
    for family, tokens in (data.get("lineage") or {}).items():
        where = ("lineage", family)
        if family not in catalog.families:
            yield diagnose("DM424", doc.locate(where, key=True), f"'{family}' is not a family "
                           "of the content; fix the id or remove it.",
                           hint=_hint(family, catalog.families))
            continue
        members = catalog.families[family].get("abominations", [])
        for i, aid in enumerate(tokens):
            if aid not in members:
                yield diagnose("DM425", doc.locate(where + (i,)), f"'{aid}' is not one of the "
                               f"{family} family's abominations ({', '.join(members)}); its "
                               "lineage token cannot lie on this card.",
                               hint=_hint(aid, members))


def _unlocked(doc: SourceDocument, catalog: Catalog, wid: str, cards: list[str],
              where: Parts) -> Iterable[Diagnostic]:
    known = set(catalog.existence_cards) | set(catalog.domain_cards)
    for i, card in enumerate(cards):
        spot = doc.locate(where + ("unlocked", i))
        if card not in known:
            yield diagnose("DM424", spot, f"'{card}' is neither an existence card nor a domain "
                           "card of the content; fix the id or remove it.",
                           hint=_hint(card, known))
        elif catalog.owner(card) not in (None, wid):
            yield diagnose("DM425", spot, f"'{card}' lies in {catalog.owner(card)}'s forgotten "
                           f"envelope, not {wid}'s; list it under its owner.")


def _legacy(doc: SourceDocument, catalog: Catalog, wid: str, cards: list[str], where: Parts,
            holders: dict[str, str]) -> Iterable[Diagnostic]:
    seen: dict[str, str] = {}
    for i, card in enumerate(cards):
        spot = doc.locate(where + ("legacy_cards", i))
        abomination = card.partition("/")[0]
        if catalog.legacy_card(card) is None:
            count = len(catalog.legacy_cards(abomination))
            about = f"{abomination} has {count} legacy cards" if count else \
                f"'{abomination}' is not an abomination of the content"
            yield diagnose("DM424", spot, f"There is no legacy card '{card}' ({about}); fix "
                           "the id or remove it.")
            continue
        if abomination in seen:
            yield diagnose("DM425", spot, f"{wid} holds two legacy cards of {abomination} "
                           f"('{seen[abomination]}' and '{card}'); a wanderer keeps one per "
                           "abomination.")
        if card in holders and holders[card] != wid:
            yield diagnose("DM425", spot, f"'{card}' is also held by {holders[card]}; each "
                           "legacy card exists once.")
        seen.setdefault(abomination, card)
        holders.setdefault(card, wid)

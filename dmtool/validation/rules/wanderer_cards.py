"""Wanderer card rules: what is sealed in the forgotten envelope, and who owns each card."""

from __future__ import annotations

from collections.abc import Iterator

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules.wanderer_shapes import Parts, listed_ids

# Wanderer-specific kinds and the wanderer lists (paths) that must name them.
OWNED_KINDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "existence-card": (("existence_cards", "basic"), ("existence_cards", "locked")),
    "finale-legacy-card": (("finale_legacy_cards",),),
    "wanderer-card": (("other_cards",),),
    "terror": (("terrors",),),
    "final-boss": (("final_bosses",),),
}


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    for wanderer in corpus.of_kind("wanderer"):
        yield from _envelope(wanderer)
        yield from _card_owners(corpus, wanderer)
    yield from _unlisted_cards(corpus)


def _envelope(wanderer: SourceDocument) -> Iterator[Diagnostic]:
    data = wanderer.data
    envelope: list[str] = data["forgotten_envelope"]
    sealed = [("existence_cards", "locked"), ("domain_cards", "locked"), ("finale_legacy_cards",)]
    known: set[str] = set(listed_ids(data, ("other_cards",)))
    for parts in sealed:
        for index, card_id in enumerate(listed_ids(data, parts)):
            known.add(card_id)
            if card_id not in envelope:
                yield diagnose(
                    "DM261", wanderer.locate((*parts, index)),
                    f"'{card_id}' is sealed in the forgotten envelope, but 'forgotten_envelope' "
                    f"does not list it; add it there",
                    related=(wanderer.locate(("forgotten_envelope",)),))
    dashboard = data["dashboard"]
    basic: list[tuple[Parts, str]] = [(("existence_cards", "basic", i), c)
                                      for i, c in enumerate(data["existence_cards"]["basic"])]
    basic.append((("dashboard", "starting_existence_card"), dashboard["starting_existence_card"]))
    basic += [(("dashboard", "starting_domain_cards", i), c)
              for i, c in enumerate(dashboard["starting_domain_cards"])]
    basic_ids: set[str] = set()
    for parts, card_id in basic:
        # A card both basic and starting is reported once, at its first listing.
        if card_id in envelope and card_id not in basic_ids:
            yield diagnose(
                "DM262", wanderer.locate(("forgotten_envelope", envelope.index(card_id))),
                f"'{card_id}' is available from the first game, so it cannot be sealed in the "
                f"forgotten envelope; remove it from 'forgotten_envelope' (or list it as locked)",
                related=(wanderer.locate(parts),))
        basic_ids.add(card_id)
    for index, card_id in enumerate(envelope):
        if card_id not in known and card_id not in basic_ids:
            yield diagnose(
                "DM263", wanderer.locate(("forgotten_envelope", index)),
                f"'{card_id}' is not among this wanderer's locked existence cards, locked domain "
                f"cards, finale legacy cards or other cards; list it there or remove it here")


def _card_owners(corpus: Corpus, wanderer: SourceDocument) -> Iterator[Diagnostic]:
    data, me = wanderer.data, wanderer.data["id"]
    # (kind, list path, whether the card must be locked: True, False or None for no flag)
    lists: list[tuple[str, Parts, bool | None]] = [
        ("existence-card", ("existence_cards", "basic"), False),
        ("existence-card", ("existence_cards", "locked"), True),
        ("domain-card", ("domain_cards", "locked"), True),
        ("domain-card", ("dashboard", "starting_domain_cards"), False),
        ("finale-legacy-card", ("finale_legacy_cards",), None),
        ("wanderer-card", ("other_cards",), None),
        ("terror", ("terrors",), None),
        ("final-boss", ("final_bosses",), None),
    ]
    items = [(kind, (*parts, i), lock, card_id)
             for kind, parts, lock in lists for i, card_id in enumerate(listed_ids(data, parts))]
    items.append(("existence-card", ("dashboard", "starting_existence_card"), False,
                  data["dashboard"]["starting_existence_card"]))
    for kind, parts, lock, card_id in items:
        card = corpus.get(kind, card_id)
        if card is None:
            continue
        owner = card.data.get("wanderer")
        # Otherworld domain cards and common terrors name no wanderer, and may be listed.
        must_name = kind != "terror" and not (kind == "domain-card" and lock is False)
        if owner != me and (owner is not None or must_name):
            yield diagnose(
                "DM265", wanderer.locate(parts),
                f"the {kind} '{card_id}' names wanderer '{owner or '(none)'}', not '{me}'; list "
                f"only this wanderer's own cards, or fix the card's 'wanderer'",
                related=(card.locate(("wanderer",)),))
        if lock is not None and bool(card.data.get("locked", False)) != lock:
            state = "locked" if lock else "basic (or starting)"
            yield diagnose(
                "DM264", wanderer.locate(parts),
                f"the wanderer lists '{card_id}' as {state}, but the card says 'locked: "
                f"{str(not lock).lower()}'; make the two agree",
                related=(card.locate(("locked",)),))


def _unlisted_cards(corpus: Corpus) -> Iterator[Diagnostic]:
    for kind, paths in OWNED_KINDS.items():
        for card in corpus.of_kind(kind):
            yield from _unlisted(corpus, card, kind, paths)
    for card in corpus.of_kind("domain-card"):
        if card.data.get("locked") and card.data.get("wanderer"):
            yield from _unlisted(corpus, card, "domain-card", (("domain_cards", "locked"),))


def _unlisted(corpus: Corpus, card: SourceDocument, kind: str,
              paths: tuple[Parts, ...]) -> Iterator[Diagnostic]:
    owner = card.data.get("wanderer")
    wanderer = corpus.get("wanderer", owner) if owner else None
    if wanderer is None:
        return
    listed = {c for parts in paths for c in listed_ids(wanderer.data, parts)}
    if kind == "existence-card":
        listed.add(wanderer.data["dashboard"]["starting_existence_card"])
    if card.data["id"] not in listed:
        where = " or ".join("/".join(map(str, p)) for p in paths)
        yield diagnose(
            "DM266", card.locate(("wanderer",)),
            f"the {kind} '{card.data['id']}' names wanderer '{owner}', but the wanderer does "
            f"not list it in {where}; add it there so setup puts it in play")


# ---------------------------------------------------------------- encounter entry kinds

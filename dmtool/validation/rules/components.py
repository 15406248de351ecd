"""References into manifests (DM214, DM215, DM217-DM219) from every rulebook kind."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules._manifest_index import ManifestIndex, Parts


@dataclass(frozen=True, slots=True)
class _Ref:
    """A component named by a document; `size` is the whole supply it claims, if any."""

    parts: Parts  # where the component id is written
    manifest: str
    component: str
    size: int | None = None
    size_parts: Parts = ()
    needs: int | None = None  # at most this many needed (chapters, expansion rules)


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    index = ManifestIndex.build(corpus)
    for kind, extract in _EXTRACTORS.items():
        for document in corpus.of_kind(kind):
            for ref in extract(document.data):
                yield from _check_ref(index, document, ref)
    for document in corpus.of_kind("chapter") + corpus.of_kind("expansion-rules"):
        yield from _unlisted(document)
    for document in corpus.of_kind("expansion-rules"):
        yield from _grouping(index, document)
    yield from _item_counts(corpus)


def _check_ref(index: ManifestIndex, document: SourceDocument, ref: _Ref) -> Iterator[Diagnostic]:
    if not index.has(ref.manifest):
        return  # the manifest reference itself is reported by DM202
    component = index.find(ref.manifest, ref.component)
    if component is None:
        yield diagnose(
            "DM214", document.locate(ref.parts),
            f"the manifest '{ref.manifest}' has no component '{ref.component}'; use the id of "
            "one of its lines or parts",
            hint=index.hint(ref.manifest, ref.component))
        return
    # Located only when reported: a location costs a parse of the manifest with positions.
    if ref.size is not None and ref.size != component.count:
        yield diagnose(
            "DM215", document.locate(ref.size_parts),
            f"this says {ref.size} but the manifest '{ref.manifest}' lists {component.count} "
            f"{component.name}; make the two agree with the rulebook",
            related=(index.location(ref.manifest, component),))
    if ref.needs is not None and ref.needs > component.count:
        yield diagnose(
            "DM217", document.locate(ref.size_parts),
            f"{ref.needs} {component.name} are needed but the manifest '{ref.manifest}' lists only "
            f"{component.count}; the chapter cannot be set up as written",
            related=(index.location(ref.manifest, component),))


def _unlisted(document: SourceDocument) -> Iterator[Diagnostic]:
    for n, use in enumerate(document.data.get("components", [])):
        if use["source"] == "unlisted":
            yield diagnose(
                "DM218", document.locate(("components", n, "source")),
                f"'{use['name']}' is used by '{document.data['id']}' but no component list "
                "includes it (recorded as unlisted; see its note)")


def _grouping(index: ManifestIndex, document: SourceDocument) -> Iterator[Diagnostic]:
    data = document.data
    manifest_id = data["expansion"]
    if not index.has(manifest_id):
        return
    placed: dict[str, Parts] = {}
    for parts, component_id in _grouped(data):
        first = placed.setdefault(component_id, parts)
        if first != parts:
            yield diagnose("DM219", document.locate(parts),
                           f"'{component_id}' is already placed in another group; list it once",
                           related=(document.locate(first),))
    components = index.components[manifest_id]
    for component in components.values():
        if component.line_id != component.id:
            continue  # parts are judged with their line
        if component.id in placed:
            doubled = [p for p in component.part_ids if p in placed]
            if doubled:
                yield diagnose("DM219", document.locate(placed[doubled[0]]),
                               f"'{doubled[0]}' is part of '{component.id}', which is already "
                               "grouped as a whole; list either the line or its parts")
        elif not component.part_ids or not all(p in placed for p in component.part_ids):
            yield diagnose("DM219", document.locate(("component_groups",), key=True),
                           f"the manifest line '{component.id}' ({component.name}) is in no group; "
                           "add it (or all its parts) to a group or to 'unassigned'",
                           related=(index.location(manifest_id, component),))


def _grouped(data: dict[str, Any]) -> Iterator[tuple[Parts, str]]:
    for g, group in enumerate(data["component_groups"]):
        for c, component_id in enumerate(group["components"]):
            yield ("component_groups", g, "components", c), component_id
    for c, component_id in enumerate(data.get("unassigned", {}).get("components", [])):
        yield ("unassigned", "components", c), component_id


def _item_counts(corpus: Corpus) -> Iterator[Diagnostic]:
    """Listed items must match the size a document states for them."""
    for document in corpus.of_kind("support-cards"):
        for n, card_set in enumerate(document.data["sets"]):
            if len(card_set["cards"]) not in (0, card_set["size"]):
                yield diagnose(
                    "DM215", document.locate(("sets", n, "cards")),
                    f"the set '{card_set['id']}' has size {card_set['size']} but lists "
                    f"{len(card_set['cards'])} cards; list every card (or none)")


# ------------------------------------------------------------------ extractors, one per kind

def _condition_types(data: dict[str, Any]) -> Iterator[_Ref]:
    for n, item in enumerate(data["types"]):
        yield _dom_ref(("types", n), item["component"], item["deck_size"], ("types", n, "deck_size"))


def _support_cards(data: dict[str, Any]) -> Iterator[_Ref]:
    for n, item in enumerate(data["sets"]):
        yield _dom_ref(("sets", n), item["component"], item["size"], ("sets", n, "size"))


def _round_trackers(data: dict[str, Any]) -> Iterator[_Ref]:
    yield _dom_ref((), data["component"], len(data["trackers"]), ("trackers",))


def _game_rules(data: dict[str, Any]) -> Iterator[_Ref]:
    dice = data["sentience_dice"]
    yield _dom_ref(("sentience_dice",), dice["component"], dice["per_colour"] * len(dice["colours"]),
                   ("sentience_dice", "per_colour"))
    yield _dom_ref(("otherworld_die",), data["otherworld_die"]["component"])


def _dom_ref(at: Parts, ref: dict[str, str], size: int | None = None, size_parts: Parts = ()) -> _Ref:
    return _Ref(at + ("component", "component"), ref["manifest"], ref["component"], size, size_parts)


def _card_text(data: dict[str, Any]) -> Iterator[_Ref]:
    yield _Ref(("component",), data["expansion"], data["component"])


def _expansion_rules(data: dict[str, Any]) -> Iterator[_Ref]:
    for parts, component_id in _grouped(data):
        yield _Ref(parts, data["expansion"], component_id)
    yield from _uses(data)


def _campaign(data: dict[str, Any]) -> Iterator[_Ref]:
    for c, component_id in enumerate(data.get("general_keeps", [])):
        yield _Ref(("general_keeps", c), data["expansion"], component_id)
    for n, step in enumerate(data["chapters"]):
        for c, component_id in enumerate(step.get("keeps", [])):
            yield _Ref(("chapters", n, "keeps", c), data["expansion"], component_id)


def _uses(data: dict[str, Any]) -> Iterator[_Ref]:
    """A chapter's (or expansion rules') components that come from the expansion's box."""
    for n, use in enumerate(data.get("components", [])):
        if use["source"] == "expansion":
            yield _Ref(("components", n, "id"), data["expansion"], use["id"],
                       needs=use.get("count"), size_parts=("components", n, "count"))


_EXTRACTORS = {
    "condition-types": _condition_types,
    "support-cards": _support_cards,
    "round-trackers": _round_trackers,
    "game-rules": _game_rules,
    "card-text": _card_text,
    "expansion-rules": _expansion_rules,
    "campaign": _campaign,
    "chapter": _uses,
}

# Every finding is located in the document that names the component: one of the kinds
# above (chapters and expansion rules for DM218 too, support cards for their counts).
# See session._needless_rules.
REPORTS_IN = frozenset(_EXTRACTORS)

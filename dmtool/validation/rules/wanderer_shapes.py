"""Fixed-shape rules of Dawn of Madness wanderer-side content (DM250-DM257).

The storybook side (DM203, DM258-DM260, DM267, DM268) is in storybooks.py.

Documents reaching these rules passed their schemas, so shapes are trusted. A reference
that does not resolve is skipped here: the reference rule already reports it (DM202).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

SHARD_NUMBERS = range(1, 17)
ENDINGS = ("A", "B", "C", "D")
# Nested abomination lists and the number of cards the game gives each abomination.
ABOMINATION_DECKS = {"confrontation_cards": 10, "legacy_cards": 12, "devour_cards": 12}
Parts = tuple[str | int, ...]


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    yield from _world_shards(corpus)
    yield from _malformations(corpus)
    yield from _abomination_decks(corpus)
    yield from _families(corpus)


def dig(data: Any, parts: Parts) -> Any:
    for part in parts:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def listed_ids(data: dict[str, Any], parts: Parts) -> list[str]:
    found = dig(data, parts)
    return found if isinstance(found, list) else []


# ---------------------------------------------------------------- world shards

def _world_shards(corpus: Corpus) -> Iterator[Diagnostic]:
    by_wanderer: dict[str, list[SourceDocument]] = defaultdict(list)
    for shard in corpus.of_kind("world-shard"):
        by_wanderer[shard.data["wanderer"]].append(shard)
        yield from _finale_side(shard)
    # Shards with a mistake still hold their number; those whose wanderer or number cannot
    # be read might be any missing one.
    partial: dict[str, set[int]] = defaultdict(set)
    unsure: dict[str, int] = defaultdict(int)
    # Only partial shards are in doubt; finding them first keeps this linear in the shards.
    doubtful = [s for s in corpus.readable("world-shard") if not corpus.trusted(s)]
    for wanderer_id in by_wanderer:
        for shard in doubtful:
            mine = corpus.reads_as(shard, "wanderer", wanderer_id)
            if mine is False:
                continue
            number = shard.data.get("number")
            if mine and isinstance(number, int) and not isinstance(number, bool):
                partial[wanderer_id].add(number)
            else:
                unsure[wanderer_id] += 1
    for wanderer_id, shards in by_wanderer.items():
        first: dict[int, SourceDocument] = {}
        for shard in shards:
            number = shard.data["number"]
            if number in first:
                yield diagnose(
                    "DM250", shard.locate(("number",)),
                    f"world shard number {number} of wanderer '{wanderer_id}' is already used by "
                    f"{first[number].display}; give each of the 16 shards its own number",
                    related=(first[number].locate(("number",)),))
            else:
                first[number] = shard
        wanderer = corpus.get("wanderer", wanderer_id)
        missing = [n for n in SHARD_NUMBERS if n not in first and n not in partial.get(wanderer_id, ())]
        if wanderer is not None and len(missing) > unsure[wanderer_id]:
            shown = ", ".join(map(str, missing))
            yield diagnose(
                "DM251", wanderer.locate(("id",)),
                f"wanderer '{wanderer_id}' has {len(first)} of 16 world shards; add the shards "
                f"numbered {shown}")


def _finale_side(shard: SourceDocument) -> Iterator[Diagnostic]:
    endings = [e["ending"] for e in shard.data["finale"]["encounters"]]
    if len(endings) != 2 or len(set(endings)) != 2:
        yield diagnose(
            "DM252", shard.locate(("finale", "encounters")),
            f"the finale side lists {len(endings)} encounter(s) for ending(s) "
            f"{', '.join(endings)}; a world shard usually has two finale encounters for two "
            f"different endings")


# ---------------------------------------------------------------- malformations

def _malformations(corpus: Corpus) -> Iterator[Diagnostic]:
    for wanderer in corpus.of_kind("wanderer"):
        for index, malformation_id in enumerate(wanderer.data["malformations"]):
            malformation = corpus.get("malformation", malformation_id)
            if malformation is None:
                continue
            owner, number = malformation.data["wanderer"], malformation.data["number"]
            if owner != wanderer.data["id"] or number != index + 1:
                yield diagnose(
                    "DM253", wanderer.locate(("malformations", index)),
                    f"position {index + 1} of the malformations list must be malformation "
                    f"number {index + 1} of '{wanderer.data['id']}', but '{malformation_id}' is "
                    f"number {number} of '{owner}'; reorder the list or fix the malformation",
                    related=(malformation.locate(("number",)),))
    for malformation in corpus.of_kind("malformation"):
        wanderer = corpus.get("wanderer", malformation.data["wanderer"])
        if wanderer is not None and malformation.data["id"] not in wanderer.data["malformations"]:
            yield diagnose(
                "DM254", malformation.locate(("wanderer",)),
                f"malformation '{malformation.data['id']}' names wanderer "
                f"'{wanderer.data['id']}', whose malformations list does not include it; list "
                f"it there (a wanderer has exactly three) or name the right wanderer",
                related=(wanderer.locate(("malformations",)),))


# ---------------------------------------------------------------- abominations and families

def _abomination_decks(corpus: Corpus) -> Iterator[Diagnostic]:
    for abomination in corpus.of_kind("abomination"):
        for key, wanted in ABOMINATION_DECKS.items():
            count = len(abomination.data[key])
            if count != wanted:
                yield diagnose(
                    "DM255", abomination.locate((key,)),
                    f"'{key}' has {count} card(s); an abomination has exactly {wanted}")


def _families(corpus: Corpus) -> Iterator[Diagnostic]:
    listed_by: dict[str, tuple[SourceDocument, int]] = {}
    for family in corpus.of_kind("family"):
        family_id = family.data["id"]
        for index, abomination_id in enumerate(family.data["abominations"]):
            listed: Parts = ("abominations", index)  # located only when reported (a parse)
            earlier = listed_by.setdefault(abomination_id, (family, index))
            if earlier[0] is not family:
                yield diagnose(
                    "DM256", family.locate(listed),
                    f"abomination '{abomination_id}' is already listed by family "
                    f"'{earlier[0].data['id']}'; an abomination belongs to one family only",
                    related=(earlier[0].locate(("abominations", earlier[1])),))
            abomination = corpus.get("abomination", abomination_id)
            if abomination is not None and abomination.data["family"] != family_id:
                yield diagnose(
                    "DM256", family.locate(listed),
                    f"family '{family_id}' lists abomination '{abomination_id}', which names "
                    f"family '{abomination.data['family']}'; make the two agree",
                    related=(abomination.locate(("family",)),))
        yield from _punishments(family)
    for abomination in corpus.of_kind("abomination"):
        family = corpus.get("family", abomination.data["family"])
        if family is not None and abomination.data["id"] not in family.data["abominations"]:
            yield diagnose(
                "DM256", abomination.locate(("family",)),
                f"abomination '{abomination.data['id']}' names family '{family.data['id']}', "
                f"which does not list it; add it to the family's abominations",
                related=(family.locate(("abominations",)),))


def _punishments(family: SourceDocument) -> Iterator[Diagnostic]:
    members = family.data["abominations"]
    seen: set[str] = set()
    for index, punishment in enumerate(family.data["punishments"]):
        name = punishment["abomination"]
        named: Parts = ("punishments", index, "abomination")  # located only when reported
        if name not in members:
            yield diagnose("DM257", family.locate(named),
                           f"the punishment names '{name}', which is not one of this family's "
                           f"abominations ({', '.join(members)})")
        elif name in seen:
            yield diagnose("DM257", family.locate(named),
                           f"'{name}' already has a punishment; each abomination has exactly one")
        seen.add(name)
    for name in members:
        if name not in seen:
            yield diagnose("DM257", family.locate(("punishments",)),
                           f"abomination '{name}' of this family has no lineage punishment; "
                           f"add one")

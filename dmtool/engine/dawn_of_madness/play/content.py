"""A Catalog for whole games, built from the documents under content/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dmtool.engine.dawn_of_madness.catalog import Catalog, playable_monster
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.model.content_index import ContentIndex, index_for

MONSTER_KINDS = ("terror", "malformation", "abomination", "final-boss")
# The support cards' faces are not printed in the rulebook: dmtool's stand-in cards carry
# the actions the rulebook names, one each, in this order.
STAND_IN_SUPPORT = {2: ("move", "attack", "confront", "domain", "search"),
                    3: ("move", "attack", "confront")}


def _of_kind(index: ContentIndex, kind: str) -> dict[str, dict[str, Any]]:
    return index.of_kind(kind)


def _monster(doc: dict[str, Any]) -> dict[str, Any] | None:
    if not isinstance(doc.get("max_health"), int) or not isinstance(
            doc.get("max_mental_capacity"), int):
        return None  # not playable yet (content still being written)
    return playable_monster(dict(doc), str(doc.get("kind", "terror")))


def load_catalog(root: Path, central: str) -> Catalog:
    """Everything a game with `central` as the central wanderer reads: all general cards,
    and the central wanderer's storybook, world shards and encounter cards."""
    index = index_for(root)
    wanderers = _of_kind(index, "wanderer")
    if central not in wanderers:
        raise EngineFault(f"no wanderer '{central}' in {root}")
    doc = wanderers[central]
    book = _of_kind(index, "storybook").get(doc.get("storybook", ""))
    if book is None:
        raise EngineFault(f"{central}'s storybook '{doc.get('storybook')}' is not in {root}")
    monsters: dict[str, dict[str, Any]] = {}
    for kind in MONSTER_KINDS:
        for mid, data in _of_kind(index, kind).items():
            card = _monster(data)
            if card is not None:
                monsters[mid] = card
    mine = lambda kind: {k: v for k, v in _of_kind(index, kind).items()  # noqa: E731
                         if v.get("wanderer") == central}
    trackers = next(iter(_of_kind(index, "round-trackers").values()), {}).get("trackers", [])
    catalog = Catalog(
        monsters=monsters,
        codas=_of_kind(index, "coda"),
        domain_cards=_of_kind(index, "domain-card"),
        existence_cards=_of_kind(index, "existence-card"),
        support_cards=_support(),
        encounter_cards=mine("encounter-card"),
        entries={e["entry"]: e for e in book.get("entries", [])},
        round_trackers=[t["entry"] for t in sorted(trackers, key=lambda t: t["round"])],
        shards=_shards(mine("world-shard")),
        setup=dict(book.get("setup", {})),
        endings={e["ending"]: e for e in book.get("endings", [])},
        finale_cards=mine("finale-encounter-card"),
        finale_legacy_cards=_of_kind(index, "finale-legacy-card"),
        devour_cards=_of_kind(index, "devour-card"),
        families=_of_kind(index, "family"),
        wanderers=wanderers,
    )
    return catalog


def _support() -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    for count, actions in STAND_IN_SUPPORT.items():
        for i, action in enumerate(actions):
            cards[f"support-{count}-{action}"] = {"wanderers": count, "action": action,
                                                  "number": i + 1, "stand_in": True}
    return cards


def _shards(docs: dict[str, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for doc in docs.values():
        info: dict[str, Any] = {"sentience": list(doc["sentience"]), "title": doc.get("title")}
        if isinstance(doc.get("encounter"), dict):
            info["encounter"] = {"entry": doc["encounter"]["entry"]}
        finale = (doc.get("finale") or {}).get("encounters", [])
        info["finale"] = {e["ending"]: e["entry"] for e in finale}
        out[int(doc["number"])] = info
    return out

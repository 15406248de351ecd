"""The sample wanderer Hollis Brandt: the facts issue 4 demands, asserted on the real files."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
WANDERER_DIR = ROOT / "content" / "wanderers" / "hollis-brandt"
GAME_DIR = ROOT / "content" / "dawn-of-madness"
WANDERER_ID = "hollis-brandt"
ABOMINATION_ID = "the-accretion"
# Keys whose values are lists of effects (effect bodies that nest lists use the same keys).
EFFECT_LISTS = frozenset({"effects", "pass", "fail", "then", "else", "may", "all_wanderers",
                          "central_wanderer"})
TERMINALS = frozenset({"goto", "end", "conclude", "fail_stage"})
# Effects that only make sense on monster action sequences, not in storybook entries.
MONSTER_ONLY = frozenset({"monster_move", "monster_attack", "monster_drain", "monster_heal",
                          "resolve_confrontation_card"})


def _load(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


@cache
def _docs() -> tuple[tuple[Path, dict[str, Any]], ...]:
    paths = sorted(WANDERER_DIR.rglob("*.yaml"))
    for sub in ("terrors", "abominations", "families"):
        paths += sorted((GAME_DIR / sub).glob("*.yaml"))
    return tuple((p, _load(p)) for p in paths)


def _of_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {d["id"]: d for _, d in _docs() if d["kind"] == kind}


def _mine(kind: str) -> dict[str, dict[str, Any]]:
    return {k: d for k, d in _of_kind(kind).items() if d.get("wanderer") == WANDERER_ID}


@cache
def _storybook() -> dict[str, Any]:
    return _load(WANDERER_DIR / "storybook.yaml")


def _entries() -> dict[int, dict[str, Any]]:
    return {e["entry"]: e for e in _storybook()["entries"]}


def _wanderer() -> dict[str, Any]:
    return _load(WANDERER_DIR / "wanderer.yaml")


def _vocabulary() -> set[str]:
    defs = json.loads((ROOT / "schemas" / "defs.schema.json").read_text(encoding="utf-8"))
    return set(defs["$defs"]["effect"]["propertyNames"]["enum"])


def _effects_in(value: Any) -> Iterator[tuple[str, Any]]:
    """Every effect (name, body) found in effect lists anywhere inside `value`."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in EFFECT_LISTS and isinstance(inner, list):
                for effect in inner:
                    if isinstance(effect, dict) and len(effect) == 1:
                        ((name, body),) = effect.items()
                        yield name, body
                        yield from _effects_in({name: body} if name in EFFECT_LISTS else body)
            else:
                yield from _effects_in(inner)
    elif isinstance(value, list):
        for item in value:
            yield from _effects_in(item)


def _terminates(effects: list[dict[str, Any]]) -> bool:
    """Whether every path through an effect list ends in a goto or a terminal."""
    for effect in effects:
        ((name, body),) = effect.items()
        if name in TERMINALS:
            return True
        if name == "test":
            return "pass" in body and "fail" in body and _terminates(body["pass"]) and \
                _terminates(body["fail"])
        if name == "choice":
            return all(_terminates(option["effects"]) for option in body)
        if name == "if":
            return "else" in body and _terminates(body["then"]) and _terminates(body["else"])
    return False


def _storybook_effects() -> Counter[str]:
    return Counter(name for name, _ in _effects_in(_storybook()))


# ------------------------------------------------------------------ counts


def test_storybook_has_at_least_150_entries_with_unique_numbers() -> None:
    numbers = [e["entry"] for e in _storybook()["entries"]]
    assert len(numbers) >= 150
    assert len(set(numbers)) == len(numbers)


def test_the_ten_round_trackers_read_event_entries() -> None:
    trackers = _load(GAME_DIR / "round-trackers.yaml")["trackers"]
    entries = _entries()
    numbers = {t["entry"] for t in trackers}
    assert len(numbers) == 10
    assert all(entries[n]["kind"] == "event" for n in numbers)


def test_sixteen_world_shards_with_both_sides() -> None:
    shards = _mine("world-shard")
    assert sorted(s["number"] for s in shards.values()) == list(range(1, 17))
    entries = _entries()
    for shard in shards.values():
        assert entries[shard["encounter"]["entry"]]["kind"] == shard["encounter"]["kind"]
        finale = shard["finale"]["encounters"]
        assert len({f["ending"] for f in finale}) == 2
        assert all(entries[f["entry"]]["kind"] == "finale" for f in finale)


def test_encounter_cards_with_spawning_and_entrance_conditions() -> None:
    cards = _mine("encounter-card")
    assert len(cards) >= 20
    assert sum("spawn" in c for c in cards.values()) >= 2
    assert sum("entrance" in c for c in cards.values()) >= 2
    entries = _entries()
    assert all(c["entry"] in entries for c in cards.values())


def test_every_encounter_card_is_spawned_or_has_a_spawning_condition() -> None:
    spawned = {body["card"] for name, body in _effects_in(_storybook())
               if name == "spawn_encounter"}
    for kind in ("encounter-card", "finale-encounter-card"):
        for card_id, card in _mine(kind).items():
            assert card_id in spawned or "spawn" in card, card_id


def test_at_least_twenty_codas_and_each_is_awarded() -> None:
    codas = _mine("coda")
    assert len(codas) >= 20
    awarded = {body for name, body in _effects_in(_storybook()) if name == "gain_coda"}
    assert set(codas) <= awarded
    assert awarded <= set(codas)


def test_wanderer_monsters_and_existence_cards() -> None:
    wanderer = _wanderer()
    malformations = _mine("malformation")
    assert [malformations[m]["number"] for m in wanderer["malformations"]] == [1, 2, 3]
    terrors = _of_kind("terror")
    assert len(wanderer["terrors"]) == 3
    assert all(terrors[t]["wanderer"] == WANDERER_ID for t in wanderer["terrors"])
    assert sorted(wanderer["final_bosses"]) == sorted(_mine("final-boss"))
    assert len(wanderer["final_bosses"]) == 2
    existence = _mine("existence-card")
    basic = wanderer["existence_cards"]["basic"]
    assert len(basic) == 7
    assert all(existence[c]["locked"] is False for c in basic)
    locked = wanderer["existence_cards"]["locked"] + wanderer["domain_cards"]["locked"]
    assert locked and set(locked) <= set(wanderer["forgotten_envelope"])


def test_locked_cards_are_unlocked_by_the_story() -> None:
    wanderer = _wanderer()
    unlocked = {card for name, body in _effects_in(_storybook()) if name == "unlock"
                for card in body}
    locked = set(wanderer["existence_cards"]["locked"]) | set(wanderer["domain_cards"]["locked"])
    assert locked <= unlocked


def test_four_endings_each_with_two_conclusions_and_own_legacy_card() -> None:
    endings = _storybook()["endings"]
    assert sorted(e["ending"] for e in endings) == ["A", "B", "C", "D"]
    entries = _entries()
    legacy = _mine("finale-legacy-card")
    awarded: list[str] = []
    for ending in endings:
        assert len(ending["conclusions"]) >= 2
        assert ending["final_bosses"]
        for conclusion in ending["conclusions"]:
            entry = entries[conclusion["entry"]]
            assert entry["kind"] == "conclusion"
            assert entry["effects"][-1] == {"conclude": conclusion["legacy"]}
            assert legacy[conclusion["legacy"]]["ending"] == ending["ending"]
            awarded.append(conclusion["legacy"])
    assert len(awarded) >= 8
    assert len(set(awarded)) == len(awarded)


def test_every_ending_is_scored_and_its_conclusions_follow_from_its_start() -> None:
    entries = _entries()
    scored = {letter for name, body in _effects_in(_storybook()) if name == "score"
              for letter, points in body.items() if points > 0}
    assert scored == {"A", "B", "C", "D"}
    for ending in _storybook()["endings"]:
        seen: set[int] = set()
        todo = [ending["start"]]
        while todo:
            number = todo.pop()
            if number not in seen:
                seen.add(number)
                todo += [body for name, body in _effects_in(entries[number]) if name == "goto"]
        assert {c["entry"] for c in ending["conclusions"]} <= seen, ending["ending"]


def test_the_abomination_has_its_full_deck_and_family() -> None:
    abomination = _of_kind("abomination")[ABOMINATION_ID]
    assert len(abomination["confrontation_cards"]) == 10
    assert len(abomination["legacy_cards"]) == 12
    assert len(abomination["devour_cards"]) == 12
    family = _of_kind("family")[abomination["family"]]
    assert len(family["abominations"]) == 4
    assert set(family["abominations"]) <= set(_of_kind("abomination"))


# ------------------------------------------------------------------ story quality


def test_every_vocabulary_effect_is_used_somewhere() -> None:
    used = Counter(name for _, doc in _docs() for name, _ in _effects_in(doc))
    missing = _vocabulary() - set(used)
    assert not missing, sorted(missing)


def test_the_storybook_itself_uses_every_non_monster_effect() -> None:
    missing = _vocabulary() - MONSTER_ONLY - set(_storybook_effects())
    assert not missing, sorted(missing)


@pytest.mark.parametrize("number", sorted(_entries()))
def test_entry_has_no_dead_end(number: int) -> None:
    assert _terminates(_entries()[number]["effects"])


def test_no_two_entries_share_text() -> None:
    texts = Counter(" ".join(e["text"].split()) for e in _storybook()["entries"])
    assert [t[:60] for t, n in texts.items() if n > 1] == []


def test_round_events_end_the_event_and_conclusions_conclude() -> None:
    for entry in _storybook()["entries"]:
        names = {name for name, _ in _effects_in(entry)}
        if entry["kind"] == "conclusion":
            assert "conclude" in names, entry["entry"]
        if entry["kind"] == "event":
            assert "end" in names or "fail_stage" in names or "goto" in names, entry["entry"]


# ------------------------------------------------------------------ manifest


def _matches(doc: dict[str, Any], counts: dict[str, Any]) -> bool:
    if doc["kind"] != counts["kind"]:
        return False
    if "wanderer" in counts and doc.get("wanderer") != counts["wanderer"]:
        return False
    return all(doc.get(field) == value for field, value in counts.get("where", {}).items())


def test_manifest_counts_match_the_authored_files_exactly() -> None:
    manifest = _load(WANDERER_DIR / "manifest.yaml")
    assert manifest["wanderer"] == WANDERER_ID
    counted = [c for c in manifest["components"] if "counts" in c]
    assert len(counted) >= 10
    for component in counted:
        found = sum(_matches(doc, component["counts"]) for _, doc in _docs())
        assert found == component["count"], component["id"]

"""The wanderer-side schemas (shape, descriptions, examples) and the rules in wanderer_shapes
and storybooks."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from dmtool.loading import read_document
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules import storybooks, wanderer_cards, wanderer_shapes
from dmtool.validation.schemas import SchemaSet

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
KINDS = (
    "wanderer",
    "world-shard",
    "encounter-card",
    "finale-encounter-card",
    "coda",
    "existence-card",
    "domain-card",
    "finale-legacy-card",
    "wanderer-card",
    "terror",
    "malformation",
    "final-boss",
    "abomination",
    "family",
    "devour-card",
    "storybook",
)


def _load(kind: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, DRAFT202012)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(_load(kind), registry=REGISTRY)


def _subschemas(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object below `node`, skipping `if`, `not` and `dependentSchemas` (they only
    constrain, never describe data)."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            if key in ("if", "not", "dependentSchemas", "const", "enum", "required", "x-refers-to"):
                continue
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    yield from _subschemas(sub, f"{where}/{key}/{name}")
            elif isinstance(value, (dict, list)):
                yield from _subschemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _subschemas(item, f"{where}/{index}")


# ---------------------------------------------------------------- schema shape


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12(kind: str) -> None:
    schema = _load(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"{kind}.schema.json"
    assert schema["title"] and schema["description"]
    assert schema["properties"]["kind"]["const"] == kind
    assert schema["required"][:2] == ["kind", "id"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_has_a_description(kind: str) -> None:
    missing = [
        f"{where}/{name}"
        for where, node in _subschemas(_load(kind))
        for name, sub in node.get("properties", {}).items()
        if not (isinstance(sub, dict) and sub.get("description"))
    ]
    assert not missing


@pytest.mark.parametrize("kind", KINDS)
def test_every_object_forbids_additional_properties(kind: str) -> None:
    open_objects = [
        where
        for where, node in _subschemas(_load(kind))
        if (node.get("type") == "object" or "properties" in node)
        and node.get("additionalProperties") is not False
    ]
    assert not open_objects


@pytest.mark.parametrize("kind", KINDS)
def test_references_sit_next_to_an_id_ref(kind: str) -> None:
    for where, node in _subschemas(_load(kind)):
        if "x-refers-to" in node:
            assert node["$ref"] == "defs.schema.json#/$defs/id", where
            assert node.get("description"), where


def test_the_lead_finds_every_kind_here() -> None:
    kinds = SchemaSet(SCHEMAS).kinds
    assert {k: kinds[k] for k in KINDS} == {k: f"{k}.schema.json" for k in KINDS}


# ---------------------------------------------------------------- examples


def _monster(kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "id": f"a-{kind}",
        "name": "Patient Aftershock",
        "max_health": 5,
        "max_mental_capacity": 6,
        "existence_reward": 2,
        "actions": [
            {
                "condition": {"monster_on_board": "abomination"},
                "cost": 3,
                "text": "It drains.",
                "effects": [{"monster_drain": {"amount": 1, "range": 1}}],
            },
            {
                "cost": 2,
                "text": "It moves and bites.",
                "effects": [
                    {"monster_move": {"spaces": 2}},
                    {"monster_attack": {"colour": "red", "amount": 2}},
                ],
            },
        ],
        "rift_abilities": [
            {
                "requires": [{"colour": "red", "type": "hand"}, {"type": "sphere"}],
                "text": "It bites twice.",
                "effects": [{"monster_attack": {"colour": "red", "amount": 1}}],
            }
        ],
        "passive": {"text": "Void tokens do not slow it."},
        **extra,
    }


def _abomination() -> dict[str, Any]:
    confrontation = {
        "required": {"red": ["hand"], "purple": ["sphere", "sphere"]},
        "existence_reward": 2,
        "damage": 3,
        "devour_tokens": 1,
        "special_action": {
            "text": "It lashes out.",
            "effects": [{"monster_attack": {"colour": "blue", "amount": 2}}],
        },
    }
    return {
        "kind": "abomination",
        "id": "grudge",
        "name": "Grudge",
        "family": "rage",
        "max_health": 14,
        "max_mental_capacity": 8,
        "actions": [
            {
                "cost": 3,
                "text": "It resolves its card.",
                "effects": [{"resolve_confrontation_card": True}],
            }
        ],
        "passive": {"text": "It cannot be moved.", "effects": []},
        "devour_spawning": {"text": "Spawn the tokens the active card shows."},
        "death_punishment": {
            "text": "Each wanderer loses 1 mental capacity.",
            "effects": [{"all_wanderers": [{"lose_mental_capacity": 1}]}],
        },
        "back": {
            "killed": {"text": "Hand out its legacy cards."},
            "not_killed": {"text": "Place its lineage token."},
        },
        "confrontation_cards": [confrontation] * 10,
        "legacy_cards": [
            {
                "title": "Scar",
                "type": "consumable",
                "text": "Gain 2 existence.",
                "effects": [{"gain_existence": 2}],
            }
        ]
        * 12,
        "devour_cards": [
            {"icons": ["red", "blue"], "text": "Lose 1 health.", "effects": [{"lose_health": 1}]}
        ]
        * 12,
    }


def _storybook() -> dict[str, Any]:
    ending = {
        "ending": "A",
        "title": "Ash",
        "setup": {"text": "Place a void token.", "effects": [{"place_token": {"token": "void"}}]},
        "rules": "No wanderer respawns.",
        "event_phase": {
            "text": "Spawn a terror.",
            "effects": [{"spawn_terror": {"terror": "random"}}],
        },
        "final_bosses": ["the-lantern-man"],
        "goals": "Close the door.",
        "start": 301,
        "conclusions": [{"entry": 340, "title": "Dawn", "legacy": "keeper-of-ash"}],
    }
    return {
        "kind": "storybook",
        "id": "ashes-of-the-lantern",
        "wanderer": "ilse-marrow",
        "title": "Ashes",
        "introduction": "You wake.",
        "setup": {"text": "Take a lantern.", "effects": [{"gain_existence": 1}]},
        "entries": [
            {
                "entry": 12,
                "kind": "exploration",
                "title": "The Stair",
                "text": "A voice hums.",
                "entrance": {
                    "when": {"has_coda": "the-voice-below"},
                    "text": "You carry the voice.",
                },
                "effects": [
                    {
                        "test": {
                            "roll": {"green": ["eye"], "red": ["sphere"]},
                            "pass": [{"score": {"B": 2}}, {"goto": 243}],
                            "fail": [{"goto": 224}],
                        }
                    }
                ],
            },
            {
                "entry": 340,
                "kind": "conclusion",
                "title": "Dawn",
                "text": "Light.",
                "effects": [{"conclude": "keeper-of-ash"}],
            },
        ],
        "endings": [dict(ending, ending=letter) for letter in "ABCD"],
    }


VALID: dict[str, dict[str, Any]] = {
    "wanderer": {
        "kind": "wanderer",
        "id": "ilse-marrow",
        "name": "Ilse Marrow",
        "title": "The Lamplighter",
        "storybook": "ashes-of-the-lantern",
        "dashboard": {
            "max_health": 8,
            "max_mental_capacity": 7,
            "sentience": {"red": 2, "blue": 1, "green": 2, "yellow": 1, "purple": 1},
            "starting_existence_card": "steady-hands",
            "starting_domain_cards": ["lantern-shard"],
        },
        "malformations": ["m-one", "m-two", "m-three"],
        "terrors": ["t-one", "t-two", "t-three"],
        "final_bosses": ["the-lantern-man"],
        "existence_cards": {"basic": ["steady-hands"], "locked": ["second-sight"]},
        "domain_cards": {"locked": ["ember-key"]},
        "finale_legacy_cards": ["keeper-of-ash"],
        "other_cards": ["sedative"],
        "forgotten_envelope": ["second-sight", "ember-key", "keeper-of-ash"],
        "manifest": "ilse-marrow-components",
    },
    "world-shard": {
        "kind": "world-shard",
        "id": "ilse-shard-07",
        "wanderer": "ilse-marrow",
        "number": 7,
        "title": "The Ward",
        "sentience": ["red", "red", "purple"],
        "encounter": {
            "title": "Night Shift",
            "entry": 12,
            "kind": "reality_shard",
            "text": "Lights flicker.",
        },
        "finale": {
            "encounters": [
                {"ending": "A", "title": "Ash", "entry": 301},
                {"ending": "C", "title": "Glass", "entry": 305},
            ]
        },
    },
    "encounter-card": {
        "kind": "encounter-card",
        "id": "the-listening-stair",
        "wanderer": "ilse-marrow",
        "title": "The Listening Stair",
        "entry": 42,
        "encounter_kind": "exploration",
        "spawn": {"when": {"score_at_least": {"B": 3}}, "text": "Ending B has 3 points or more."},
        "flavor": "It hums.",
    },
    "finale-encounter-card": {
        "kind": "finale-encounter-card",
        "id": "the-last-door",
        "wanderer": "ilse-marrow",
        "ending": "B",
        "title": "The Last Door",
        "entry": 320,
        "entrance": {"when": {"is_central": True}},
    },
    "coda": {
        "kind": "coda",
        "id": "the-voice-below",
        "wanderer": "ilse-marrow",
        "title": "The Voice Below",
        "effects": [{"modify_sentience": {"yellow": 1, "red": -1}}],
        "back": ["yellow", "purple"],
        "flavor": "Still there.",
    },
    "existence-card": {
        "kind": "existence-card",
        "id": "second-sight",
        "wanderer": "ilse-marrow",
        "title": "Second Sight",
        "cost": 4,
        "ability": "Once per round, gain a green eye domain.",
        "effects": [{"gain_domain": {"green": ["eye"]}}],
        "locked": True,
    },
    "domain-card": {
        "kind": "domain-card",
        "id": "ember-key",
        "title": "Ember Key",
        "item_type": "relic",
        "text": "Spend a charge to restore 1 mental capacity.",
        "effects": [{"restore_mental_capacity": 1}],
        "charges": 3,
        "domains": [
            {"colour": "red", "type": "hand"},
            {"colour": "red", "type": "skull"},
            {"colour": "purple", "type": "sphere"},
        ],
        "wanderer": "ilse-marrow",
        "locked": True,
    },
    "finale-legacy-card": {
        "kind": "finale-legacy-card",
        "id": "keeper-of-ash",
        "wanderer": "ilse-marrow",
        "ending": "A",
        "title": "Keeper of Ash",
        "sentience": {"red": 2, "blue": -1},
        "text": "Start with 1 more max health.",
        "effects": [{"modify_max": {"health": 1}}],
    },
    "wanderer-card": {
        "kind": "wanderer-card",
        "id": "sedative",
        "wanderer": "ilse-marrow",
        "card_type": "psychiatric-treatment",
        "title": "Sedative",
        "text": "Restore 2 mental capacity.",
        "effects": [{"restore_mental_capacity": 2}],
        "copies": 2,
    },
    "terror": _monster("terror", wanderer="ilse-marrow"),
    "malformation": _monster("malformation", wanderer="ilse-marrow", number=2),
    "final-boss": _monster("final-boss", wanderer="ilse-marrow", rules="It cannot leave shard 1."),
    "abomination": _abomination(),
    "family": {
        "kind": "family",
        "id": "rage",
        "name": "Rage",
        "abominations": ["grudge", "spite", "fury", "wrath"],
        "punishments": [
            {"abomination": a, "text": "Start with a wound.", "effects": [{"lose_health": 1}]}
            for a in ("grudge", "spite", "fury", "wrath")
        ],
    },
    "devour-card": {
        "kind": "devour-card",
        "id": "hungry-dark",
        "icons": ["green"],
        "text": "Lose 1 existence.",
        "effects": [{"lose_existence": 1}],
        "copies": 2,
    },
    "storybook": _storybook(),
}


def _broken(kind: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Ways each example breaks: a misspelt key, a missing requirement, a kind-specific slip."""
    valid = VALID[kind]
    yield "unknown property", {**valid, "titel": "x"}
    for key in _load(kind)["required"][2:]:
        yield f"without {key}", {k: v for k, v in valid.items() if k != key}
    yield "bad id", {**valid, "id": "Not Kebab"}


SPECIFIC_BREAKS: list[tuple[str, str, Any]] = [
    ("wanderer", "two malformations", lambda d: d.update(malformations=["a", "b"])),
    ("wanderer", "max mental capacity 11", lambda d: d["dashboard"].update(max_mental_capacity=11)),
    ("wanderer", "sentience without purple", lambda d: d["dashboard"]["sentience"].pop("purple")),
    ("wanderer", "envelope twice", lambda d: d.update(forgotten_envelope=["x", "x"])),
    ("world-shard", "number 17", lambda d: d.update(number=17)),
    ("world-shard", "four sentience icons", lambda d: d.update(sentience=["red"] * 4)),
    ("world-shard", "event encounter", lambda d: d["encounter"].update(kind="event")),
    ("world-shard", "finale without encounters", lambda d: d["finale"].update(encounters=[])),
    (
        "encounter-card",
        "spawn and entrance",
        lambda d: d.update(entrance={"when": {"trapped": False}}),
    ),
    ("finale-encounter-card", "entrance and flavor", lambda d: d.update(flavor="x")),
    ("finale-encounter-card", "ending E", lambda d: d.update(ending="E")),
    ("coda", "no back colours", lambda d: d.update(back=[])),
    ("coda", "pink back", lambda d: d.update(back=["pink"])),
    ("existence-card", "negative cost", lambda d: d.update(cost=-1)),
    ("domain-card", "two domains", lambda d: d.update(domains=d["domains"][:2])),
    ("domain-card", "locked without wanderer", lambda d: d.pop("wanderer")),
    ("domain-card", "zero charges", lambda d: d.update(charges=0)),
    ("finale-legacy-card", "zero sentience change", lambda d: d.update(sentience={"red": 0})),
    ("terror", "no actions", lambda d: d.update(actions=[])),
    ("terror", "action without cost", lambda d: d["actions"][0].pop("cost")),
    ("terror", "rift with nothing", lambda d: d["rift_abilities"][0].update(requires=[{}])),
    (
        "terror",
        "four rifts",
        lambda d: d["rift_abilities"][0].update(requires=[{"type": "eye"}] * 4),
    ),
    ("malformation", "number 4", lambda d: d.update(number=4)),
    (
        "abomination",
        "legacy type",
        lambda d: d.update(legacy_cards=[{"title": "x", "type": "forever", "text": "x"}]),
    ),
    ("abomination", "back without not_killed", lambda d: d["back"].pop("not_killed")),
    (
        "abomination",
        "confrontation without damage",
        lambda d: d.update(
            confrontation_cards=[
                {k: v for k, v in d["confrontation_cards"][0].items() if k != "damage"}
            ]
        ),
    ),
    ("family", "three abominations", lambda d: d.update(abominations=["a", "b", "c"])),
    # Three endings pass the schema: DM258 names the missing one (tests/test_one_mistake.py).
    ("storybook", "entry without effects", lambda d: d["entries"][0].pop("effects")),
    ("storybook", "entry of kind 'intro'", lambda d: d["entries"][0].update(kind="intro")),
    (
        "storybook",
        "conclusion without title",
        lambda d: d["endings"][0]["conclusions"][0].pop("title"),
    ),
    ("storybook", "unknown effect", lambda d: d["entries"][1].update(effects=[{"gotoo": 1}])),
]


@pytest.mark.parametrize("kind", KINDS)
def test_valid_example_validates(kind: str) -> None:
    errors = [e.message for e in _validator(kind).iter_errors(VALID[kind])]
    assert not errors


@pytest.mark.parametrize("kind", KINDS)
def test_broken_examples_fail(kind: str) -> None:
    validator = _validator(kind)
    passing = [name for name, data in _broken(kind) if validator.is_valid(data)]
    assert not passing


@pytest.mark.parametrize(
    ("kind", "name", "breaker"), SPECIFIC_BREAKS, ids=[f"{k}-{n}" for k, n, _ in SPECIFIC_BREAKS]
)
def test_specific_break_fails(kind: str, name: str, breaker: Any) -> None:
    data = copy.deepcopy(VALID[kind])
    breaker(data)
    assert not _validator(kind).is_valid(data)


def test_storybook_entry_may_have_no_effects_at_schema_level() -> None:
    data = copy.deepcopy(VALID["storybook"])
    data["entries"][0]["effects"] = []
    assert _validator("storybook").is_valid(data)  # the story graph reports it as a dead end


# ---------------------------------------------------------------- rules (wanderer_shapes)


def _kit() -> dict[str, dict[str, Any]]:
    """A consistent little wanderer, keyed by '<kind>:<id>', that breaks no rule."""
    me = "ilse-marrow"
    docs = [
        copy.deepcopy(VALID[k])
        for k in ("wanderer", "storybook", "finale-legacy-card", "wanderer-card")
    ]
    docs[1]["endings"] = [
        dict(e, conclusions=[{"entry": 340, "title": "Dawn"}]) for e in docs[1]["endings"]
    ]
    docs[1]["endings"][0] = copy.deepcopy(VALID["storybook"]["endings"][0])
    docs[1]["entries"].append(
        {
            "entry": 301,
            "kind": "finale",
            "title": "Door",
            "text": "It opens.",
            "effects": [{"goto": 340}],
        }
    )
    docs += [
        dict(_monster("malformation", wanderer=me, number=n), id=m)
        for n, m in enumerate(("m-one", "m-two", "m-three"), start=1)
    ]
    docs += [dict(_monster("terror", wanderer=me), id=t) for t in ("t-one", "t-two", "t-three")]
    docs.append(dict(_monster("final-boss", wanderer=me), id="the-lantern-man"))
    docs.append(dict(VALID["existence-card"], id="steady-hands", locked=False))
    docs.append(copy.deepcopy(VALID["existence-card"]))
    docs.append(copy.deepcopy(VALID["domain-card"]))
    plain = {k: v for k, v in VALID["domain-card"].items() if k not in ("wanderer", "locked")}
    docs.append(dict(plain, id="lantern-shard"))
    return {f"{d['kind']}:{d['id']}": d for d in docs}


def _shards(count: int = 16) -> dict[str, dict[str, Any]]:
    shard = VALID["world-shard"]
    return {
        f"world-shard:s{n}": dict(
            copy.deepcopy(shard),
            id=f"s{n}",
            number=n,
            encounter=dict(shard["encounter"], kind="exploration"),
        )
        for n in range(1, count + 1)
    }


def _corpus(tmp_path: Path, docs: dict[str, dict[str, Any]]) -> Corpus:
    schemas = SchemaSet(SCHEMAS)
    corpus = Corpus(schemas=schemas)
    for key, data in docs.items():
        path = tmp_path / (key.replace(":", "--") + ".yaml")
        path.write_text(
            "# yaml-language-server: $schema=unused\n" + json.dumps(data, indent=1),
            encoding="utf-8",
        )
        document = read_document(path, path.name).document
        assert document is not None
        errors = [e.message for e in schemas.validator(data["kind"]).iter_errors(document.data)]
        assert not errors, (key, errors)
        corpus.add(document)
    return corpus


def _found(tmp_path: Path, docs: dict[str, dict[str, Any]]) -> list[tuple[str, str, str]]:
    return sorted(
        (
            d.code,
            d.location.path.split("--")[0] + ":" + d.location.path.split("--")[1][:-5],
            d.location.pointer,
        )
        for rules in (wanderer_shapes, storybooks, wanderer_cards)
        for d in rules.check(_corpus(tmp_path, docs))
    )


def test_rule_module_is_discovered() -> None:
    from dmtool.validation.rules import rule_checks

    assert ("wanderer_shapes", wanderer_shapes.check) in rule_checks()
    assert ("wanderer_cards", wanderer_cards.check) in rule_checks()
    assert ("storybooks", storybooks.check) in rule_checks()


def test_consistent_wanderer_breaks_no_rule(tmp_path: Path) -> None:
    assert _found(tmp_path, {**_kit(), **_shards()}) == []


def test_duplicate_entry_number_is_dm203(tmp_path: Path) -> None:
    docs = _kit()
    docs["storybook:ashes-of-the-lantern"]["entries"][2]["entry"] = 12
    assert _found(tmp_path, docs) == [
        ("DM203", "storybook:ashes-of-the-lantern", "/entries/2/entry")
    ]


def test_shard_numbers(tmp_path: Path) -> None:
    docs = {**_kit(), **_shards()}
    docs["world-shard:s16"]["number"] = 3
    assert _found(tmp_path, docs) == [
        ("DM250", "world-shard:s16", "/number"),
        ("DM251", "wanderer:ilse-marrow", "/id"),
    ]


def test_wanderer_without_shards_is_not_reported(tmp_path: Path) -> None:
    assert not [f for f in _found(tmp_path, _kit()) if f[0] == "DM251"]


def test_finale_side_with_one_encounter_warns(tmp_path: Path) -> None:
    docs = {**_kit(), **_shards()}
    del docs["world-shard:s4"]["finale"]["encounters"][1]
    assert _found(tmp_path, docs) == [("DM252", "world-shard:s4", "/finale/encounters")]


def test_malformation_of_another_wanderer_in_the_list(tmp_path: Path) -> None:
    docs = _kit()
    docs["malformation:m-three"]["wanderer"] = "emily-hawkins"
    assert _found(tmp_path, docs) == [("DM253", "wanderer:ilse-marrow", "/malformations/2")]


def test_abomination_deck_counts_point_at_each_list(tmp_path: Path) -> None:
    abomination = copy.deepcopy(VALID["abomination"])
    abomination["legacy_cards"] = abomination["legacy_cards"][:11]
    abomination["devour_cards"] = abomination["devour_cards"] * 2
    docs = {"abomination:grudge": abomination}
    assert _found(tmp_path, docs) == [
        ("DM255", "abomination:grudge", "/devour_cards"),
        ("DM255", "abomination:grudge", "/legacy_cards"),
    ]


def _family_docs() -> dict[str, dict[str, Any]]:
    docs = {
        f"abomination:{a}": dict(copy.deepcopy(VALID["abomination"]), id=a)
        for a in ("grudge", "spite", "fury", "wrath")
    }
    docs["family:rage"] = copy.deepcopy(VALID["family"])
    return docs


def test_family_membership(tmp_path: Path) -> None:
    docs = _family_docs()
    assert _found(tmp_path, docs) == []
    members = ["wrath", "ire", "bile", "gall"]
    docs["family:sorrow"] = dict(
        copy.deepcopy(VALID["family"]),
        id="sorrow",
        abominations=members,
        punishments=[{"abomination": m, "text": "A wound."} for m in members],
    )
    docs["abomination:wrath"]["family"] = "sorrow"
    docs["abomination:rancor"] = dict(copy.deepcopy(VALID["abomination"]), id="rancor")
    assert _found(tmp_path, docs) == [
        ("DM256", "abomination:rancor", "/family"),  # names rage, which does not list it
        ("DM256", "family:rage", "/abominations/3"),  # lists wrath, which names sorrow
        ("DM256", "family:sorrow", "/abominations/0"),  # wrath is already rage's
    ]


def test_family_punishments(tmp_path: Path) -> None:
    docs = _family_docs()
    punishments = docs["family:rage"]["punishments"]
    punishments[1] = dict(punishments[1], abomination="grudge")
    punishments[2] = dict(punishments[2], abomination="rancor")
    docs["abomination:rancor"] = dict(
        copy.deepcopy(VALID["abomination"]), id="rancor", family="other"
    )
    found = [f for f in _found(tmp_path, docs) if f[0] == "DM257"]
    assert found == [
        ("DM257", "family:rage", "/punishments"),
        ("DM257", "family:rage", "/punishments"),
        ("DM257", "family:rage", "/punishments/1/abomination"),
        ("DM257", "family:rage", "/punishments/2/abomination"),
    ]


def test_endings_and_conclusions(tmp_path: Path) -> None:
    docs = _kit()
    book = docs["storybook:ashes-of-the-lantern"]
    book["endings"][3]["ending"] = "A"
    book["endings"][2]["conclusions"][0]["entry"] = 12
    book["endings"][1]["conclusions"][0]["legacy"] = "keeper-of-ash"
    assert _found(tmp_path, docs) == [
        ("DM258", "storybook:ashes-of-the-lantern", "/endings"),
        ("DM258", "storybook:ashes-of-the-lantern", "/endings/3/ending"),
        ("DM259", "storybook:ashes-of-the-lantern", "/endings/2/conclusions/0/entry"),
        ("DM260", "storybook:ashes-of-the-lantern", "/endings/1/conclusions/0/legacy"),
    ]


def test_envelope_rules(tmp_path: Path) -> None:
    docs = _kit()
    docs["wanderer:ilse-marrow"]["forgotten_envelope"] = [
        "second-sight",
        "steady-hands",
        "lantern-shard",
        "t-one",
    ]  # t-one: a terror
    assert _found(tmp_path, docs) == [
        ("DM261", "wanderer:ilse-marrow", "/domain_cards/locked/0"),
        ("DM261", "wanderer:ilse-marrow", "/finale_legacy_cards/0"),
        ("DM262", "wanderer:ilse-marrow", "/forgotten_envelope/1"),
        ("DM262", "wanderer:ilse-marrow", "/forgotten_envelope/2"),
        ("DM263", "wanderer:ilse-marrow", "/forgotten_envelope/3"),
    ]


def test_card_lock_and_owner(tmp_path: Path) -> None:
    docs = _kit()
    docs["existence-card:steady-hands"]["locked"] = True
    docs["domain-card:ember-key"].pop("wanderer")
    docs["domain-card:ember-key"]["locked"] = False
    docs["finale-legacy-card:keeper-of-ash"]["wanderer"] = "emily-hawkins"
    assert _found(tmp_path, docs) == [
        # the storybook's ending A now awards another wanderer's card
        ("DM260", "storybook:ashes-of-the-lantern", "/endings/0/conclusions/0/legacy"),
        ("DM264", "wanderer:ilse-marrow", "/dashboard/starting_existence_card"),
        ("DM264", "wanderer:ilse-marrow", "/domain_cards/locked/0"),
        ("DM264", "wanderer:ilse-marrow", "/existence_cards/basic/0"),
        ("DM265", "wanderer:ilse-marrow", "/domain_cards/locked/0"),
        ("DM265", "wanderer:ilse-marrow", "/finale_legacy_cards/0"),
    ]


def test_unlisted_cards_warn(tmp_path: Path) -> None:
    docs = _kit()
    me = "ilse-marrow"
    docs["terror:t-four"] = dict(_monster("terror", wanderer=me), id="t-four")
    docs["final-boss:b-two"] = dict(_monster("final-boss", wanderer=me), id="b-two")
    docs["wanderer-card:pill"] = dict(VALID["wanderer-card"], id="pill")
    docs["domain-card:ash-key"] = dict(VALID["domain-card"], id="ash-key")
    docs["terror:common"] = {k: v for k, v in _monster("terror").items() if k != "wanderer"}
    assert _found(tmp_path, docs) == [
        ("DM266", "domain-card:ash-key", "/wanderer"),
        ("DM266", "final-boss:b-two", "/wanderer"),
        ("DM266", "terror:t-four", "/wanderer"),
        ("DM266", "wanderer-card:pill", "/wanderer"),
    ]


def test_encounter_entry_kinds(tmp_path: Path) -> None:
    docs = {**_kit(), **_shards()}
    docs["world-shard:s2"]["encounter"]["kind"] = "reality_shard"
    docs["world-shard:s3"]["finale"]["encounters"][0]["entry"] = 12
    docs["finale-encounter-card:door"] = dict(VALID["finale-encounter-card"], id="door", entry=340)
    docs["encounter-card:stair"] = dict(VALID["encounter-card"], id="stair", entry=12)
    assert _found(tmp_path, docs) == [
        ("DM268", "finale-encounter-card:door", "/entry"),
        ("DM268", "world-shard:s2", "/encounter/entry"),
        ("DM268", "world-shard:s3", "/finale/encounters/0/entry"),
    ]

"""Deep Madness (R49-R55) beyond single fixtures: one handler for every effect and condition
of the chapter vocabulary, every chapter condition judged both ways by the fixtures, every
chapter of both expansions set up from content/ with each hazard resolving, and the board's
queries reproducing the worked examples content records from the rulebook."""

from __future__ import annotations

import fnmatch
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from dmtool.engine.core.policy import DefaultPolicy, ScriptedPolicy
from dmtool.engine.deep_madness import RULES, ScriptedDice, apply
from dmtool.engine.deep_madness.catalog import ChapterCatalog
from dmtool.engine.deep_madness.content import chapter_source, chapters_of
from dmtool.engine.deep_madness.setup import build_catalog, build_state
from dmtool.engine.deep_madness.state import ChapterState
from dmtool.loading import read_document
from dmtool.model.content_index import default_content_dir, index_for
from dmtool.scenarios.runner import run_path
from dmtool.validation.schemas import default_schema_dir

INDEX = index_for(default_content_dir())
FIXTURES = Path(__file__).parent / "scenarios" / "deep-madness"
DEFS = json.loads((default_schema_dir() / "deep-madness-defs.schema.json").read_text())
CHAPTERS = chapters_of(INDEX, "madness-reborn") + chapters_of(INDEX, "rise-of-dagon")


def _vocabulary(kind: str) -> set[str]:
    return set(DEFS["$defs"][kind]["propertyNames"]["enum"])


def test_every_effect_and_condition_of_the_vocabulary_has_one_handler() -> None:
    assert set(RULES.effects) == _vocabulary("effect")
    assert set(RULES.conditions) == _vocabulary("condition")


def _chapter_conditions() -> set[str]:
    refs: set[str] = set()
    for chapter in CHAPTERS:
        catalog = build_catalog(chapter_source(INDEX, chapter["id"]), {}, RULES)
        refs |= {ref for ref, _ in catalog.winning() + catalog.losing()}
        refs |= {f"{chapter['id']}/investigate/{n + 1}" for n in range(len(catalog.investigate()))}
    return refs


@pytest.fixture(scope="module")
def judged() -> dict[str, set[bool]]:
    """Every chapter condition the fixtures judged, with the results seen."""
    seen: dict[str, set[bool]] = {}
    for path in sorted(FIXTURES.glob("*.yaml")):
        result = run_path(path)
        assert result.status == "passed", (path.name, [d.message for d in result.diagnostics])
        for event in result.log:
            if event.get("event") == "judged":
                for ref in event.get("held", []):
                    seen.setdefault(ref, set()).add(True)
                for ref in event.get("unheld", []):
                    seen.setdefault(ref, set()).add(False)
    return seen


def test_every_chapter_condition_has_fixtures_where_it_holds_and_where_it_does_not(
        judged: dict[str, set[bool]]) -> None:
    wanted = _chapter_conditions()
    assert len(wanted) > 30
    never = sorted(ref for ref in wanted if ref not in judged)
    one_way = sorted(f"{ref} (only {judged[ref]})" for ref in wanted
                     if ref in judged and judged[ref] != {True, False})
    assert not never, f"chapter conditions no fixture judges: {never}"
    assert not one_way, f"chapter conditions judged one way only: {one_way}"


def _described(chapter: dict[str, Any]) -> dict[str, Any]:
    """A generic described setup from the chapter alone: one space per room in a row, two
    investigators, the chapter's own monsters on the last room, and one of every component
    the chapter counts lying on the first room."""
    rooms = list(dict.fromkeys(chapter["board"]["rooms"]))
    spaces = {f"R{r}": r for r in rooms}
    names = list(spaces)
    held = [{"component": "consciousness-tokens", "colour": "red"}] if any(
        c["id"] == "consciousness-tokens" for c in chapter["components"]) else []
    card = {"id": "card", "face_up": False, "filth_cards": ["f1"], "tokens": 0}
    figures = {m["id"]: {"monster": m["id"], "space": names[-1]}
               for m in chapter["monsters"] if m.get("figure")}
    pieces = [c["id"] for c in chapter["components"]
              if c["source"] == "expansion" and not c.get("pool")
              and not c["id"].endswith(("figure", "figures"))
              and c["id"] not in ("filth-cards", "infection-cards", "chapter-specific-monster-cards",
                                  "chapter-specific-monster-card", "scenario-cards")]
    return {
        "board": {"spaces": spaces, "lines": [[a, b] for a, b in itertools.pairwise(names)],
                  "sight": [names], "spawn_spaces": {str(r): f"R{r}" for r in rooms}},
        "investigators": {
            "ada": {"space": names[0], "held": held, "infection_card": dict(card)},
            "ben": {"space": names[0], "held": [dict(h) for h in held],
                    "infection_card": dict(card)}},
        "figures": figures,
        "pieces": {names[0]: [{"component": c, "state": "face_down"}
                              if c in ("secret-markers", "ritual-markers") else c
                              for c in pieces]},
        "filth_cards": {"f1": 0, "f2": 0},
        "decks": {"filth": ["f2"]},
        "devoured": rooms[:1],
    }


class AnyDice(ScriptedDice):
    """Answers every roll (a test of the chapters, not of strict scripts): named results
    hit, numbers count up so that ties break."""

    count: int = 0

    def roll(self, who: str, die: str, why: str, *, number: bool = False) -> Any:
        self.count += 1
        if number:
            return self.count % 6 + 1
        return "failure" if "failure" in why else "claw"


def _start(chapter: dict[str, Any]) -> tuple[ChapterState, ChapterCatalog]:
    setup = _described(chapter)
    catalog = build_catalog(chapter_source(INDEX, chapter["id"]), setup, RULES)
    state = build_state(catalog, setup, RULES)
    done = apply(state, catalog, {"start": {}}, dice=AnyDice(), policy=DefaultPolicy())
    assert done.ok, done
    return done.state, catalog  # type: ignore[union-attr]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c["id"] for c in CHAPTERS])
def test_every_chapter_is_set_up_from_content_and_each_hazard_resolves(
        chapter: dict[str, Any]) -> None:
    state, catalog = _start(chapter)
    assert state.outcome == "ongoing", (chapter["id"], state.reason)
    assert set(state.supply) >= {c.id for c in catalog.components.values()
                                 if c.size is not None and c.id not in catalog.monsters}
    hazards = catalog.hazards()
    assert hazards
    for number, hazard in enumerate(hazards, start=1):
        which = number if hazard["skull"] == "unlabelled" else hazard["skull"]
        done = apply(state, catalog, {"hazard": which}, dice=AnyDice(), policy=DefaultPolicy())
        assert done.ok, (chapter["id"], which, done)
        kinds = [e["event"] for e in done.events]  # type: ignore[union-attr]
        assert "hazard" in kinds
        unresolved = [e for e in done.events if e["event"] == "not_resolved"  # type: ignore[union-attr]
                      and "already" not in e["reason"]]  # a second token refused: max held
        assert not unresolved, (chapter["id"], which, unresolved)
        resolved = [k for k in kinds if k not in ("hazard", "judged")]
        assert resolved, (chapter["id"], which)
        if done.state.outcome != "ongoing":  # type: ignore[union-attr]
            break
        state = done.state  # type: ignore[union-attr]


def test_a_chapter_setup_names_its_pools_after_the_manifest() -> None:
    state, _ = _start(next(c for c in CHAPTERS if c["id"] == "the-dreamlands"))
    assert len(state.supply["noise-tokens"]) == 24  # "24 Noise Tokens"
    state, _ = _start(next(c for c in CHAPTERS if c["id"] == "rite-of-bile"))
    on_board = sum(1 for f in state.figures.values() if f.monster == "hydra")
    assert len(state.reserve["hydra"]) + on_board == 5  # "5 Hydras"
    assert len(state.reserve["hydras-domain"]) + on_board == 5  # five colour pairs
    assert len(state.supply["infection-tokens"]) == 9
    assert all(i.infection_card is not None for i in state.investigators.values())


def _example_board(example: dict[str, Any]) -> dict[str, Any]:
    fixture = FIXTURES / f"r49-{example['id']}.yaml"
    loaded = read_document(fixture).document
    assert loaded is not None
    return dict(loaded.data["setup"])


RED_LINES = next(r for r in (INDEX.get("expansion-rules", "rise-of-dagon-rules") or {})["rules"]
                 if r["title"] == "Red Space Lines")


@pytest.mark.parametrize("example", RED_LINES["examples"], ids=lambda e: e["id"])
def test_the_red_line_examples_match_what_content_records(example: dict[str, Any]) -> None:
    setup = _example_board(example)
    catalog = build_catalog(chapter_source(INDEX, "rite-of-bile"), setup, RULES)
    board = catalog.board
    for space in example["spaces"]:
        start = space.get("from_space", "X")
        seen = board.line_of_sight(start, space["space"])
        assert seen is space["line_of_sight"], space
        if "range" in space:
            assert board.range(start, space["space"]) == space["range"], space
            assert board.distance(start, space["space"]) == space["distance"], space


def test_a_step_of_the_other_game_is_refused() -> None:
    chapter = CHAPTERS[0]
    setup = _described(chapter)
    catalog = build_catalog(chapter_source(INDEX, chapter["id"]), setup, RULES)
    state = build_state(catalog, setup, RULES)
    done = apply(state, catalog, {"wanderer": "ada", "pass": {}}, dice=ScriptedDice(),
                 policy=ScriptedPolicy())
    assert not done.ok and done.code == "bad_action"  # type: ignore[union-attr]


def test_the_readings_name_fixtures_that_exist() -> None:
    text = (Path(__file__).parents[1] / "dmtool" / "engine" / "AMBIGUITIES.md").read_text()
    section = text.split("# Deep Madness", 1)[1]
    named = set(re.findall(r"`(r\d\d-[a-z0-9*-]+)`", section))
    assert named
    ids = {p.stem for p in FIXTURES.glob("*.yaml")}
    missing = [n for n in named if not any(fnmatch.fnmatch(i, n) for i in ids)]
    assert not missing, missing


def test_a_handler_taking_a_flag_is_not_typed_as_a_mapping() -> None:
    """An effect or condition written `name: true` (or a number) hands its handler that
    value: a handler annotated `dict` passes in the pure engine and crashes once mypyc
    compiles it, so the annotation must fit the schema."""
    defs = json.loads((default_schema_dir() / "deep-madness-defs.schema.json").read_text())
    tables = {"effect": RULES.effects, "condition": RULES.conditions}
    wrong = []
    for kind, table in tables.items():
        for name, spec in defs["$defs"][kind]["properties"].items():
            scalar = "const" in spec or spec.get("type") in ("boolean", "integer", "string")
            hints = getattr(table.get(name), "__annotations__", {})
            value = [v for k, v in hints.items() if k not in ("ctx", "return")]
            if scalar and value and "dict" in str(value[0]):
                wrong.append(f"{kind} {name}: {value[0]}")
    assert not wrong, wrong

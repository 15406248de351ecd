"""The Rise of Dagon campaign (R53) played through its three transitions with a state file:
each chapter starts from the file, each win rewrites it with exactly what the chapter's
closing note keeps, and a broken or out-of-order file is a located diagnostic."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from dmtool.engine.core.policy import ScriptedPolicy
from dmtool.engine.deep_madness import RULES, ScriptedDice, apply
from dmtool.engine.deep_madness import campaign as campaigns
from dmtool.engine.deep_madness.content import chapter_source
from dmtool.engine.deep_madness.setup import build_catalog, build_state
from dmtool.engine.deep_madness.state import ChapterState
from dmtool.model.content_index import default_content_dir, index_for
from dmtool.writing import AlreadyExists, ChangedMeanwhile

INDEX = index_for(default_content_dir())
CAMPAIGN = INDEX.get("campaign", "rise-of-dagon-campaign") or {}


def _play(chapter: str, setup: dict[str, Any], steps: list[dict[str, Any]],
          state_file: Path) -> ChapterState:
    """Start `chapter` from the campaign file, play the steps, and write the file back."""
    before = state_file.read_bytes()
    data, problems = campaigns.read_campaign(state_file, chapter=chapter, campaign=CAMPAIGN)
    assert data is not None, [d.message for d in problems]
    source = chapter_source(INDEX, chapter)
    setup = campaigns.into_setup(data, setup)
    catalog = build_catalog(source, setup, RULES)
    state = build_state(catalog, setup, RULES)
    for step in steps:
        done = apply(state, catalog, step, dice=ScriptedDice(), policy=ScriptedPolicy())
        assert done.ok, done
        state = done.state  # type: ignore[union-attr]
    campaigns.write_campaign(state_file, campaigns.advance(data, state, catalog),
                             replacing=before)
    return state


def _board(rooms: list[int]) -> dict[str, Any]:
    spaces = {f"R{r}": r for r in rooms}
    names = list(spaces)
    return {"spaces": spaces, "lines": [[a, b] for a, b in itertools.pairwise(names)],
            "spawn_spaces": {str(r): f"R{r}" for r in rooms}}


def test_three_chapters_in_order_with_a_state_file(tmp_path: Path) -> None:
    state_file = tmp_path / "thursday.yaml"
    campaigns.write_campaign(state_file, campaigns.new_campaign(CAMPAIGN, "thursday"))
    with pytest.raises(AlreadyExists):  # never overwritten silently
        campaigns.write_campaign(state_file, campaigns.new_campaign(CAMPAIGN, "again"))

    # Chapter one: the setup deals face-down infection cards; filth cards gather on Ada's;
    # Ben's face-up card resolves his at once; the sixth Hydra killed wins.
    one = _play("rite-of-bile", {
        "board": _board([2, 3, 4, 10, 12, 19, 26, 29, 34]),
        "investigators": {"ada": {"space": "R34", "search_cards": ["sacrificial-dagger"]},
                          "ben": {"space": "R34"}},
        "monsters": {"hydra": {"max_health": 1}},
        "figures": {"hydra-pair-1": {"monster": "hydra", "space": "R2", "colour": "pair-1"}},
        "killed": {"hydra": 5},
        "filth_cards": {"f1": 1, "f2": 2, "f3": 0},
        "decks": {"filth": ["f1", "f2", "f3"]},
    }, [{"start": {}},
        {"investigator": "ada", "gain": {"component": "filth-cards", "count": 2}},
        {"investigator": "ben", "gain": {"component": "infection-tokens"}},
        {"kill": {"figure": "hydra-pair-1"}}], state_file)
    assert one.outcome == "won"
    after_one, _ = campaigns.read_campaign(state_file, chapter="virulent-whispers",
                                           campaign=CAMPAIGN)
    assert after_one is not None
    assert after_one["completed"] == ["rite-of-bile"]
    assert after_one["next_chapter"] == "virulent-whispers"
    ada = after_one["investigators"]["ada"]
    assert ada["search_cards"] == ["sacrificial-dagger"]
    assert ada["infection_card"]["face_up"] is False
    assert ada["infection_card"]["filth_cards"] == ["f1", "f2"]  # kept face down, unseen
    assert after_one["investigators"]["ben"]["infection_tokens"] == 1

    # Chapter two: Ben (infected) turns the last secret; the win reveals Ada's card.
    two = _play("virulent-whispers", {
        "board": _board([2, 3, 4, 9, 12, 24, 31, 34, 35]),
        "investigators": {"ada": {"space": "R9"}, "ben": {"space": "R24"}},
        "pieces": {"R9": [{"component": "secret-markers", "state": "face_up"}],
                   "R12": ["novel-markers"],
                   "R24": [{"component": "secret-markers", "state": "face_down"}]},
        "filth_cards": {"f1": 0, "f2": 1, "f4": 0},
        "decks": {"filth": ["f4"]},
    }, [{"start": {}}, {"investigator": "ben", "investigate": 2}], state_file)
    assert two.outcome == "won"
    after_two, _ = campaigns.read_campaign(state_file, chapter="dagon-rising", campaign=CAMPAIGN)
    assert after_two is not None
    assert after_two["completed"] == ["rite-of-bile", "virulent-whispers"]
    # Ada's card was revealed at the win (0 + 0 + 1: one filth token; a third infected
    # investigator would have lost it), and chapter two's note keeps no filth cards.
    assert after_two["investigators"]["ada"]["infection_card"]["face_up"] is True
    assert after_two["investigators"]["ada"]["infection_card"]["filth_cards"] == []
    assert after_two["investigators"]["ada"]["filth_tokens"] == 1
    assert after_two["investigators"]["ben"]["infection_tokens"] == 1

    # Chapter three: the wrong chapter cannot start from the file; the right one can, and
    # non-infected Ada removes the last face-up ritual marker: the campaign is won.
    wrong, problems = campaigns.read_campaign(state_file, chapter="rite-of-bile",
                                              campaign=CAMPAIGN)
    assert wrong is None and [d.code for d in problems] == ["DM426"]
    three = _play("dagon-rising", {
        "board": _board([2, 9, 17, 23, 25, 28, 29, 32, 33, 35]),
        "investigators": {"ada": {"space": "R9"}, "ben": {"space": "R2"}},
        "pieces": {"R9": [{"component": "ritual-markers", "state": "face_up"}]},
    }, [{"investigator": "ada", "investigate": 2}], state_file)
    assert three.outcome == "won"
    finished, problems = campaigns.read_campaign(state_file, chapter="dagon-rising",
                                                 campaign=CAMPAIGN)
    assert finished is None and [d.code for d in problems] == ["DM426"]
    text = state_file.read_text(encoding="utf-8")
    assert 'status: "won"' in text and "next_chapter: null" in text
    assert "dagon-rising/winning/1" in text


def test_a_lost_chapter_ends_the_campaign(tmp_path: Path) -> None:
    state_file = tmp_path / "lost.yaml"
    campaigns.write_campaign(state_file, campaigns.new_campaign(CAMPAIGN, "lost"))
    state = _play("rite-of-bile", {
        "board": _board([34]),
        "investigators": {"ada": {"space": "R34"}, "ben": {"space": "R34"}},
    }, [{"investigator": "ada", "die": {}}], state_file)
    assert state.outcome == "lost"
    data, problems = campaigns.read_campaign(state_file, chapter="virulent-whispers",
                                             campaign=CAMPAIGN)
    assert data is None and [d.code for d in problems] == ["DM426"]
    assert "rise-of-dagon-rules/losing/4" in state_file.read_text(encoding="utf-8")


def test_a_corrupt_file_is_a_located_diagnostic_and_left_alone(tmp_path: Path) -> None:
    state_file = tmp_path / "broken.yaml"
    state_file.write_text("kind: chapter-campaign-state\nid: broken\ncampaign: [\n",
                          encoding="utf-8")
    before = state_file.read_bytes()
    data, problems = campaigns.read_campaign(state_file, chapter="rite-of-bile",
                                             campaign=CAMPAIGN, display="broken.yaml")
    assert data is None and problems
    assert all(d.location.path == "broken.yaml" and d.location.line for d in problems)
    assert state_file.read_bytes() == before
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("kind: chapter-campaign-state\nid: w\ncampaign: rise-of-dagon-campaign\n"
                     "status: ongoing\ncompleted: [virulent-whispers]\nnext_chapter: dagon-rising\n"
                     "investigators: {}\n", encoding="utf-8")
    data, problems = campaigns.read_campaign(wrong, chapter="dagon-rising", campaign=CAMPAIGN)
    assert data is None and [(d.code, d.location.line) for d in problems] == [("DM426", 5)]


def test_a_file_changed_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    state_file = tmp_path / "busy.yaml"
    campaigns.write_campaign(state_file, campaigns.new_campaign(CAMPAIGN, "busy"))
    read = state_file.read_bytes()
    state_file.write_text(state_file.read_text() + "# someone else's edit\n")
    with pytest.raises(ChangedMeanwhile):
        campaigns.write_campaign(state_file, campaigns.new_campaign(CAMPAIGN, "busy"),
                                 replacing=read)
    assert state_file.read_text().endswith("# someone else's edit\n")

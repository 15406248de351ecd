"""The campaign state file: written atomically, read back exactly, problems located (never a
crash), and carried across a campaign of three games with one wanderer."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from dmtool.engine.dawn_of_madness.campaign import (
    CampaignState,
    from_game,
    read_campaign,
    render,
    reset_wanderer,
    write_campaign,
)
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.loading import read_document
from dmtool.model.content_index import default_content_dir
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.writing import WriteFailed

WANDERER = "hollis-brandt"


@cache
def catalog() -> Catalog:
    return load_catalog(default_content_dir(), WANDERER)


def sample() -> CampaignState:
    return CampaignState(
        id="thursday", title="Thursday group: \"the dam\"", games_played=2,
        wanderers={WANDERER: {"unlocked": ["maren-waits", "the-sluice-key"],
                              "legacy_cards": ["the-accretion/legacy-4"],
                              "finale_legacy": "concrete-heart"}},
        lineage={"the-settling": ["the-ashfall-widow"]},
        history=[{"game": 1, "seed": 3, "outcome": "failed", "reason": "tenth_round"}])


def test_written_state_reads_back_the_same_and_fits_its_schema(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    write_campaign(path, sample())
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert text.splitlines()[1] == "kind: campaign-state"
    read, problems = read_campaign(path, catalog=catalog())
    assert problems == [] and read is not None
    assert read.to_data() == sample().to_data()
    doc = read_document(path).document
    assert doc is not None
    assert not list(SchemaSet(default_schema_dir()).validator("campaign-state")
                    .iter_errors(doc.data))


def test_modeline_points_at_the_schema_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "state.yaml"
    first = render(sample(), path).splitlines()[0]
    target = (path.parent / first.split("$schema=")[1]).resolve()
    assert target == (default_schema_dir() / "campaign-state.schema.json").resolve()


def test_a_missing_file_starts_a_new_campaign(tmp_path: Path) -> None:
    read, problems = read_campaign(tmp_path / "Our Campaign.yaml")
    assert problems == [] and read is not None
    assert (read.id, read.games_played, read.wanderers) == ("our-campaign", 0, {})


def test_a_crash_while_writing_keeps_the_previous_state(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "campaign.yaml"
    write_campaign(path, sample())
    before = path.read_bytes()
    newer = sample()
    newer.games_played = 3

    def crash(*_: object) -> None:
        raise OSError("power cut")

    monkeypatch.setattr("dmtool.writing.files.os.replace", crash)
    with pytest.raises(WriteFailed, match=r"cannot write .*campaign\.yaml: power cut"):
        write_campaign(path, newer, replacing=before)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.yaml"]


@pytest.mark.parametrize("text, code, line", [
    # An unclosed bracket is reported at the bracket itself (line 3), not where the text ends.
    ("kind: campaign-state\nid: x\nwanderers: {hollis-brandt: [oops\n", "DM0", 3),
    ("kind: campaign-state\nid: x\ngames_played: -2\n", "DM1", 3),
    ("kind: campaign-state\nid: x\nwanderers:\n  hollis-brant: {}\n", "DM424", 4),
    ("kind: campaign-state\nid: x\nwanderers:\n  hollis-brandt:\n    unlocked: [maren-wait]\n",
     "DM424", 5),
    ("kind: campaign-state\nid: x\nwanderers:\n  hollis-brandt:\n"
     "    finale_legacy: concrete-hart\n", "DM424", 5),
    ("kind: campaign-state\nid: x\nlineage:\n  the-settling: [the-maw]\n", "DM425", 4),
    ("kind: campaign-state\nid: x\nwanderers:\n  hollis-brandt:\n"
     "    legacy_cards: [the-accretion/legacy-1, the-accretion/legacy-2]\n", "DM425", 5),
])
def test_a_bad_file_is_a_located_diagnostic(tmp_path: Path, text: str, code: str,
                                            line: int) -> None:
    path = tmp_path / "campaign.yaml"
    path.write_text(text, encoding="utf-8")
    read, problems = read_campaign(path, catalog=catalog())
    assert read is None
    assert problems and problems[0].code.startswith(code), problems
    assert problems[0].location.line == line and problems[0].location.path.endswith(
        "campaign.yaml")


def test_one_legacy_card_cannot_be_held_twice(tmp_path: Path) -> None:
    two = replace(catalog(), wanderers={**catalog().wanderers, "ilse-marrow": {}})
    path = tmp_path / "campaign.yaml"
    path.write_text("kind: campaign-state\nid: x\nwanderers:\n  hollis-brandt:\n"
                    "    legacy_cards: [the-accretion/legacy-1]\n  ilse-marrow:\n"
                    "    legacy_cards: [the-accretion/legacy-1]\n")
    read, problems = read_campaign(path, catalog=two)
    assert read is None
    assert [(d.code, d.location.line) for d in problems] == [("DM425", 7)]
    assert "also held by hollis-brandt" in problems[0].message


def test_did_you_mean_for_an_unknown_wanderer(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    path.write_text("kind: campaign-state\nid: x\nwanderers:\n  hollis-brant: {}\n")
    _, problems = read_campaign(path, catalog=catalog())
    assert problems[0].hint == "did you mean 'hollis-brandt'?"


def test_play_refuses_a_corrupt_file_and_leaves_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    path.write_text("kind: campaign-state\nid: x\ngames_played: lots\n")
    out: list[str] = []
    assert run_play(PlayOptions(seed=1, campaign=path, log=False), emit=out.append) == 1
    assert "campaign.yaml:3:15: error DM1" in "".join(out)
    assert path.read_text() == "kind: campaign-state\nid: x\ngames_played: lots\n"


def test_reset_returns_everything_of_one_wanderer() -> None:
    reset = reset_wanderer(sample(), WANDERER)
    assert reset.wanderers == {}
    assert reset.lineage == sample().lineage  # lineage belongs to the families


def _starting_sheet(campaign: CampaignState) -> dict[str, int]:
    """Hollis's starting sentience from his dashboard, finale legacy and passive legacy."""
    sheet = dict(catalog().wanderers[WANDERER]["dashboard"]["sentience"])
    progress = campaign.wanderers.get(WANDERER, {})
    changes: list[dict[str, int]] = []
    finale = progress.get("finale_legacy")
    if finale:
        card = catalog().finale_legacy_cards[finale]
        changes.append(card.get("sentience", {}))
        changes += [e["modify_sentience"] for e in card.get("effects", [])
                    if "modify_sentience" in e]
    for cid in progress.get("legacy_cards", []):
        card = catalog().legacy_card(cid) or {}
        if card.get("type") == "passive":
            changes += [e["modify_sentience"] for e in card.get("effects", [])
                        if "modify_sentience" in e]
    for change in changes:
        for colour, n in change.items():
            sheet[colour] += n
    return sheet


def test_a_campaign_of_three_games_keeps_unlocked_cards_and_legacy(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    unlocked_so_far: set[str] = set()
    for number, seed in enumerate((0, 7, 11), start=1):
        campaign, problems = read_campaign(path, catalog=catalog())
        assert campaign is not None and not problems
        progress = campaign.wanderers.get(WANDERER, {})
        assert set(progress.get("unlocked", [])) == unlocked_so_far
        result = play(catalog(), NewGame(WANDERER, seed), policy="greedy", campaign=campaign,
                      keep_states=True)
        start = result.states[0]
        hollis = start.wanderers[WANDERER]
        # Unlocked existence cards are in his existence deck, unlocked domain cards in play.
        for card in unlocked_so_far:
            if card in catalog().existence_cards:
                assert card in hollis.existence_deck + hollis.existence_cards
            else:
                assert card in start.decks["domain"] + hollis.domain_cards
        assert hollis.sentience == _starting_sheet(campaign)
        assert start.legacy.get(WANDERER, []) == progress.get("legacy_cards", [])
        updated = from_game(campaign, result.state, catalog(), keep=set(catalog().wanderers),
                            seed=seed)
        write_campaign(path, updated, replacing=path.read_bytes() if path.exists() else None)
        saved, _ = read_campaign(path, catalog=catalog())
        assert saved is not None and saved.games_played == number
        mine = saved.wanderers[WANDERER]
        assert mine["legacy_cards"] == result.state.legacy.get(WANDERER, [])
        assert mine["finale_legacy"] == result.state.finale_legacy.get(WANDERER)
        assert len([c for c in mine["legacy_cards"] if c.startswith("the-accretion/")]) <= 1
        assert "stand-in-2" not in saved.wanderers
        unlocked_so_far |= set(result.state.unlocked)
        assert set(mine["unlocked"]) == unlocked_so_far
    assert unlocked_so_far, "three greedy games unlocked nothing: pick other seeds"
    assert saved.history[-1]["game"] == 3 and len(saved.history) == 3


def test_run_play_with_a_campaign_file(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    out: list[str] = []
    code = run_play(PlayOptions(seed=0, games=3, campaign=path, log=False, policy="greedy"),
                    emit=out.append)
    assert code == 0
    saved, problems = read_campaign(path, catalog=catalog())
    assert saved is not None and not problems
    assert saved.games_played == 3 and [h["seed"] for h in saved.history] == [0, 1, 2]
    assert sum("campaign state saved" in line for line in out) == 3

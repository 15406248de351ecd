"""Fixture setup for rules part 2: endings and the finale, devour and condition decks,
legacy, lineage and the campaign state a game starts from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dmtool.engine.dawn_of_madness.campaign import CampaignState, into_game, read_campaign
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.model.content_index import ContentIndex
from dmtool.scenarios.borrow import borrow

Parts = tuple[Any, ...]
STATE_FIELDS = ("stage", "outcome", "reason", "ending", "wanderer_outcome", "wrapped_up")


class CampaignProblem(Exception):
    """The campaign state file a fixture names cannot be used: its located diagnostics."""

    def __init__(self, diagnostics: list[Any]) -> None:
        super().__init__("campaign state file problems")
        self.diagnostics = diagnostics


def story_parts(setup: dict[str, Any], content: ContentIndex) -> dict[str, Any]:
    """The storybook's special setup and endings (inline, or from the content storybook)."""
    book = setup.get("storybook")
    if isinstance(book, str):
        book = content.get("storybook", book) or {}
    return book if isinstance(book, dict) else {}


def extend_catalog(setup: dict[str, Any], catalog: Catalog, content: ContentIndex) -> None:
    book = story_parts(setup, content)
    catalog.setup = dict(book.get("setup", {}))
    catalog.endings = {e["ending"]: e for e in book.get("endings", [])}
    for key, body in setup.get("shards", {}).items():
        if "finale" in body:
            catalog.shards.setdefault(int(key), {})["finale"] = dict(body["finale"])
    cards = setup.get("cards", {})
    for section, kind, target in (
            ("finale_encounter_cards", "finale-encounter-card", catalog.finale_cards),
            ("finale_legacy_cards", "finale-legacy-card", catalog.finale_legacy_cards),
            ("devour_cards", "devour-card", catalog.devour_cards),
            ("families", "family", catalog.families)):
        for cid, body in cards.get(section, {}).items():
            target[cid] = _borrow(content, kind, body)
    for card in catalog.monsters.values():
        family = card.get("family")
        if card.get("kind") == "abomination" and family and family not in catalog.families:
            found = content.get("family", family)
            if found is not None:
                catalog.families[family] = found


def _borrow(content: ContentIndex, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    return borrow(content, kind, body, ("setup", "cards"))


def extend_state(setup: dict[str, Any], state: GameState, catalog: Catalog,
                 base: Path | None, display: str | None) -> None:
    for name in STATE_FIELDS:
        if name in setup:
            setattr(state, name, setup[name])
    state.condition_decks = {
        kind: [kind] * spec if isinstance(spec, int) else list(spec)
        for kind, spec in setup.get("condition_decks", {}).items()}
    state.legacy_used = {k: list(v) for k, v in setup.get("legacy_used", {}).items()}
    campaign = setup.get("campaign")
    if isinstance(campaign, str):
        path = (base / campaign) if base is not None else Path(campaign)
        shown = (Path(display).parent / campaign).as_posix() if display else campaign
        read, problems = read_campaign(path, catalog=catalog, display=shown)
        if read is None:
            raise CampaignProblem(problems)
        into_game(read, state)
    elif isinstance(campaign, dict):
        into_game(CampaignState.from_data(campaign), state)

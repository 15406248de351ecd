"""The campaign state file: what games hand on to later games, read at setup and written
atomically (the old file stays whole until the new one replaces it) when a game ends."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.engine.core.modeline import schema_modeline
from dmtool.engine.dawn_of_madness.campaign_checks import check_campaign
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.loading import read_document
from dmtool.writing import create_file, rewrite_file

KIND = "campaign-state"
_PLAIN = re.compile(r"^[a-z0-9][a-z0-9/-]*$")


@dataclass
class CampaignState:
    """The campaign as plain values (the document of kind 'campaign-state')."""

    id: str = "campaign"
    title: str | None = None
    games_played: int = 0
    wanderers: dict[str, dict[str, Any]] = field(default_factory=dict)
    unlocked: list[str] = field(default_factory=list)
    lineage: dict[str, list[str]] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> CampaignState:
        return cls(
            str(data.get("id", "campaign")), data.get("title"), int(data.get("games_played", 0)),
            {w: {"unlocked": list(v.get("unlocked", [])),
                 "legacy_cards": list(v.get("legacy_cards", [])),
                 "finale_legacy": v.get("finale_legacy")}
             for w, v in (data.get("wanderers") or {}).items()},
            list(data.get("unlocked", [])),
            {f: list(a) for f, a in (data.get("lineage") or {}).items()},
            [dict(h) for h in data.get("history", [])],
        )

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": KIND, "id": self.id}
        if self.title:
            data["title"] = self.title
        data["games_played"] = self.games_played
        data["wanderers"] = {
            w: {k: v[k] for k in ("unlocked", "legacy_cards", "finale_legacy")}
            for w, v in sorted(self.wanderers.items())}
        data["unlocked"] = list(self.unlocked)
        data["lineage"] = {f: list(a) for f, a in sorted(self.lineage.items())}
        data["history"] = [dict(h) for h in self.history]
        return data

    def progress(self, wid: str) -> dict[str, Any]:
        return self.wanderers.setdefault(
            wid, {"unlocked": [], "legacy_cards": [], "finale_legacy": None})


def into_game(campaign: CampaignState, state: GameState) -> None:
    """Hand the campaign to a game being set up (start_game then applies it)."""
    unlocked = list(campaign.unlocked)
    for progress in campaign.wanderers.values():
        unlocked += [c for c in progress.get("unlocked", []) if c not in unlocked]
    state.unlocked = unlocked
    state.legacy = {w: list(p.get("legacy_cards", [])) for w, p in campaign.wanderers.items()
                    if p.get("legacy_cards")}
    state.finale_legacy = {w: p["finale_legacy"] for w, p in campaign.wanderers.items()
                           if p.get("finale_legacy")}
    state.lineage = {f: list(a) for f, a in campaign.lineage.items()}


def from_game(campaign: CampaignState, state: GameState, catalog: Catalog, *,
              keep: set[str], seed: int | None = None) -> CampaignState:
    """The campaign after a finished game. Only wanderers in `keep` (content wanderers, not
    stand-ins) are recorded; others keep what the campaign had."""
    out = CampaignState.from_data(campaign.to_data())
    for card in state.unlocked:
        owner = catalog.owner(card)
        if owner in keep:
            listed = out.progress(owner)["unlocked"]
            if card not in listed:
                listed.append(card)
        elif owner is None and card not in out.unlocked:
            out.unlocked.append(card)
    for wid in sorted(w for w in keep if w in state.wanderers or w in out.wanderers):
        progress = out.progress(wid)
        progress["legacy_cards"] = list(state.legacy.get(wid, []))
        progress["finale_legacy"] = state.finale_legacy.get(wid)
    out.lineage = {f: list(a) for f, a in state.lineage.items()}
    out.games_played += 1
    out.history.append({
        "game": out.games_played, "seed": seed, "central": state.central,
        "wanderers": list(state.wanderers), "abomination": state.abomination,
        "outcome": "concluded" if state.stage == "finale" else "failed",
        "reason": state.reason, "ending": state.ending,
        "conclusion": (state.conclusion or {}).get("entry"), "scores": dict(state.scores)})
    return out


def reset_wanderer(campaign: CampaignState, wid: str) -> CampaignState:
    """Unlocked cards, legacy cards and the finale legacy card all go back."""
    out = CampaignState.from_data(campaign.to_data())
    out.wanderers.pop(wid, None)
    return out


def read_campaign(path: Path, *, catalog: Catalog | None = None,
                  display: str | None = None) -> tuple[CampaignState | None, list[Diagnostic]]:
    """Read a state file: (state, []) or (None, located diagnostics). A missing file is a
    new campaign named after the file."""
    if not path.exists():
        return CampaignState(id=_slug(path.stem)), []
    loaded = read_document(path, display or path.as_posix())
    if loaded.document is None:
        return None, loaded.diagnostics
    found = list(loaded.diagnostics) + check_campaign(loaded.document, catalog)
    if any(d.severity.value == "error" for d in found):
        return None, found
    return CampaignState.from_data(loaded.document.data), found


def write_campaign(path: Path, campaign: CampaignState, *, replacing: bytes | None = None) -> None:
    """Write the state in one step (a crash mid-write leaves the previous state intact),
    through a symbolic link to its target. `replacing` is what the file held when it was
    read (None: there was no file); a file changed since is refused, never overwritten."""
    if replacing is None:
        create_file(path, render(campaign, path))
    else:
        rewrite_file(path, render(campaign, path), expected=replacing)


def render(campaign: CampaignState, path: Path | None = None) -> str:
    lines = [schema_modeline(KIND, path)]
    lines += _emit(campaign.to_data(), 0)
    return "\n".join(lines) + "\n"


def _emit(data: dict[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    for key, value in data.items():
        if isinstance(value, dict) and value:
            out.append(f"{pad}{key}:")
            out += _emit(value, indent + 2)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"{pad}{key}:")
            for item in value:
                out.append(f"{pad}  - {_flow(item)}")
        else:
            out.append(f"{pad}{key}: {_flow(value)}")
    return out


def _flow(value: Any) -> str:
    """One value in YAML flow style (strings quoted unless they are plain ids)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str) and _PLAIN.match(value) and value not in (
            "null", "true", "false", "yes", "no", "on", "off") and not _numeric(value):
        return value
    return json.dumps(value, ensure_ascii=False)


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "campaign"

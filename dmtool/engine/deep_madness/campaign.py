"""A campaign of chapters (Rise of Dagon, R53): chapters played in order, and exactly what each
chapter's closing note says the investigators keep carried into the next one.

The state is plain data of kind 'chapter-campaign-state'; reading it gives located
diagnostics (never an exception), and writing replaces the file in one step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.modeline import schema_modeline
from dmtool.engine.deep_madness.catalog import ChapterCatalog
from dmtool.engine.deep_madness.records import Investigator
from dmtool.engine.deep_madness.state import ChapterState
from dmtool.loading import SourceDocument, read_document
from dmtool.validation.schema_errors import schema_diagnostics
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.writing import create_file, rewrite_file

KIND = "chapter-campaign-state"
# What each kept component id of a closing note carries, on the investigator's sheet.
CARRIED = ("search-cards", "infection-cards", "filth-cards", "infection-tokens", "filth-tokens")


def order(campaign: dict[str, Any]) -> list[str]:
    return [str(step["chapter"]) for step in campaign.get("chapters", [])]


def keeps(campaign: dict[str, Any], chapter: str) -> list[str]:
    """The components a chapter's closing note lists (none after the last chapter)."""
    step: dict[str, Any] = next((s for s in campaign.get("chapters", []) if s["chapter"] == chapter),
                                {})
    return [k for k in step.get("keeps", []) if k in CARRIED]


def carried(inv: Investigator, kept: list[str]) -> dict[str, Any]:
    """Exactly what the note lists, from one investigator's sheet; face-down cards stay
    face down (an infection card is kept as it is, its filth cards only if listed)."""
    card = inv.infection_card
    return {
        "search_cards": list(inv.search_cards) if "search-cards" in kept else [],
        "infection_card": None if card is None or "infection-cards" not in kept else {
            "id": card.id, "face_up": card.face_up,
            "filth_cards": list(card.filth_cards) if "filth-cards" in kept else [],
            "tokens": card.tokens},
        "infection_tokens": inv.infection_tokens if "infection-tokens" in kept else 0,
        "filth_tokens": inv.filth_tokens if "filth-tokens" in kept else 0,
    }


def new_campaign(campaign: dict[str, Any], name: str) -> dict[str, Any]:
    """The state before the first chapter."""
    chapters = order(campaign)
    return {"kind": KIND, "id": name, "campaign": campaign["id"], "status": "ongoing",
            "completed": [], "next_chapter": chapters[0] if chapters else None,
            "investigators": {}, "history": []}


def advance(data: dict[str, Any], state: ChapterState, catalog: ChapterCatalog) -> dict[str, Any]:
    """The campaign after a decided chapter: a win moves on to the next chapter, carrying
    what the closing note lists; a loss ends the campaign."""
    if state.outcome == "ongoing":
        raise EngineFault(f"'{catalog.id}' is not decided yet; the campaign moves on after a "
                          "win or a loss")
    out = json.loads(json.dumps(data))
    chapter = catalog.id
    out["history"] = list(out.get("history", [])) + [
        {"chapter": chapter, "outcome": state.outcome,
         "rule": (state.reason or {}).get("rule", "")}]
    if state.outcome != "won":
        out["status"], out["next_chapter"] = "lost", None
        return out
    out["completed"] = list(out.get("completed", [])) + [chapter]
    chapters = order(catalog.campaign)
    later = chapters[chapters.index(chapter) + 1:] if chapter in chapters else []
    out["next_chapter"] = later[0] if later else None
    out["status"] = "ongoing" if later else "won"
    kept = keeps(catalog.campaign, chapter)
    out["investigators"] = {i.id: carried(i, kept) for i in state.investigators.values()}
    return out


def into_setup(data: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
    """The fixture's setup with each investigator's kept components from the campaign."""
    out = json.loads(json.dumps(setup))
    for iid, kept in data.get("investigators", {}).items():
        body = out.setdefault("investigators", {}).setdefault(iid, {})
        for key in ("search_cards", "infection_card", "infection_tokens", "filth_tokens"):
            if kept.get(key) is not None:
                body[key] = kept[key]
    return out


def read_campaign(path: Path, *, chapter: str, campaign: dict[str, Any],
                  display: str | None = None) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """The state file a chapter starts from: (data, []) or (None, located diagnostics)."""
    loaded = read_document(path, display or path.as_posix())
    if loaded.document is None:
        return None, loaded.diagnostics
    doc = loaded.document
    validator = SchemaSet(default_schema_dir()).validator(KIND)
    found = list(loaded.diagnostics) + schema_diagnostics(doc, validator.iter_errors(doc.data))
    if not any(d.severity.value == "error" for d in found):
        found += check_order(doc, chapter=chapter, campaign=campaign)
    if any(d.severity.value == "error" for d in found):
        return None, found
    return dict(doc.data), found


def check_order(doc: SourceDocument, *, chapter: str,
                campaign: dict[str, Any]) -> list[Diagnostic]:
    """The file must follow its campaign: the campaign known, its chapters won in order,
    and the chapter about to be played the next one."""
    data = doc.data
    if data["campaign"] != campaign.get("id"):
        return [diagnose("DM424", doc.locate(("campaign",)), f"The state follows the campaign "
                         f"'{data['campaign']}', but '{chapter}' belongs to "
                         f"'{campaign.get('id')}'; start from a state of that campaign.")]
    chapters = order(campaign)
    out: list[Diagnostic] = []
    done = list(data["completed"])
    if done != chapters[:len(done)]:
        return [diagnose("DM426", doc.locate(("completed",)), f"The chapters won {done} are "
                         f"not the campaign's first {len(done)} in order "
                         f"({', '.join(chapters)}).")]
    expected = chapters[len(done)] if len(done) < len(chapters) else None
    if data["next_chapter"] != expected:
        out.append(diagnose("DM426", doc.locate(("next_chapter",)), f"After {len(done)} "
                            f"chapter(s) won the next chapter is '{expected}', not "
                            f"'{data['next_chapter']}'."))
    elif data["status"] != "ongoing" or data["next_chapter"] != chapter:
        out.append(diagnose("DM426", doc.locate(("next_chapter",)), f"The campaign's next "
                            f"chapter is '{data['next_chapter']}' (status {data['status']}); "
                            f"it cannot start '{chapter}'. Chapters are played in order."))
    return out


def write_campaign(path: Path, data: dict[str, Any], *, replacing: bytes | None = None) -> None:
    """Write the state in one step (a crash mid-write leaves the previous state whole).
    `replacing` is what the file held when it was read (None: a new file); a file changed
    since is refused, never overwritten."""
    if replacing is None:
        create_file(path, render(data, path))
    else:
        rewrite_file(path, render(data, path), expected=replacing)


def render(data: dict[str, Any], path: Path | None = None) -> str:
    """YAML with a schema modeline; nested values in flow style (JSON is valid YAML)."""
    lines = [schema_modeline(KIND, path)]
    for key, value in data.items():
        if isinstance(value, dict) and value and key == "investigators":
            lines.append(f"{key}:")
            lines += [f"  {json.dumps(k)}: {_flow(v)}" for k, v in value.items()]
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"{key}:")
            lines += [f"  - {_flow(item)}" for item in value]
        else:
            lines.append(f"{key}: {_flow(value)}")
    return "\n".join(lines) + "\n"


def _flow(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)

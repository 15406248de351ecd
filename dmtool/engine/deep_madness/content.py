"""A chapter and what it reads from content/: its expansion's manifest (the sizes of pools
and reserves), the expansion's common rules, and the campaign it belongs to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.core.errors import EngineFault
from dmtool.model.content_index import ContentIndex


@dataclass
class ChapterSource:
    """The documents a chapter is built from (plain content data)."""

    chapter: dict[str, Any]
    manifest: dict[str, Any] = field(default_factory=dict)
    expansion_rules: dict[str, Any] = field(default_factory=dict)
    campaign: dict[str, Any] = field(default_factory=dict)


def chapter_source(index: ContentIndex, chapter: str | dict[str, Any]) -> ChapterSource:
    """A chapter by id from content, or given inline (its expansion still names the
    manifest and common rules it reads)."""
    if isinstance(chapter, str):
        found = index.get("chapter", chapter)
        if found is None:
            known = ", ".join(sorted(index.of_kind("chapter")))
            raise EngineFault(f"no chapter '{chapter}' in {index.root} (chapters: {known})")
        doc = found
    else:
        doc = chapter
    expansion = str(doc.get("expansion", ""))
    rules_id = doc.get("losing", {}).get("expansion_rules")
    rules = index.get("expansion-rules", rules_id) if rules_id else None
    if rules is None:
        rules = next((r for r in index.of_kind("expansion-rules").values()
                      if r.get("expansion") == expansion), {})
    campaign = next((c for c in index.of_kind("campaign").values()
                     if any(s.get("chapter") == doc.get("id") for s in c.get("chapters", []))),
                    {})
    return ChapterSource(doc, index.get("manifest", expansion) or {}, rules, campaign)


def manifest_counts(manifest: dict[str, Any]) -> dict[str, int]:
    """Every line and part of a manifest by id, with its printed count."""
    counts: dict[str, int] = {}
    for line in manifest.get("components", []):
        if isinstance(line.get("count"), int):
            counts[line["id"]] = line["count"]
        for part in line.get("parts", []):
            if isinstance(part.get("count"), int):
                counts[part["id"]] = part["count"]
    return counts


def chapters_of(index: ContentIndex, expansion: str) -> list[dict[str, Any]]:
    """The chapters of one expansion, in their printed order."""
    found = [c for c in index.of_kind("chapter").values() if c.get("expansion") == expansion]
    return sorted(found, key=lambda c: int(c.get("number", 0)))

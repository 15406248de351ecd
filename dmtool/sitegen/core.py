"""Pages for the Dawn of Madness rules documents and the Deep Madness expansion documents
other than chapters: components with counts, condition cards, monsters, the campaign."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.sitegen.links import Links
from dmtool.sitegen.markdown import anchored, plain, prose, slug, table
from dmtool.sitegen.render import HEAD_KEYS, Renderer, head, title_of, words_of

SHARED_TITLES = {"terror": "Terrors", "abomination": "Abominations", "family": "Families",
                 "devour-card": "Devour cards"}


def core_kind_page(renders: list[tuple[SourceDocument, Renderer]]) -> tuple[str, str]:
    """(nav title, page text): one document, or every document of a shared kind."""
    first = renders[0][0].data
    kind = str(first.get("kind"))
    if kind in SHARED_TITLES:
        blocks = [f"# {SHARED_TITLES[kind]}"]
        for document, render in renders:
            data = document.data
            blocks.append(f"## {plain(title_of(data))} {{#{slug(kind)}-{slug(data.get('id'))}}}")
            blocks += _facts(data, render)
            blocks += render.sections(data, skip=HEAD_KEYS, level=3)
        return SHARED_TITLES[kind], "\n\n".join(blocks) + "\n"
    document, render = renders[0]
    if kind == "condition-types":
        return title_of(first), _condition_types(first, render)
    if kind == "manifest":
        return title_of(first), manifest_page(first, render)
    if kind == "round-trackers":
        return title_of(first), _round_trackers(first, render)
    return title_of(first), document_page(first, render)


def document_page(data: Mapping[str, Any], render: Renderer) -> str:
    return "\n\n".join([head(data), *render.sections(data, skip=HEAD_KEYS)]) + "\n"


def _facts(data: Mapping[str, Any], render: Renderer) -> list[str]:
    facts = []
    for field in ("max_health", "max_mental_capacity", "existence_reward", "family"):
        if field in data and not isinstance(data[field], (dict, list)):
            facts.append(f"{plain(words_of(field)).capitalize()}: "
                         f"{render.cell((field,), data[field])}")
    return [" · ".join(facts)] if facts else []


def _condition_types(data: Mapping[str, Any], render: Renderer) -> str:
    blocks = [head(data)]
    if isinstance(data.get("description"), str):
        blocks.append(prose(data["description"]))
    rows = []
    for item in data.get("types") or []:
        if not isinstance(item, Mapping):
            continue
        key = str(item.get("id"))
        rows.append([anchored(item.get("name", key), f"condition-{slug(key)}"),
                     plain(item.get("deck_size", "")),
                     "yes" if item.get("shuffled_at_setup") else "no",
                     plain(words_of(item.get("discard_to", "")))])
    blocks.append(table(["Condition", "Cards in the deck", "Shuffled at setup",
                         "A discarded card goes to the"], rows))
    blocks += render.sections(data, skip=(*HEAD_KEYS, "description", "types"))
    return "\n\n".join(blocks) + "\n"


def _round_trackers(data: Mapping[str, Any], render: Renderer) -> str:
    blocks = [head(data)]
    key = next((k for k in ("trackers", "rounds") if isinstance(data.get(k), list)), None)
    if key:
        rows = [[plain(t.get("round", i + 1)), plain(t.get("entry", ""))]
                for i, t in enumerate(data[key]) if isinstance(t, Mapping)]
        blocks += ["Each round's event phase reads the storybook entry its tracker names.",
                   table(["Round", "Event entry"], rows)]
    blocks += render.sections(data, skip=(*HEAD_KEYS, *(k for k in (key,) if k)))
    return "\n\n".join(blocks) + "\n"


def manifest_page(data: Mapping[str, Any], render: Renderer) -> str:
    """A component manifest: every line of the box with its count and parts."""
    blocks = [head(data)]
    if isinstance(data.get("description"), str):
        blocks.append(prose(data["description"]))
    rows = []
    for line in data.get("components") or []:
        if not isinstance(line, Mapping):
            continue
        parts = ", ".join(f"{anchored(p.get('name', p.get('id')), 'component-' + str(p.get('id')))}"
                          f" ({plain(p.get('count', '?'))})"
                          for p in line.get("parts") or [] if isinstance(p, Mapping))
        rows.append([plain(line.get("line", "")),
                     anchored(line.get("name", line.get("id")), f"component-{line.get('id')}"),
                     plain(line.get("count", "")), parts])
    if rows:
        blocks.append(table(["Line", "Component", "Count", "Made of"], rows))
    blocks += render.sections(data, skip=(*HEAD_KEYS, "description", "components"))
    return "\n\n".join(blocks) + "\n"


def expansion_document_page(data: Mapping[str, Any], render: Renderer) -> str:
    if data.get("kind") == "manifest":
        return manifest_page(data, render)
    return document_page(data, render)


def campaign_blocks(chapter: Mapping[str, Any], campaigns: list[Mapping[str, Any]],
                    links: Links) -> list[str]:
    """Where the chapter sits in its campaign: what comes before and after, what carries over."""
    key = chapter.get("id")
    for campaign in campaigns:
        order = [c for c in campaign.get("chapters") or [] if isinstance(c, Mapping)]
        index = next((i for i, c in enumerate(order) if c.get("chapter") == key), None)
        if index is None:
            continue
        url = links.to("campaign", campaign.get("id"))
        name = plain(title_of(campaign))
        lines = [f"This is chapter {index + 1} of {len(order)} of "
                 + (f"[{name}]({url})" if url else name) + "."]
        if index > 0:
            lines.append("It follows " + _chapter_link(order[index - 1], links) + ".")
        step = order[index]
        keeps = step.get("keeps") or campaign.get("general_keeps") or []
        if index + 1 < len(order):
            after = "Winning it leads to " if campaign.get("advance_on") == "win" else "Next: "
            lines.append(after + _chapter_link(order[index + 1], links) + ".")
            if keeps:
                face = " (face-down cards stay face down)" if step.get(
                    "keep_face_down", campaign.get("general_keep_face_down")) else ""
                lines.append("The investigators carry over: " + ", ".join(
                    plain(words_of(k)) for k in keeps) + face + ".")
        if isinstance(step.get("note"), str):
            lines.append(prose(step["note"]))
        return ["## In the campaign {#campaign}", " ".join(lines)]
    return []


def _chapter_link(step: Mapping[str, Any], links: Links) -> str:
    key = str(step.get("chapter"))
    url = links.to("chapter", key)
    words = words_of(key)
    return f"[{plain(words)}]({url})" if url else plain(words)

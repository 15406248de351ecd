"""Planning the site before writing it: which page (and anchor) shows each document, and what
refers to what, so every page can link to any other and every card can list its referrers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.sitegen.glossary import GLOSSARY_PAGE, TERMS, term_anchor
from dmtool.sitegen.links import SiteMap
from dmtool.sitegen.markdown import slug
from dmtool.sitegen.pages import Groups
from dmtool.sitegen.render import title_of
from dmtool.sitegen.wanderers import card_anchor, is_card

DIAGNOSTICS_PAGE = "reference/diagnostics.md"
GAME_DATA_PAGE = "reference/game-data.md"
CORE = "rules/dawn-of-madness"
# Core kinds with several documents share one page, each document under its own anchor.
SHARED_PAGES = {"terror": "terrors", "abomination": "abominations", "family": "families",
                "devour-card": "devour-cards"}
Referrer = tuple[str, str]  # (words, target 'page.md#anchor')


@dataclass
class Plan:
    site: SiteMap = field(default_factory=SiteMap)
    # Where each document is shown: id(document) -> target.
    where: dict[int, str] = field(default_factory=dict)
    referrers: dict[tuple[str, str], list[Referrer]] = field(default_factory=dict)
    storybook_pages: dict[str, str] = field(default_factory=dict)  # storybook id -> page

    def place(self, document: SourceDocument, page: str, anchor: str = "") -> None:
        data = document.data
        self.where[id(document)] = f"{page}#{anchor}" if anchor else page
        if isinstance(data.get("kind"), str) and isinstance(data.get("id"), str):
            self.site.add(data["kind"], data["id"], page, anchor)


def core_page(document: SourceDocument) -> tuple[str, str]:
    kind = str(document.data.get("kind"))
    key = str(document.data.get("id"))
    if kind in SHARED_PAGES:
        return f"{CORE}/{SHARED_PAGES[kind]}.md", f"{slug(kind)}-{slug(key)}"
    return f"{CORE}/{slug(kind)}.md", ""


def expansion_page(expansion: str, document: SourceDocument) -> str:
    data = document.data
    if data.get("kind") == "chapter":
        return f"rules/{slug(expansion)}/{slug(data.get('id'))}.md"
    return f"rules/{slug(expansion)}/{slug(data.get('kind'))}-{slug(data.get('id'))}.md"


def wanderer_folder(wanderer: str) -> str:
    return f"wanderers/{slug(wanderer)}"


def make_plan(groups: Groups) -> Plan:
    plan = Plan()
    for document in groups.core:
        plan.place(document, *core_page(document))
        if document.data.get("kind") == "condition-types":
            page = core_page(document)[0]
            for item in document.data.get("types") or []:
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    plan.site.add("condition-type", item["id"], page,
                                  f"condition-{slug(item['id'])}")
        if document.data.get("kind") == "round-trackers":
            plan.site.add("round-trackers", "round", core_page(document)[0])
    for expansion, documents in groups.expansions.items():
        for document in documents:
            page = expansion_page(expansion, document)
            plan.place(document, page)
            if document.data.get("kind") == "manifest":
                for line in document.data.get("components") or []:
                    for item in [line, *(line.get("parts") or [])] if isinstance(line, dict) else []:
                        if isinstance(item, dict) and isinstance(item.get("id"), str):
                            plan.site.add("component", item["id"], page,
                                          f"component-{slug(item['id'])}")
    for wanderer, documents in groups.wanderers.items():
        folder = wanderer_folder(wanderer)
        for document in documents:
            kind = document.data.get("kind")
            if kind == "storybook":
                page = f"{folder}/{slug(document.data.get('id'))}.md"
                plan.place(document, page)
                plan.storybook_pages[str(document.data.get("id"))] = page
            elif kind in ("wanderer", "manifest"):
                plan.place(document, f"{folder}/index.md",
                           "" if kind == "wanderer" else "in-the-box")
            elif is_card(document):
                plan.place(document, f"{folder}/cards.md",
                           card_anchor(str(kind), str(document.data.get("id"))))
    for term in TERMS:
        plan.site.add("term", term, GLOSSARY_PAGE, term_anchor(term))
    return plan


def add_referrers(plan: Plan, documents: Iterable[SourceDocument], walker: Any,
                  schemas: Any) -> None:
    """For every reference in the content, remember who makes it (an entry, a card, ...)."""
    for document in documents:
        kind = str(document.data.get("kind"))
        if kind not in schemas.kinds or id(document) not in plan.where:
            continue
        for reference in walker.references(kind, document.data):
            target = next((k for k in reference.kinds
                           if plan.site.find(k, reference.value) is not None), None)
            if target is None:
                continue
            who = _referrer(document, reference.path, plan)
            if who is not None:
                plan.referrers.setdefault((target, reference.value), []).append(who)


def _referrer(document: SourceDocument, path: tuple[Any, ...], plan: Plan) -> Referrer | None:
    data = document.data
    where = plan.where[id(document)]
    if data.get("kind") == "storybook" and len(path) > 1:
        if path[0] == "entries" and isinstance(path[1], int):
            entries = data.get("entries") or []
            entry = entries[path[1]] if path[1] < len(entries) else {}
            number = entry.get("entry") if isinstance(entry, dict) else None
            if isinstance(number, int):
                return f"entry {number}", f"{where}#entry-{number}"
        if path[0] == "endings" and isinstance(path[1], int):
            endings = data.get("endings") or []
            ending = endings[path[1]] if path[1] < len(endings) else {}
            letter = str(ending.get("ending", "?")) if isinstance(ending, dict) else "?"
            return f"ending {letter}", f"{where}#ending-{letter.lower()}"
        if path[0] == "setup":
            return "the storybook setup", f"{where}#setup"
    kind = str(data.get("kind", ""))
    # A wanderer is known by name; their title ("The Engineer of ...") is an epithet.
    name = data.get("name") if kind == "wanderer" and isinstance(data.get("name"), str) else None
    return f"{kind.replace('-', ' ')} {name or title_of(data)}", where

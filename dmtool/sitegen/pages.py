"""The site's page model and how documents are grouped: core rules, expansions, wanderers."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.model.describe.text import humanise
from dmtool.sitegen.markdown import slug

# A MkDocs nav: a list of {title: path} or {title: [nested nav]} mappings.
Nav = list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Page:
    """One generated Markdown file: its path under the docs folder and its text."""

    path: str
    text: str


@dataclass
class Groups:
    """Documents sorted into the three parts of the site."""

    core: list[SourceDocument] = field(default_factory=list)
    expansions: dict[str, list[SourceDocument]] = field(default_factory=dict)
    wanderers: dict[str, list[SourceDocument]] = field(default_factory=dict)


def group(documents: Iterable[SourceDocument]) -> Groups:
    """Wanderer documents (they name a wanderer, or are one), expansion documents, the rest."""
    groups = Groups()
    for document in documents:
        data = document.data
        kind = data.get("kind")
        wanderer = data.get("wanderer") if kind != "wanderer" else data.get("id")
        expansion = data.get("expansion")
        if kind == "manifest" and data.get("scope") == "expansion":
            expansion = data.get("id")
        if isinstance(wanderer, str):
            groups.wanderers.setdefault(wanderer, []).append(document)
        elif isinstance(expansion, str):
            groups.expansions.setdefault(expansion, []).append(document)
        else:
            groups.core.append(document)
    return groups


def nav_title(text: str) -> str:
    """A title for the nav and the page's <title>. MkDocs writes nav titles unescaped, so
    they are escaped here; mkdocs-material's `striptags` then unescapes them into <title>,
    so angle brackets become look-alike quotes first: nothing can close the <title>."""
    words = " ".join(str(text).split()).replace("<", "\u2039").replace(">", "\u203a")
    return html.escape(words, quote=True) or "untitled"


def id_title(identifier: str) -> str:
    """'rise-of-dagon' -> 'Rise of Dagon', for groups that have no title of their own."""
    return humanise(str(identifier))


def page_path(folder: str, data: dict[str, Any], *, taken: set[str]) -> str:
    """A unique page path for a document: folder/kind-id.md (ids are unique per kind only)."""
    base = f"{folder}/{slug(data.get('kind', 'doc'))}-{slug(data.get('id', 'untitled'))}"
    path, number = f"{base}.md", 2
    while path in taken:
        path, number = f"{base}-{number}.md", number + 1
    taken.add(path)
    return path

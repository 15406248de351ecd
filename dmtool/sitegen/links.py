"""Where everything lives on the site, and links to it from any page.

A planning pass gives every linkable thing (a card, a monster, a condition type, a
storybook entry, a chapter's component, a glossary term) a page and an anchor; pages then
ask for relative links, so the built folder works served or opened from disk.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field

from dmtool.model.describe import Ref
from dmtool.model.describe.names import CARD_KINDS, MONSTER_KINDS

Key = tuple[str, str]  # (kind, id) or (ref kind, target) as strings


@dataclass
class SiteMap:
    """Every target: (kind, key) -> 'path/page.md#anchor'."""

    targets: dict[Key, str] = field(default_factory=dict)

    def add(self, kind: str, key: object, page: str, anchor: str = "") -> None:
        self.targets.setdefault((kind, str(key)), f"{page}#{anchor}" if anchor else page)

    def find(self, kind: str, key: object) -> str | None:
        key = str(key)
        if kind == "card":
            return next((self.targets[(k, key)] for k in CARD_KINDS if (k, key) in self.targets),
                        None)
        if kind == "monster":
            return next((self.targets[(k, key)] for k in MONSTER_KINDS
                         if (k, key) in self.targets), None)
        return self.targets.get((kind, key))


@dataclass
class Links:
    """Links from one page: global targets, plus the page's own (its storybook's entries and
    endings, its chapter's components, monsters and rooms)."""

    site: SiteMap
    page: str
    local: Mapping[Key, str] = field(default_factory=dict)

    def url(self, ref: Ref) -> str | None:
        target = self.local.get((ref.kind, str(ref.target)))
        if target is None:
            target = self.site.find(ref.kind, ref.target)
        return None if target is None else self.relative(target)

    def to(self, kind: str, key: object) -> str | None:
        target = self.local.get((kind, str(key))) or self.site.find(kind, key)
        return None if target is None else self.relative(target)

    def relative(self, target: str) -> str:
        """A Markdown link from this page to 'path.md#anchor' (MkDocs rewrites .md to .html)."""
        path, _, anchor = target.partition("#")
        if path == self.page:
            return f"#{anchor}" if anchor else posixpath.basename(path)
        here = posixpath.dirname(self.page)
        link = posixpath.relpath(path, here or ".")
        return f"{link}#{anchor}" if anchor else link

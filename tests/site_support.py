"""The real content's site, built once per test session, and small readers of its HTML."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dmtool.cli import cli
from dmtool.sitegen import SiteOptions, SiteResult, run_site

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class BuiltSite:
    result: SiteResult
    out: Path

    def html(self, path: str) -> str:
        return (self.out / path).read_text(encoding="utf-8")


def build_real_site(factory: pytest.TempPathFactory) -> BuiltSite:
    out = factory.mktemp("real-site") / "site"
    result = run_site(SiteOptions(content=ROOT / "content", out=out, docs_dir=ROOT / "docs",
                                  commands=cli))
    assert result.exit_code == 0, (result.text, result.messages)
    return BuiltSite(result, out)


class Sections(HTMLParser):
    """Splits a page into sections at every heading with an id; collects each section's
    links (href values) and the ids defined anywhere; skips nothing."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.current = "top"
        self.links: dict[str, list[str]] = {"top": []}
        self.ids: set[str] = set()
        self.text: list[str] = []
        self._svg = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag in ("h1", "h2", "h3") and values.get("id"):
            self.current = str(values["id"])
            self.links.setdefault(self.current, [])
        if tag == "svg":
            self._svg += 1
        href = values.get("href") or values.get("xlink:href")
        if tag == "a" and href:
            self.links.setdefault(self.current, []).append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self._svg -= 1

    def handle_data(self, data: str) -> None:
        if not self._svg:
            self.text.append(data)


    @property
    def words(self) -> str:
        """The page's text outside pictures, spaces collapsed."""
        return re.sub(r"\s+", " ", "".join(self.text))


def sections(html: str) -> Sections:
    parser = Sections()
    parser.feed(html)
    return parser

"""The site's previous/next links are labelled with the page's title as it reads (issue 31:
"the site's previous/next `aria-label` escapes quotes twice", so a screen reader spelt out
"Hydra ampersand hash x 27 s Domain")."""

from __future__ import annotations

import html
from html.parser import HTMLParser

from tests.site_support import BuiltSite


class _FooterLinks(HTMLParser):
    """(aria-label, visible title) of each previous/next link of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self._label: str | None = None
        self._title = False
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and "md-footer__link" in (values.get("class") or ""):
            self._label, self._text = values.get("aria-label") or "", []
        elif tag == "div" and self._label is not None and values.get("class") == "md-ellipsis":
            self._title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._title:
            self._title = False
        elif tag == "a" and self._label is not None:
            self.links.append((self._label, " ".join("".join(self._text).split())))
            self._label = None

    def handle_data(self, data: str) -> None:
        if self._title:
            self._text.append(data)


def test_previous_and_next_labels_read_as_the_titles_they_name(real_site: BuiltSite) -> None:
    links: list[tuple[str, str]] = []
    for page in sorted(real_site.out.rglob("*.html")):
        parser = _FooterLinks()
        parser.feed(page.read_text(encoding="utf-8"))
        links += parser.links
    assert len(links) > 50
    for label, title in links:
        assert html.unescape(label) == label, label  # no entity left after one unescaping
        assert label.split(": ", 1)[1] == title, (label, title)
    assert any("'" in label for label, _ in links)  # the titles with a quote are among them

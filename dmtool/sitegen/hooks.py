"""MkDocs hooks: every page's HTML is sanitised, then the branch pictures are put in place.

Authored text is escaped before it becomes Markdown; nh3 (the ammonia sanitiser) then
cleans the HTML Markdown produced, keeping only the tags and attributes the site's own
pages use, and links only to relative addresses, http(s) and mailto. Pictures are SVG that
Graphviz drew from escaped labels; they are inlined after sanitising (nh3 is an HTML
sanitiser and would mangle SVG), where a page holds a placeholder only dmtool can write.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import nh3

TAGS = {"a", "abbr", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt",
        "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "img", "kbd", "li", "ol", "p", "pre",
        "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "tr",
        "ul"}
ATTRIBUTES = {"*": {"class", "id", "title"}, "a": {"href"}, "img": {"src", "alt"},
              "td": {"align", "colspan", "rowspan"}, "th": {"align", "colspan", "rowspan"},
              "div": {"data-graph", "data-search-exclude", "data-story"}, "ol": {"start"},
              "details": {"open"}}
SCHEMES = {"http", "https", "mailto"}
# The placeholder a generated page writes where a picture goes (see sitegen.maps).
# The label of a previous/next link (mkdocs-material's footer): the theme escapes the
# title it is given, which the nav already holds escaped (pages.nav_title).
FOOTER_LABEL = re.compile(r'(<a [^>]*class="md-footer__link[^"]*" aria-label=")([^"]*)(")')
PICTURE = re.compile(r'<div class="dmtool-graph( pan-zoom)?" data-graph="([a-z0-9/._-]+\.svg)">'
                     r"\s*</div>")


# The placeholder of a storybook's reader page (see sitegen.reader).
READER = re.compile(r'<div class="dmtool-reader" data-story="([a-z0-9/._-]+\.json)">\s*</div>')


def sanitise(html: str) -> str:
    """Only the site's own kinds of markup survive; scripts, handlers and odd links do not."""
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=SCHEMES,
                     link_rel=None, strip_comments=True)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    cleaned = sanitise(html)
    docs = Path(config["docs_dir"])
    cleaned = READER.sub(lambda m: _reader(docs, m.group(1)), cleaned)
    return PICTURE.sub(lambda m: _picture(docs, m.group(2), pan_zoom=bool(m.group(1))), cleaned)


def _reader(docs: Path, name: str) -> str:
    """The reader's root with its story inline (the page works opened from disk), as an
    attribute: JSON written by dmtool, HTML-escaped, so it is data and never markup or
    script."""
    path = (docs / name).resolve()
    if docs.resolve() not in path.parents or not path.is_file():
        return '<p class="dmtool-missing">This storybook could not be prepared for reading.</p>'
    story = html.escape(path.read_text(encoding="utf-8"), quote=True)
    return ('<div class="dmtool-reader" data-dmtool-reader data-search-exclude '
            f'data-story-json="{story}"><noscript>The reader needs JavaScript.</noscript></div>')


def _picture(docs: Path, name: str, *, pan_zoom: bool) -> str:
    path = (docs / name).resolve()
    if docs.resolve() not in path.parents or not path.is_file():
        return '<p class="dmtool-missing">This picture is missing from the build.</p>'
    svg = path.read_text(encoding="utf-8")
    start = svg.find("<svg")
    svg = re.sub(r"<!--.*?-->", "", svg[start:], flags=re.DOTALL) if start >= 0 else ""
    classes = "dmtool-graph pan-zoom" if pan_zoom else "dmtool-graph"
    return f'<div class="{classes}" data-search-exclude>{svg}</div>'


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Label the previous/next links with the title as the link shows it: the theme shows
    the title as HTML and escapes it once more for the label, so the label is the escaped
    text of the title unescaped (else a quote is read out as '&#x27;')."""
    return FOOTER_LABEL.sub(
        lambda m: m[1] + html.escape(html.unescape(html.unescape(m[2])), quote=True) + m[3],
        output)

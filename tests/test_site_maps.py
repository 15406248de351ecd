"""The storybook maps a reader can read (issue 33): the whole map opens with words at least
9 CSS pixels tall, no ending map is wider than its box, an entry's "show on map" centres it,
card and shard tags link to their cards, and the legend is two keys with colour swatches."""

from __future__ import annotations

import re
from typing import Any

from dmtool.sitegen.build import ASSET_SOURCE
from dmtool.storygraph.dot import KIND_STYLE
from tests import test_site_browser as _browser
from tests.site_support import BuiltSite, sections

browser, served, page, _shot = _browser.browser, _browser.served, _browser.page, _browser._shot
MAP = "wanderers/hollis-brandt/the-drowned-parish-map.html"
BOOK = "wanderers/hollis-brandt/the-drowned-parish.html"


def test_the_legend_is_two_keys_with_the_fills_the_pictures_use(real_site: BuiltSite) -> None:
    html = real_site.html(MAP)
    legend = html[html.index("Entries: shape and fill"):html.index('id="map-all"')]
    assert legend.count("<table>") == 2
    css = (ASSET_SOURCE / "dmtool.css").read_text(encoding="utf-8")
    for kind, (_, fill) in KIND_STYLE.items():
        name = f"dmtool-fill-{kind.replace('_', '-')}"
        assert f'class="dmtool-swatch {name}"' in legend
        assert re.search(rf"\.{name} {{ background: {fill}; }}", css), kind


def test_card_and_shard_tags_link_to_their_cards(real_site: BuiltSite) -> None:
    cards = sections(real_site.html("wanderers/hollis-brandt/cards.html"))
    targets = [t for t in re.findall(r'xlink:href="([^"]+)"', real_site.html(MAP))
               if t.startswith("cards.html#")]
    assert len(set(targets)) >= 20
    assert all(t.partition("#")[2] in cards.ids for t in targets)
    assert any("#world-shard-" in t for t in targets)


def _label_heights(tab: Any, selector: str) -> list[float]:
    return list(tab.evaluate("""(selector) => Array.from(document.querySelectorAll(selector))
        .map((t) => t.getBoundingClientRect().height).filter((h) => h > 0)""", selector))


def test_maps_open_legible_and_fit_their_boxes(page: Any, served: str) -> None:
    page.goto(served + MAP)
    page.wait_for_selector(".dmtool-graph.pan-zoom svg .svg-pan-zoom_viewport")
    heights = _label_heights(page, ".dmtool-graph.pan-zoom svg g.node text")
    assert len(heights) > 100 and min(heights) >= 9, min(heights)
    assert min(_label_heights(page, ".dmtool-graph.pan-zoom svg g.edge text")) >= 9
    widths = page.evaluate("""() => Array.from(
        document.querySelectorAll('.dmtool-graph:not(.pan-zoom)')).map((box) =>
        [box.querySelector('svg').getBoundingClientRect().width, box.clientWidth])""")
    assert len(widths) == 4
    assert all(svg <= box + 0.5 for svg, box in widths), widths
    assert page.problems == []


def test_show_on_map_centres_the_entry(page: Any, served: str) -> None:
    page.goto(served + BOOK)
    page.locator('a.dmtool-on-map[href$="#map-entry-300"]').click()
    page.wait_for_selector(".dmtool-graph.pan-zoom g.dmtool-here")
    page.wait_for_timeout(300)  # svg-pan-zoom draws a pan on the next animation frame
    found = page.evaluate("""() => {
        const node = document.querySelector('.dmtool-graph.pan-zoom g.dmtool-here');
        const box = node.getBoundingClientRect();
        const frame = node.closest('svg').getBoundingClientRect();
        return [node.querySelector('title').textContent,
                (box.left + box.width / 2 - frame.left) / frame.width,
                (box.top + box.height / 2 - frame.top) / frame.height];
    }""")
    assert found[0] == "e300"
    assert abs(found[1] - 0.5) < 0.05 and abs(found[2] - 0.5) < 0.05, found
    _shot(page, "map-entry-300")
    assert page.problems == []

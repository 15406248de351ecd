"""The built site in a real browser: Debian's Chromium driven by Playwright for Python.

The site is served on 127.0.0.1 (and also opened from disk); the tests click as a reader
would. Screenshots of the home page, a storybook entry, an ending's graph and a chapter are
saved to test-artifacts/screenshots/ at the top of the repository, for a person to look at.
Tests skip, saying why, only where no browser can be had (no Chromium, no playwright).
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.site_support import ROOT, BuiltSite

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOOK = "wanderers/hollis-brandt/the-drowned-parish.html"
MAP = "wanderers/hollis-brandt/the-drowned-parish-map.html"
CHAPTER = "rules/madness-reborn/dimension-breach.html"


def _browser_or_skip() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (make test installs it)")
    executable = CHROMIUM if CHROMIUM.is_file() else shutil.which("chromium")
    if executable is None:
        pytest.skip("no Chromium here: the Makefile installs Debian's 'chromium' as root with "
                    "apt-get; install it to run the browser tests")
    return sync_playwright, str(executable)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright, executable = _browser_or_skip()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(real_site: BuiltSite) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1 (a free port), for the module's tests."""
    handler = functools.partial(_Quiet, directory=str(real_site.out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.problems = []
    tab.requests = []
    tab.on("console", lambda m: tab.problems.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda error: tab.problems.append(str(error)))
    tab.on("request", lambda request: tab.requests.append(request.url))
    try:
        yield tab
    finally:
        context.close()


def _shot(tab: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def _in_view(tab: Any, anchor: str) -> bool:
    return bool(tab.evaluate(
        """(id) => { const r = document.getElementById(id).getBoundingClientRect();
                     return r.top >= 0 && r.top < window.innerHeight; }""", anchor))


def test_home_page_opens_without_console_errors(page: Any, served: str) -> None:
    page.goto(served + "index.html")
    page.wait_for_load_state("networkidle")
    assert page.title() == "Dawn of Madness and Deep Madness"
    assert page.problems == []
    assert all(url.startswith((served, "data:")) for url in page.requests), (
        [u for u in page.requests if not u.startswith(served)])
    _shot(page, "home")


def test_a_go_to_link_lands_on_its_entry(page: Any, served: str) -> None:
    page.goto(served + BOOK + "#entry-106")
    page.locator('#entry-106 ~ ul a[href="#entry-107"]').first.click()
    page.wait_for_function("location.hash === '#entry-107'")
    assert _in_view(page, "entry-107")
    page.goto(served + BOOK + "#entry-106")
    page.wait_for_timeout(300)
    _shot(page, "storybook-entry")
    assert page.problems == []


def _search(page: Any, words: str) -> None:
    """Type into the search box as a reader would, once the search index is ready."""
    page.locator(".md-search__input").first.click()
    page.wait_for_function(
        """() => { const meta = document.querySelector('.md-search-result__meta');
                   return meta && !/Initializing/i.test(meta.textContent); }""",
        timeout=30_000)
    page.keyboard.type(words)
    page.wait_for_selector(".md-search-result__item a", timeout=15_000)


def test_searching_an_entry_title_reaches_the_entry(page: Any, served: str) -> None:
    page.goto(served + "index.html")
    _search(page, "Caught in the Spokes")
    result = page.locator('.md-search-result__item a[href*="#entry-108"]').first
    result.click()
    page.wait_for_url(re.compile(r".*/the-drowned-parish\.html(\?[^#]*)?#entry-108$"))
    page.wait_for_load_state()
    assert _in_view(page, "entry-108")
    assert page.problems == []


def test_clicking_a_node_of_an_ending_picture_opens_its_entry(page: Any, served: str) -> None:
    page.goto(served + MAP + "#map-ending-a")
    page.wait_for_timeout(300)
    _shot(page, "ending-graph")
    node = page.locator('#map-ending-a ~ .dmtool-graph a[*|href$="#entry-301"]').first
    node.scroll_into_view_if_needed()
    node.click()
    page.wait_for_url(re.compile(r".*/the-drowned-parish\.html#entry-301$"))
    page.wait_for_load_state()
    assert _in_view(page, "entry-301")
    assert page.problems == []


def test_the_large_map_gets_pan_and_zoom(page: Any, served: str) -> None:
    page.goto(served + MAP)
    page.wait_for_selector(".dmtool-graph.pan-zoom svg .svg-pan-zoom_viewport")
    assert page.locator(".dmtool-graph.pan-zoom #svg-pan-zoom-controls").count() == 1
    assert page.problems == []


def test_a_chapter_page(page: Any, served: str) -> None:
    page.goto(served + CHAPTER)
    page.wait_for_load_state("networkidle")
    assert page.locator("#room-5").count() == 1 and page.locator("#hazard-black").count() == 1
    _shot(page, "chapter")
    assert page.problems == []


def test_opened_from_disk_search_still_works(page: Any, real_site: BuiltSite) -> None:
    page.goto((real_site.out / "index.html").as_uri())
    _search(page, "Caught in the Spokes")
    page.locator('.md-search-result__item a[href*="#entry-108"]').first.click()
    page.wait_for_url(re.compile(r"file://.*/the-drowned-parish\.html(\?[^#]*)?#entry-108$"))
    assert page.problems == []

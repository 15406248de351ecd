"""The storybook reader in Chromium (issue 33): it plays what `dmtool odds --runs` plays, and a
person can read it one entry at a time, roll its tests, go back, jump and come back later.

Agreement is proved twice. The reader's own driver of the command line's choices (Python's
Mersenne Twister in JavaScript, drawn in the same order: `autoplay`) must give the very
paths `odds --runs 200 --paths` gives: entries in order, scores, ending and conclusion.
And a person's side: the answers of a path, stored as a reader stores its place and
replayed on reload by the page, end the page at the same conclusion with the same scores.
Screenshots of the start, a resolved test and an ending go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import json
from typing import Any

from dmtool.storygraph.odds_command import OddsOptions, run_odds
from tests import test_site_browser as _browser
from tests.site_support import ROOT

# The browser, the served site and a fresh tab, as the site's other browser tests have them.
browser, served, page, _shot = _browser.browser, _browser.served, _browser.page, _browser._shot

READER = "wanderers/hollis-brandt/the-drowned-parish-reader.html"
BOOK = ROOT / "content/wanderers/hollis-brandt/storybook.yaml"
SEED, RUNS = 2026, 200
ROOT_ELEMENT = "[data-dmtool-reader]"


def _cli_paths() -> list[dict[str, Any]]:
    result = run_odds(OddsOptions(paths=(BOOK,), runs=RUNS, seed=SEED, show_paths=True,
                                  fmt="json"))
    assert result.exit_code == 0, result.text
    return json.loads(result.text)["storybooks"][0]["playthroughs"]["paths"]


def _open(tab: Any, served_at: str) -> None:
    tab.goto(served_at + READER)
    tab.wait_for_selector(f"{ROOT_ELEMENT}[data-state]")


def _state(tab: Any) -> str:
    return str(tab.locator(ROOT_ELEMENT).get_attribute("data-state"))


def test_the_reader_plays_the_paths_that_odds_runs_plays(page: Any, served: str) -> None:
    expected = _cli_paths()
    _open(page, served)
    played = page.evaluate("([seed, runs]) => window.dmtoolReader.autoplay(seed, runs)",
                           [SEED, RUNS])
    answers = [p.pop("answers") for p in played]
    assert len(played) == RUNS
    for number, (got, want) in enumerate(zip(played, expected)):
        assert got == want, f"path {number + 1} of seed {SEED}"
    # Not a trivial agreement: the paths differ, and reach every ending but D often.
    assert len({tuple(p["entries"]) for p in expected}) == RUNS
    assert {p["outcome"] for p in expected} >= {"A", "B", "C"}
    # A person's side: one path's answers kept as the reader keeps its place, then replayed
    # by the page on reload, end at the same conclusion with the same scores.
    number = next(i for i, p in enumerate(expected) if p["outcome"] in "ABCD")
    key = page.evaluate("'dmtool-reader:' + window.dmtoolReader.story.id")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [key, json.dumps(answers[number])])
    _open(page, served)
    assert _state(page) == "ended"
    root = page.locator(ROOT_ELEMENT)
    assert root.get_attribute("data-entry") == str(expected[number]["conclusion"])
    assert root.get_attribute("data-scores") == ",".join(map(str, expected[number]["scores"]))
    ending = expected[number]["outcome"]
    assert f"The end: ending {ending}" in root.inner_text()
    _shot(page, "reader-ending")
    assert page.problems == []


def test_a_person_reads_rolls_goes_back_jumps_and_keeps_their_place(
        page: Any, served: str) -> None:
    _open(page, served)
    page.evaluate("localStorage.clear()")
    _open(page, served)
    root = page.locator(ROOT_ELEMENT)
    assert _state(page) == "pause" and "Begin the story" in root.inner_text()
    _shot(page, "reader-start")
    for _ in range(200):  # the first way on each time, until a test is met
        if _state(page) == "test":
            break
        page.locator(".dmr-ask button").first.click()
    assert _state(page) == "test"
    entry = root.get_attribute("data-entry")
    page.locator(".dmr-roll").click()
    faces = page.locator(".dmr-faces").first.input_value()
    assert faces and all(f in ("hand", "eye", "brain", "skull", "sphere") for f in faces.split())
    verdict = page.locator(".dmr-verdict").inner_text()
    assert verdict in ("These faces pass.", "These faces fail.")
    _shot(page, "reader-test-rolled")
    page.locator(".dmr-resolve").click()
    assert _state(page) != "test" or root.get_attribute("data-entry") != entry
    _shot(page, "reader-after-test")
    history = page.locator(".dmr-history li").count()
    page.get_by_role("button", name="Back", exact=True).click()
    assert _state(page) == "test" and root.get_attribute("data-entry") == entry
    page.locator(".dmr-jump input").fill("300")
    page.locator(".dmr-go").click()
    assert root.get_attribute("data-entry") == "300"
    assert page.locator(".dmr-history li").count() >= history
    assert page.locator(".dmr-map").get_attribute("href").endswith("#map-entry-300")
    _open(page, served)  # the place is kept
    assert page.locator(ROOT_ELEMENT).get_attribute("data-entry") == "300"
    assert page.problems == []

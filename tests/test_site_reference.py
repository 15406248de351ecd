"""The site's diagnostics reference shows every code's bad example and its fix, and the story
findings on a storybook's page say their conditions in words, whole."""

from __future__ import annotations

import re
from pathlib import Path

from storygraph_support import analysed, clean_entries, entry

from dmtool.diagnostics import catalogue
from dmtool.sitegen.links import Links, SiteMap
from dmtool.sitegen.markdown import code_block, plain
from dmtool.sitegen.reference import diagnostics_page
from dmtool.sitegen.storyparts import findings
from dmtool.storygraph.conditions import clause


def _sections(text: str) -> dict[str, str]:
    """Each code's section of the page, by code."""
    parts = re.split(r"^### (DM\d{3}) ", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _shown(snippet: str) -> str:
    if snippet.startswith("("):
        return plain(snippet.strip()[1:-1])  # a situation, said in words
    return code_block(snippet) if snippet.strip() else "Delete those lines."


def test_every_code_shows_what_produces_it_and_its_fix() -> None:
    sections = _sections(diagnostics_page().text)
    assert set(sections) == set(catalogue())
    for code, info in catalogue().items():
        section = sections[code]
        assert info.fixed is not None, code
        bad, fixed = section.find("What produces it:"), section.find("The fixed version:")
        assert 0 <= bad < fixed, code
        assert section.find(_shown(info.example), bad) < fixed, code
        assert section.find(_shown(info.fixed), fixed) > fixed, code


def test_a_fix_that_deletes_says_so() -> None:
    deleted = [code for code, info in catalogue().items() if info.fixed == ""]
    assert deleted  # e.g. an unused suppression comment is removed
    sections = _sections(diagnostics_page().text)
    for code in deleted:
        assert "The fixed version:\n\nDelete those lines." in sections[code], code


# Never true when ending D scores at most 1 point (clean_entries gives each ending one).
LONG = {"all": [{"score_at_least": {"D": 5}}, {"score_at_least": {"A": 5}}]}


def test_story_findings_on_the_site_say_the_whole_condition_in_words(tmp_path: Path) -> None:
    words = clause(LONG)  # the describer's words for it
    assert len(words) > 40
    analysis = analysed(tmp_path, clean_entries() + [
        entry(2, [{"goto": 40}], kind="event"),
        entry(40, [{"if": {"when": LONG, "then": [{"goto": 42}], "else": [{"goto": 41}]}}]),
        entry(41, [{"goto": 40}]),  # the loop 40-41 is left only through LONG: a trap
        entry(42, [{"end": "encounter"}]),  # reached only through LONG: unreachable
    ])
    found = {d.code: d.message for d in analysis.diagnostics}
    assert {"DM303", "DM307"} <= set(found)
    text = "\n".join(findings(analysis, Links(SiteMap(), "wanderers/x.md")))
    for code in ("DM303", "DM307"):
        assert words in found[code], found[code]
        line = next(line for line in text.splitlines() if line.startswith(f"- {code}"))
        assert plain(words) in line and "…" not in line and "..." not in line

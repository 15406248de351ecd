"""`dmtool site` on the real content: the pages exist and carry the content's facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dmtool.diagnostics import catalogue
from dmtool.sitegen import SiteOptions, SiteResult, run_site
from dmtool.sitegen.build import MARKER

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[SiteResult, Path]:
    out = tmp_path_factory.mktemp("real") / "site"
    result = run_site(SiteOptions(content=ROOT / "content", out=out, docs_dir=ROOT / "docs"))
    return result, out


def _html(out: Path, path: str) -> str:
    return (out / path).read_text(encoding="utf-8")


def test_the_real_content_builds_cleanly(built: tuple[SiteResult, Path]) -> None:
    result, out = built
    assert result.exit_code == 0, result.text
    assert result.report.diagnostics == []
    assert (out / MARKER).is_file()
    assert (out / "search" / "search_index.json").is_file()
    assert not [p.name for p in out.parent.iterdir() if p.name != "site"], "temporary folders left"


def test_home_and_guide_come_from_docs(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    home = _html(out, "index.html")
    assert "Writing a wanderer" in home
    assert 'href="reference/diagnostics.html"' in home
    assert "dmtool new wanderer" in _html(out, "writing-a-wanderer.html")


def test_chapter_page_lists_rooms_decks_hazards_and_goals(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    page = _html(out, "rules/madness-reborn/chapter-dimension-breach.html")
    assert "Chapter 1: Dimension Breach" in page
    assert "The board is built from rooms 13, 2, 9, 18, 1, 21, 20, 5, 19." in page
    assert "2, 9, 13, 18, 19, 20, 21" in page  # the devoured deck
    assert "Devouring track hazards" in page and "six-counts-as-zero" in page
    assert "The Dimension Breach monster is killed." in page
    assert "non-epic monster shares a space with a trap mine figure" in page


def test_core_rules_and_campaign_pages(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    assert "Envenomed" in _html(out, "rules/dawn-of-madness/condition-types-dawn-of-madness-conditions.html")
    assert "Longer Game" in _html(out, "rules/dawn-of-madness/game-rules-dawn-of-madness.html")
    assert "virulent-whispers" in _html(out, "rules/rise-of-dagon/campaign-rise-of-dagon-campaign.html")


def test_wanderer_page_summarises_the_storybook(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    page = _html(out, "wanderers/hollis-brandt/index.html")
    assert "Storybook: The Drowned Parish" in page
    assert "153 entries" in page
    assert "Ending A: Open the Sluices" in page and "The Valley Breathes" in page
    assert 'href="storybook-the-drowned-parish.html#entry-330"' in page
    assert "found no broken links" in page
    assert "<td>A</td>" in page and "<td>52</td>" in page  # ending A: at most 52 in one game
    assert "Steady Hands" in page and "Coyle's Measuring Chain" in page


def test_storybook_page_has_every_entry_with_an_anchor(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    page = _html(out, "wanderers/hollis-brandt/storybook-the-drowned-parish.html")
    assert page.count('<div id="entry-') == 153
    assert "The Bell Under the Water" in page
    assert "Somewhere beneath the reservoir a bell strikes once" in page


def test_diagnostics_page_lists_every_code(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    page = _html(out, "reference/diagnostics.html")
    for code, info in catalogue().items():
        assert f'id="{code.lower()}"' in page, code
        assert info.name in page, code


def test_wanderer_without_texts_still_gets_a_page(built: tuple[SiteResult, Path]) -> None:
    _, out = built
    assert "Bonds of Twins" in _html(out, "wanderers/emily-hawkins/index.html")


SITE_CASES = sorted((ROOT / "tests" / "cases").glob("DM5*"))


@pytest.mark.parametrize("case", SITE_CASES, ids=[c.name for c in SITE_CASES])
def test_site_cases_report_their_codes_in_json(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same comparison tests/test_cases.py makes through the CLI, without the CLI."""
    monkeypatch.chdir(case)
    result = run_site(SiteOptions(content=Path("."), fmt="json", dry_run=True))
    actual = sorted(f"{d['path']}:{d['line']}:{d['column']}: {d['severity']} {d['code']}"
                    for d in json.loads(result.text)["diagnostics"])
    expected = sorted(line for line in (case / "expected.txt").read_text().splitlines() if line)
    assert actual == expected
    assert result.exit_code == 0
    assert sorted(p.name for p in case.iterdir() if not p.name.endswith(".yaml")) == [
        "command.txt", "expected.txt"], "a dry run must write nothing into the case folder"


def test_a_relative_output_folder_gets_the_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`dmtool site -o site` from the working folder, as `make site` runs it."""
    monkeypatch.chdir(tmp_path)
    result = run_site(SiteOptions(content=ROOT / "content", out=Path("site")))
    assert result.exit_code == 0
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / MARKER).is_file()
    assert (tmp_path / "site").stat().st_mode & 0o755 == 0o755
    assert [p.name for p in tmp_path.iterdir()] == ["site"]

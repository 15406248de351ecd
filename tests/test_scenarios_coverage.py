"""Every rule id of the checklist (R01-R55, both games) has at least one passing fixture;
the suite fails the moment one has none, and `dmtool test --coverage` says which."""

from __future__ import annotations

from pathlib import Path

from dmtool.loading import read_document
from dmtool.scenarios.commands import ScenarioOptions, run_tests
from dmtool.scenarios.coverage import DAWN_OF_MADNESS, DEEP_MADNESS, RULE_IDS, uncovered

FIXTURES = Path(__file__).parent / "scenarios"


def _rule_lists() -> list[list[str]]:
    out = []
    for path in sorted(FIXTURES.rglob("*.yaml")):
        data = read_document(path).document.data  # type: ignore[union-attr]
        if isinstance(data, dict) and data.get("kind") == "scenario" and not data.get("skip"):
            out.append(list(data.get("rules", [])))
    return out


def test_every_dawn_of_madness_rule_has_a_fixture() -> None:
    missing = uncovered(_rule_lists(), among=DAWN_OF_MADNESS)
    assert not missing, f"rule ids without a (non-skipped) fixture: {missing}"


def test_every_deep_madness_rule_has_a_fixture() -> None:
    missing = uncovered(_rule_lists(), among=DEEP_MADNESS)
    assert not missing, f"rule ids without a (non-skipped) fixture: {missing}"


def test_deep_madness_rules_have_combination_fixtures() -> None:
    """Filth with Hydras, losses with filth, campaign with chapter conditions."""
    lists = [set(rules) for rules in _rule_lists()]
    for pair in ({"R50", "R51"}, {"R50", "R52"}, {"R53", "R55"}, {"R54", "R50"},
                 {"R51", "R55"}):
        assert any(pair <= rules for rules in lists), pair


def test_part_two_rules_have_combination_fixtures() -> None:
    """The combinations the issue asks for each have a fixture naming both rules."""
    lists = [set(rules) for rules in _rule_lists()]
    for pair in ({"R35", "R47"}, {"R42", "R24"}, {"R44", "R35"}, {"R45", "R46"},
                 {"R38", "R47"}):
        assert any(pair <= rules for rules in lists), pair


def test_coverage_report_finds_every_rule_covered() -> None:
    lines: list[str] = []
    run = run_tests(ScenarioOptions(paths=(FIXTURES,), coverage=True), emit=lines.append)
    assert run.exit_code == 0, "".join(lines)
    assert run.uncovered == []
    report = "".join(lines)
    assert "rule ids without a fixture (0): none" in report
    assert set(RULE_IDS) == set(DAWN_OF_MADNESS) | set(DEEP_MADNESS)


def test_uncovered_notices_a_missing_rule() -> None:
    lists = [[r] for r in DAWN_OF_MADNESS if r != "R41"]
    assert uncovered(lists, among=DAWN_OF_MADNESS) == ["R41"]

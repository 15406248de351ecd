"""The chapters' special rules: each names only hooks the engine registers, fixtures name
only special rules that exist, and `dmtool test --coverage` counts them honestly."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dmtool.engine.deep_madness import RULES
from dmtool.loading import read_document
from dmtool.model.content_index import default_content_dir, index_for
from dmtool.scenarios.commands import ScenarioOptions, run_tests
from dmtool.scenarios.special_coverage import coverage, special_rules

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "scenarios"


def _fixtures() -> list[dict[str, object]]:
    out = []
    for path in sorted(FIXTURES.rglob("*.yaml")):
        data = read_document(path).document.data  # type: ignore[union-attr]
        if isinstance(data, dict) and data.get("kind") == "scenario":
            out.append(data)
    return out


def test_the_schema_offers_exactly_the_registered_hooks() -> None:
    schema = json.loads((ROOT / "schemas" / "chapter.schema.json").read_text())
    assert schema["$defs"]["rule_hook"]["enum"] == sorted(RULES.hooks)


def test_fixtures_name_special_rules_that_exist() -> None:
    known = {rule.ref for rule in special_rules(index_for(default_content_dir()))}
    named = {ref for data in _fixtures() for refs in (data.get("special_rules") or {}).values()
             for ref in refs}
    assert named <= known, sorted(named - known)


def test_every_special_rule_has_an_id_unique_in_its_chapter() -> None:
    rules = special_rules(index_for(default_content_dir()))
    refs = [rule.ref for rule in rules]
    assert len(refs) == len(set(refs)) == 32


def test_a_rule_counts_only_with_structure_and_fixtures_both_ways() -> None:
    index = index_for(default_content_dir())
    ref = "dimension-breach/trap-mines"
    only_one_way = [{"special_rules": {"applies": [ref]}}]
    assert ref in coverage(index, only_one_way).missing
    both = only_one_way + [{"special_rules": {"does_not_apply": [ref]}}]
    assert ref not in coverage(index, both).missing
    assert "purgatory/penitent-sorrow" in coverage(index, both).missing


def test_a_skipped_fixture_proves_nothing() -> None:
    index = index_for(default_content_dir())
    ref = "dimension-breach/trap-mines"
    skipped = [{"special_rules": {"applies": [ref], "does_not_apply": [ref]},
                "skip": "not ready"}]
    assert ref in coverage(index, skipped).missing


def test_coverage_prints_the_line_and_lists_the_rest() -> None:
    out: list[str] = []
    run_tests(ScenarioOptions(paths=(FIXTURES / "deep-madness",), coverage=True,
                              keyword="dimension"), emit=out.append)
    text = "".join(out)
    result = coverage(index_for(default_content_dir()), _fixtures())
    assert f"chapter special rules: {result.executed} of 32 executed" in text
    assert "Trap mines" not in text  # proven both ways
    for ref in result.missing:
        chapter = ref.split("/")[0]
        assert f"  {chapter}:" in text


def test_rules_md_has_a_row_per_special_rule_and_names_real_fixtures() -> None:
    text = (ROOT / "dmtool" / "engine" / "deep_madness" / "RULES.md").read_text()
    rows = set(re.findall(r"^\| ([a-z0-9-]+/[a-z0-9-]+) \| (?:001|004):\d+", text, re.M))
    assert rows == {rule.ref for rule in special_rules(index_for(default_content_dir()))}
    named = set(re.findall(r"\b(r\d\d-[a-z0-9-]+[a-z0-9])\b", text))
    fixtures = {p.stem for p in (FIXTURES / "deep-madness").glob("*.yaml")}
    assert named and named <= fixtures, sorted(named - fixtures)

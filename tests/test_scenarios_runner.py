"""`dmtool test` as a function: progress, summary, failures with diffs, -k, coverage, json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.errors import UsageError
from dmtool.scenarios.commands import ScenarioOptions, run_tests
from dmtool.scenarios.select import compile_keyword

MODELINE = "# yaml-language-server: $schema=../schemas/scenario.schema.json\n"
FIXTURE = MODELINE + """kind: scenario
id: {id}
title: {title}
rules: [{rule}]
setup:
  wanderers:
    mara:
      sentience: {{red: 2, blue: 1, green: 2, yellow: 1, purple: 1}}
      max_health: 6
      max_mental_capacity: 7
      shard: 1
steps:
  - do: {{wanderer: mara, move: {{to: 2}}}}
expect:
  wanderers.mara.mental_capacity: {mc}
"""


def write(folder: Path, name: str, *, mc: int = 6, rule: str = "R09",
          title: str = "moving costs capacity") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(FIXTURE.format(id=name, title=title, rule=rule, mc=mc))
    return path


def run(paths: tuple[Path, ...], **options: object) -> tuple[int, str]:
    chunks: list[str] = []
    settings = ScenarioOptions(paths=paths, **options)  # type: ignore[arg-type]
    outcome = run_tests(settings, emit=chunks.append)
    return outcome.exit_code, "".join(chunks)


def test_all_pass(tmp_path: Path) -> None:
    write(tmp_path, "one")
    write(tmp_path, "two")
    code, out = run((tmp_path,))
    assert code == 0
    assert out.splitlines()[-1] == "2 passed, 0 failed"
    assert ".." in out


def test_failure_points_at_the_line_and_shows_both_values(tmp_path: Path) -> None:
    write(tmp_path, "good")
    bad = write(tmp_path, "bad", mc=4)
    code, out = run((tmp_path,))
    assert code == 1
    assert out.splitlines()[-1] == "1 passed, 1 failed"
    line = next(n for n, text in enumerate(bad.read_text().splitlines(), 1)
                if "mental_capacity: 4" in text)
    assert f"{bad.as_posix()}:{line}:3: error DM409" in out
    assert "expected 4, got 6" in out
    assert "F" in out.splitlines()[1]


def test_explain_prints_the_event_log(tmp_path: Path) -> None:
    write(tmp_path, "one")
    _, out = run((tmp_path,), explain=True)
    assert "--- event log: one" in out
    assert "moved  wanderer=mara from=1 to=2 spaces=1" in out


def test_keyword_selects_by_id_title_and_rule(tmp_path: Path) -> None:
    write(tmp_path, "alpha", rule="R09")
    write(tmp_path, "beta", rule="R11", title="brains pay")
    _, out = run((tmp_path,), keyword="R11")
    assert "1 deselected" in out and out.splitlines()[-1] == "1 passed, 0 failed"
    _, out = run((tmp_path,), keyword="not brains and alpha")
    assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_keyword_expressions() -> None:
    match = compile_keyword("(a or b) and not c")
    assert match("a") and match("B x") and not match("a c") and not match("z")
    with pytest.raises(UsageError):
        compile_keyword("a and")


def test_coverage_lists_rules_without_fixtures(tmp_path: Path) -> None:
    write(tmp_path, "alpha", rule="R09")
    _, out = run((tmp_path,), coverage=True)
    listed = next(line for line in out.splitlines() if line.startswith("rule ids without"))
    assert "R08, R10" in listed and "R09" not in listed


def test_json_format(tmp_path: Path) -> None:
    write(tmp_path, "alpha")
    code, out = run((tmp_path,), format="json", coverage=True)
    data = json.loads(out)
    assert code == 0 and data["summary"] == "1 passed, 0 failed"
    assert data["results"][0]["events"][0]["event"] == "action"
    assert "R01" in data["uncovered_rules"]


def test_skipped_fixtures_are_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "later")
    path.write_text(path.read_text().replace("rules: [R09]", "rules: [R09]\nskip: not yet"))
    code, out = run((tmp_path,))
    assert code == 0 and out.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"
    assert "SKIPPED" in out and "not yet" in out


def test_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        run((tmp_path / "missing",))
    with pytest.raises(UsageError):
        run((tmp_path,))  # no fixtures at all
    write(tmp_path, "one")
    with pytest.raises(UsageError):
        run((tmp_path,), format="xml")


def test_unreadable_fixture_fails_the_run(tmp_path: Path) -> None:
    write(tmp_path, "one")
    (tmp_path / "broken.yaml").write_text("kind: scenario\nid: [unclosed\n")
    code, out = run((tmp_path,))
    assert code == 1 and "DM001" in out


BORROWING = """kind: scenario
id: borrowing
rules: [R25]
content: library
setup:
  wanderers:
    mara: {from: mara-voss, mental_capacity: 0, shard: 2}
  monsters:
    hollow-hound: {from: hollow-hound, shard: 1}
steps:
  - do: {activate: {monster: hollow-hound}}
expect:
  monsters.hollow-hound: {shard: 2, mental_capacity: 3}
  wanderers.mara: {max_health: 6, malformations: [m-one, m-two, m-three]}
"""
TERROR = """kind: terror
id: hollow-hound
name: Hollow Hound
max_health: 4
max_mental_capacity: 5
existence_reward: 2
passive: {text: Nothing special.}
rift_abilities: []
actions:
  - {cost: 2, text: It lopes closer., effects: [{monster_move: {spaces: 1}}]}
"""


def test_fixtures_borrow_cards_from_content(tmp_path: Path) -> None:
    # A complete content tree (tests/cases' Mara) plus one terror: `dmtool test` checks the
    # content fixtures borrow from, so the library must pass `dmtool check`.
    library = tmp_path / "library"
    shutil.copytree(Path(__file__).parent / "cases" / "DM303-condition", library)
    (library / "expected.txt").unlink()
    (library / "hound.yaml").write_text(TERROR)
    malformations = "".join(
        f"      mara-malformation-{i}: {{wanderer: mara, number: {i}, max_health: 5, "
        f"max_mental_capacity: 5}}\n"
        for i in (1, 2, 3))
    fixture = BORROWING.replace("  monsters:", "  cards:\n    malformations:\n" + malformations
                                + "  monsters:")
    fixture = fixture.replace("from: mara-voss", "from: mara").replace(
        "{max_health: 6, malformations: [m-one, m-two, m-three]}",
        "{max_health: 8, malformations: [mara-malformation-1, mara-malformation-2, "
        "mara-malformation-3]}")
    (tmp_path / "borrowing.yaml").write_text(fixture)
    code, out = run((tmp_path / "borrowing.yaml",))
    assert code == 0, out


def test_errors_in_the_content_fixtures_borrow_from_are_printed_and_fail_the_run(
    tmp_path: Path,
) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    path = write(fixtures, "borrows")
    path.write_text(path.read_text().replace("kind: scenario\n", "kind: scenario\ncontent: "
                                             "../content\n"))
    content = tmp_path / "content" / "codas"
    content.mkdir(parents=True)
    (content / "broken.yaml").write_text("kind: coda\nid: broken\ntitel: Broken\n")
    code, text = run((fixtures,))
    assert code == 1
    assert "1 passed, 0 failed" in text
    assert "content/codas/broken.yaml" in text and "unknown property 'titel'" in text
    code, data = run((fixtures,), format="json")
    assert code == 1
    assert any(d["code"] == "DM102" for d in json.loads(data)["content_diagnostics"])


def test_a_file_among_the_fixtures_whose_kind_is_misspelt_is_reported(tmp_path: Path) -> None:
    write(tmp_path, "good")
    bad = write(tmp_path, "bad")
    bad.write_text(bad.read_text().replace("kind: scenario", "kind: scenaro"))
    code, text = run((tmp_path,))
    assert code == 1
    assert "bad.yaml" in text and "'scenaro'" in text and "did you mean 'scenario'" in text


def test_content_names_the_tree_fixtures_without_their_own_borrow_from_and_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `dmtool test --content`: fixtures that name no content: of their own run on that tree,
    # and it is the tree whose errors are reported with them; here a checkout holding it.
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "content" / "codas").mkdir(parents=True)
    (elsewhere / "content" / "codas" / "broken.yaml").write_text("kind: coda\nid: broken\ntitel: Broken\n")
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    write(fixtures, "moves")
    monkeypatch.chdir(tmp_path)  # no content/ here: the games dmtool ships
    plain = CliRunner().invoke(cli, ["test", str(fixtures)])
    assert plain.exit_code == 0, plain.output
    given = CliRunner().invoke(cli, ["test", str(fixtures), "--content", str(elsewhere)])
    assert given.exit_code == 1, given.output
    assert "1 passed, 0 failed" in given.output
    assert "codas/broken.yaml" in given.output and "unknown property 'titel'" in given.output
    missing = CliRunner().invoke(cli, ["test", str(fixtures), "--content", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "does not exist" in missing.output

"""Fixture diagnostics an author can act on: one diagnostic for an unknown action or effect
key (with did-you-mean), condition types and event kinds judged against the engine's own
registries (listing the valid ones), and lists compared in any order when asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.engine.games import registry
from dmtool.loading import read_document
from dmtool.scenarios.expect import check_events, check_state, matches
from dmtool.scenarios.runner import run_document

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = """# yaml-language-server: $schema=../schemas/scenario.schema.json
kind: scenario
id: restored-capacity
title: Capacity restored brings a character back
rules: [R08]
setup:
  wanderers:
    mara: {sentience: {red: 2, blue: 1, green: 2, yellow: 1, purple: 1}, max_health: 6, max_mental_capacity: 7, mental_capacity: 0, shard: 1}
    ilse: {sentience: {red: 1, blue: 2, green: 1, yellow: 2, purple: 1}, max_health: 5, max_mental_capacity: 6, mental_capacity: 2, shard: 2}
steps:
  - expect: {active: [ilse]}
  - do: {wanderer: mara, effect: {restore_mental_capacity: 3}}
    expect: {wanderers.mara.mental_capacity: 3, active: [mara]}
  - do: {wanderer: mara, pass: {}}
  - do: {wanderer: ilse, pass: {}}
    expect: {phase: refresh}
expect:
  phase: refresh
  active: []
"""


def _fixture(tmp_path: Path, old: str = "", new: str = "") -> Path:
    (tmp_path / "schemas").exists() or (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    folder = tmp_path / "fixtures"
    folder.mkdir(exist_ok=True)
    text = FIXTURE.replace("../schemas", "../schemas")
    if old:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = folder / "fixture.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _checked(path: Path) -> list[dict[str, Any]]:
    """`dmtool check` of the fixture, as JSON diagnostics."""
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--format", "json", str(path)])
    return json.loads(result.stdout)["diagnostics"]


def _run(path: Path) -> Any:
    loaded = read_document(path, path.name)
    assert loaded.document is not None
    return run_document(loaded.document)


def test_the_fixture_passes_as_written(tmp_path: Path) -> None:
    path = _fixture(tmp_path)
    assert _checked(path) == []
    assert _run(path).status == "passed"


@pytest.mark.parametrize(
    ("old", "new", "code", "words"),
    [
        ("do: {wanderer: mara, pass: {}}", "do: {wanderer: mara, pas: {}}", "DM102",
         ["'pas'", "did you mean 'pass'?"]),
        ("effect: {restore_mental_capacity: 3}", "effect: {restore_mental_capacit: 3}", "DM105",
         ["'restore_mental_capacit'", "did you mean 'restore_mental_capacity'?"]),
        ("do: {wanderer: ilse, pass: {}}", "do: {wanderer: ilse}", "DM104",
         ["exactly one of", "pass", "move", "effect", "names none"]),
        ("do: {wanderer: ilse, pass: {}}", "do: {wanderer: ilse, pass: {}, search: {}}", "DM101",
         ["exactly one of", "'pass' and 'search'"]),
    ],
    ids=["unknown-action", "unknown-effect", "no-action", "two-actions"],
)
def test_one_mistake_in_a_step_is_one_diagnostic(
    tmp_path: Path, old: str, new: str, code: str, words: list[str]
) -> None:
    path = _fixture(tmp_path, old, new)
    ran = [{"code": d.code, "message": d.message, "hint": d.hint} for d in _run(path).diagnostics]
    for found in (_checked(path), ran):
        assert [d["code"] for d in found] == [code], found
        text = found[0]["message"] + " " + (found[0].get("hint") or "")
        for word in words:
            assert word in text, text


def test_a_condition_type_the_game_does_not_have_is_reported_with_the_valid_ones(
    tmp_path: Path,
) -> None:
    path = _fixture(tmp_path, "mental_capacity: 0, shard: 1}",
                    "mental_capacity: 0, shard: 1, conditions: {filth: 2, slowd: 1}}")
    found = [d for d in _checked(path) if d["code"] == "DM427"]
    assert len(found) == 2
    filth = next(d for d in found if "'filth'" in d["message"])
    assert "Dawn of Madness" in filth["message"]
    for kind in ("burdened", "slowed", "withered"):
        assert kind in filth["message"]
    slowd = next(d for d in found if "'slowd'" in d["message"])
    assert slowd["hint"] == "did you mean 'slowed'?"
    assert _run(path).status == "error"


def test_an_event_kind_the_engine_never_logs_is_reported_before_the_run(tmp_path: Path) -> None:
    path = _fixture(tmp_path, "expect: {phase: refresh}",
                    "expect: {phase: refresh, events: [{event: dropped_to_zer}]}")
    [found] = _checked(path)
    assert found["code"] == "DM428" and found["hint"] == "did you mean 'dropped_to_zero'?"
    assert "never logs" in found["message"] and "capacity_restored" in found["message"]
    result = _run(path)
    assert [d.code for d in result.diagnostics] == ["DM428"] and result.status == "error"


def test_a_missing_event_lists_the_kinds_that_were_logged() -> None:
    log = [{"step": 1, "event": "action", "wanderer": "mara"},
           {"step": 1, "event": "dropped_to_zero", "character": "mara"},
           {"step": 2, "event": "action", "wanderer": "ilse"}]
    [miss] = check_events(log, {"events": [{"event": "died", "wanderer": "mara"}]})
    assert miss.code == "DM419"
    assert "no 'died' event was logged" in miss.message
    assert "the log has: action (2), dropped_to_zero (1)" in miss.message


def test_registries_name_the_condition_types_of_each_game() -> None:
    assert "withered" in registry("dawn-of-madness").condition_cards
    assert "filth" not in registry("dawn-of-madness").condition_cards


def test_lists_compare_exactly_unless_any_order_is_asked() -> None:
    assert matches(["a", "b"], ["a", "b"]) and not matches(["a", "b"], ["b", "a"])
    assert matches({"any_order": ["a", "b"]}, ["b", "a"])
    assert matches({"any_order": ["a", "a", "b"]}, ["a", "b", "a"])
    assert not matches({"any_order": ["a", "b"]}, ["a", "b", "b"])
    assert not matches({"any_order": ["a"]}, ["a", "a"])
    # Items are matched partially, each by a different actual item.
    assert matches({"any_order": [{"id": 2}, {"id": 1}]}, [{"id": 1, "x": 0}, {"id": 2}])
    assert not matches({"any_order": [{"id": 1}, {"id": 1}]}, [{"id": 1}, {"id": 2}])
    [miss] = check_state({"killed": ["hound", "drift"]}, {"killed": {"any_order": ["drift"]}})
    assert miss.code == "DM409" and "in any order" in miss.message


def test_events_may_be_expected_in_any_order() -> None:
    log = [{"event": "a"}, {"event": "b"}]
    assert check_events(log, {"events": {"any_order": [{"event": "b"}, {"event": "a"}]}}) == []
    assert check_events(log, {"events": [{"event": "b"}, {"event": "a"}]}) != []
    [miss] = check_events(log, {"events": {"any_order": [{"event": "c"}]}})
    assert miss.code == "DM419"


def test_a_fixture_expecting_a_list_in_any_order_passes(tmp_path: Path) -> None:
    path = _fixture(tmp_path, "  active: []\n", "  active: []\n  visited: {any_order: []}\n")
    assert _checked(path) == []
    assert _run(path).status == "passed"


def test_a_fixture_expecting_events_in_any_order_passes(tmp_path: Path) -> None:
    # The two passes drop both wanderers to zero; written in the opposite order.
    events = ("  events: {any_order: [{event: dropped_to_zero, character: ilse}, "
              "{event: dropped_to_zero, character: mara}]}\n")
    path = _fixture(tmp_path, "  active: []\n", "  active: []\n" + events)
    assert _checked(path) == []
    assert _run(path).status == "passed"
    ordered = _fixture(tmp_path, "  active: []\n", "  active: []\n" + events.replace(
        "{any_order: [", "[").replace("]}\n", "]\n"))
    assert _run(ordered).status == "failed"

"""Chapter and campaign rules (DM217-DM218, DM220-DM228, DM235-DM237) on small chapters."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.validation.pipeline import CheckOptions, run_check

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def _modeline(kind: str) -> str:
    return f"# yaml-language-server: $schema={SCHEMAS / kind}.schema.json\n"


MINI = _modeline("manifest") + """kind: manifest
id: mini
title: Mini expansion
scope: expansion
source: {rulebook: madness-reborn, section: Components}
components:
  - {id: noise-tokens, line: 1, name: Noise Tokens, count: 24}
  - {id: ritual-markers, line: 2, name: Ritual Markers, count: 3}
  - id: monster-figures
    line: 3
    name: Monster Figures
    count: 2
    parts:
      - {id: boss-figure, name: Boss, count: 1}
      - {id: egg-figure, name: Egg, count: 1}
"""

CHAPTER = _modeline("chapter") + """kind: chapter
id: {id}
expansion: {expansion}
number: {number}
title: Test Chapter
source: {{rulebook: madness-reborn, section: Test Chapter}}
introduction: A chapter made up for a test.
board:
  rooms: [1, 2, 3, 4]
  rooms_printed: true
  labels:
    - {{room: 1, label: Start, role: start}}
room_deck: [1, 2]
devoured_deck: [3, 4]
components:
  - {{id: noise-tokens, name: Noise Tokens, source: expansion, count: 24, pool: true}}
  - {{id: boss-figure, name: Boss figure, source: expansion, count: 1}}
  - {{id: egg-figure, name: Egg figure, source: expansion, count: 1}}
  - {{id: spawn-markers, name: Spawn markers, source: base-game, count: 99}}
monsters:
  - {{id: boss, name: Boss, card: chapter-specific, figure: boss-figure}}
  - {{id: boss-2, name: Boss II, card: chapter-specific}}
  - {{id: egg, name: Egg, card: unspecified, figure: egg-figure}}
special_setup:
  activation_track:
    - {{position: 6, monsters: [boss], when: before-choosing}}
  withheld_spawn_cards: [boss]
  steps: [The boss figure goes into its marked space.]
devouring_track:
  values_note: Not printed.
  hazards:
    - skull: teal
      summary: The boss gets stronger.
      effects: [{{replace_monster_card: {{from: boss, to: boss-2}}}}]
    - skull: blue
      summary: A room is devoured and an egg spawns there.
      effects: [{{devour_room: {{then: [{{spawn: {{monster: egg, at: devoured-room}}}}]}}}}]
investigate:
  - summary: An investigator in room 2 discards their noise tokens.
    when: {{in_room: {{room: 2}}}}
    effects: [{{discard: {{component: noise-tokens, count: all}}}}]
winning:
  - summary: The boss dies.
    when: {{monster_dead: boss}}
losing:
  printed: true
  conditions:
    - summary: An investigator takes a seventh noise token.
      when: {{any_investigator: {{count: {{of: {{component: noise-tokens}}, in: held, at_least: 7}}}}}}
"""


def _chapter(chapter_id: str = "test-chapter", expansion: str = "mini", number: int = 1,
             *changes: tuple[str, str]) -> str:
    text = CHAPTER.format(id=chapter_id, expansion=expansion, number=number)
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def _findings(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    report = run_check(CheckOptions(paths=(tmp_path,)))
    return sorted((d.code, Path(d.location.path).name, d.location.line) for d in report.diagnostics)


def _codes(tmp_path: Path, *changes: tuple[str, str]) -> list[str]:
    found = _findings(tmp_path, {"mini.yaml": MINI, "chapter.yaml": _chapter("test-chapter", "mini", 1, *changes)})
    return [code for code, _, _ in found]


def test_a_well_formed_chapter_is_clean(tmp_path: Path) -> None:
    assert _codes(tmp_path) == []


@pytest.mark.parametrize(("change", "expected"), [
    (("room_deck: [1, 2]", "room_deck: [1, 2, 7]"), ["DM220"]),
    (("devoured_deck: [3, 4]", "devoured_deck: [3, 4, 9]"), ["DM220"]),
    (("room_deck: [1, 2]", "room_deck: [1, 2, 3]"), ["DM221"]),
    (("room_deck: [1, 2]", "room_deck: [1, 2, 2]"), ["DM225"]),
    (("rooms: [1, 2, 3, 4]", "rooms: [1, 2, 3, 4, 4]"), ["DM225"]),
])
def test_decks_hold_board_rooms_once(tmp_path: Path, change: tuple[str, str], expected: list[str]) -> None:
    assert _codes(tmp_path, change) == expected


def test_a_room_in_neither_deck_warns_unless_noted(tmp_path: Path) -> None:
    assert _codes(tmp_path, ("room_deck: [1, 2]", "room_deck: [1]")) == ["DM222"]
    noted = ("devoured_deck: [3, 4]", "devoured_deck: [3, 4]\nrooms_in_neither_deck:\n"
             "  - {room: 2, reason: The rulebook keeps it out.}")
    assert _codes(tmp_path, ("room_deck: [1, 2]", "room_deck: [1]"), noted) == []


@pytest.mark.parametrize("room", [2, 8])
def test_a_note_for_a_room_that_needs_none_warns(tmp_path: Path, room: int) -> None:
    noted = ("devoured_deck: [3, 4]", f"devoured_deck: [3, 4]\nrooms_in_neither_deck:\n"
             f"  - {{room: {room}, reason: Stale.}}")
    assert _codes(tmp_path, noted) == ["DM223"]


@pytest.mark.parametrize("change", [
    ("{room: 1, label: Start, role: start}", "{room: 5, label: Start, role: start}"),
    ("    - {room: 1, label: Start, role: start}", "    - {room: 1, label: Start, role: start}\n  spawn_marker_rooms: [6]"),
    ("    - {room: 1, label: Start, role: start}", "    - {room: 1, label: Start, role: start}\n"
     "  markers: [{component: noise-tokens, rooms: [2, 12]}]"),
    ("when: {in_room: {room: 2}}", "when: {in_room: {room: 20}}"),
])
def test_named_rooms_must_be_on_the_board(tmp_path: Path, change: tuple[str, str]) -> None:
    assert _codes(tmp_path, change) == ["DM224"]


@pytest.mark.parametrize("change", [
    ("when: {monster_dead: boss}", "when: {monster_dead: bos}"),
    ("from: boss, to: boss-2", "from: boss, to: boss-3"),
    ("monsters: [boss], when", "monsters: [bass], when"),
    ("withheld_spawn_cards: [boss]", "withheld_spawn_cards: [egg, bos]"),
    ("spawn: {monster: egg,", "spawn: {monster: eggs,"),
    ("component: noise-tokens, count: all", "component: noise-token, count: all"),
    ("card: chapter-specific, figure: boss-figure", "card: chapter-specific, figure: boss-figures"),
])
def test_every_name_is_declared(tmp_path: Path, change: tuple[str, str]) -> None:
    assert _codes(tmp_path, change) == ["DM226"]


def test_expansion_needs_are_checked_against_the_manifest(tmp_path: Path) -> None:
    more = ("{id: noise-tokens, name: Noise Tokens, source: expansion, count: 24, pool: true}",
            "{id: noise-tokens, name: Noise Tokens, source: expansion, count: 25}")
    assert _codes(tmp_path, more) == ["DM217"]
    unknown = ("{id: egg-figure, name: Egg figure, source: expansion, count: 1}",
               "{id: egg-figures, name: Egg figure, source: expansion, count: 1}")
    assert _codes(tmp_path, unknown, ("figure: egg-figure}", "figure: egg-figures}")) == ["DM214"]


def test_unlisted_components_are_reported_as_info(tmp_path: Path) -> None:
    change = ("  - {id: spawn-markers,", "  - {id: trap-figures, name: Traps, source: unlisted, count: 3, "
              "note: Not in any list.}\n  - {id: spawn-markers,")
    assert _codes(tmp_path, change) == ["DM218"]


def test_hazard_colours_are_unique_but_unlabelled_ones_may_repeat(tmp_path: Path) -> None:
    assert _codes(tmp_path, ("skull: blue", "skull: teal")) == ["DM227"]
    assert _codes(tmp_path, ("skull: blue", "skull: unlabelled"), ("skull: teal", "skull: unlabelled")) == []


def test_chapter_numbers_are_unique_per_expansion(tmp_path: Path) -> None:
    other = MINI.replace("id: mini\n", "id: other\n")
    files = {"mini.yaml": MINI, "other.yaml": other, "a.yaml": _chapter("a-chapter", "mini", 1),
             "b.yaml": _chapter("b-chapter", "other", 1)}
    assert _findings(tmp_path, files) == []
    files["c.yaml"] = _chapter("c-chapter", "mini", 1)
    assert [code for code, *_ in _findings(tmp_path, files)] == ["DM228"]


def _campaign(steps: list[tuple[str, list[str]]]) -> str:
    rows = ""
    for chapter_id, keeps in steps:
        rows += f"  - chapter: {chapter_id}\n" + (f"    keeps: [{', '.join(keeps)}]\n" if keeps else "")
    return _modeline("campaign") + f"""kind: campaign
id: mini-campaign
expansion: mini
title: Mini campaign
source: {{rulebook: rise-of-dagon, section: Ongoing Campaign}}
in_order: true
general_keeps: [noise-tokens]
chapters:
{rows}"""


def _campaign_codes(tmp_path: Path, steps: list[tuple[str, list[str]]], *extra: tuple[str, str]) -> list[str]:
    files = {"mini.yaml": MINI, "one.yaml": _chapter("first", "mini", 1),
             "two.yaml": _chapter("second", "mini", 2), "campaign.yaml": _campaign(steps)}
    files.update(dict(extra))
    return [code for code, *_ in _findings(tmp_path, files)]


def test_a_campaign_in_order_with_carry_overs_is_clean(tmp_path: Path) -> None:
    assert _campaign_codes(tmp_path, [("first", ["noise-tokens", "ritual-markers"]), ("second", [])]) == []


@pytest.mark.parametrize(("steps", "expected"), [
    ([("second", ["noise-tokens"]), ("first", [])], ["DM235", "DM235"]),
    ([("first", [])], ["DM235"]),                                   # chapter two left out
    ([("first", ["noise-tokens"]), ("first", [])], ["DM235", "DM235"]),
    ([("first", ["noise-token"]), ("second", [])], ["DM214"]),
    ([("first", []), ("second", [])], ["DM237"]),
    ([("first", ["noise-tokens"]), ("second", ["noise-tokens"])], ["DM237"]),
])
def test_campaign_problems(tmp_path: Path, steps: list[tuple[str, list[str]]], expected: list[str]) -> None:
    assert sorted(_campaign_codes(tmp_path, steps)) == expected


def test_campaign_chapters_belong_to_its_expansion(tmp_path: Path) -> None:
    other = ("other.yaml", MINI.replace("id: mini\n", "id: other\n"))
    foreign = ("three.yaml", _chapter("foreign", "other", 3))
    steps = [("first", ["noise-tokens"]), ("second", ["noise-tokens"]), ("foreign", [])]
    assert _campaign_codes(tmp_path, steps, other, foreign) == ["DM236"]

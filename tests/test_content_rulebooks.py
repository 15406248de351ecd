"""Cross-check the rulebook content under content/ against the rulebook texts themselves.

Component lists, room lists, decks, hazards, devour values, investigate actions, losing
sections, campaign carry-overs and a few DoM facts are parsed from shared/rulebooks/ and
compared with the authored YAML, so "every line is in a manifest" is a tested fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dmtool.validation.pipeline import CheckOptions, run_check
from tests.rulebook_support import find_rulebooks

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
RULEBOOKS = find_rulebooks() or ROOT.parent / "shared" / "rulebooks"
FILES = {
    "dawn-of-madness": "000_27a3168eaf1dec26.txt",
    "madness-reborn": "001_10a22269de237852.txt",
    "rise-of-dagon": "004_200f67c128e22d59.txt",
}

pytestmark = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason=f"no rulebooks at {RULEBOOKS}")


def _text(book: str) -> str:
    return (RULEBOOKS / FILES[book]).read_text(encoding="utf-8")


def _lines(book: str) -> list[str]:
    return [line.rstrip() for line in _text(book).splitlines()]


def _load(relative: str) -> Any:
    return YAML(typ="safe", pure=True).load((CONTENT / relative).read_text(encoding="utf-8"))


def _docs(folder: str) -> list[Any]:
    return [YAML(typ="safe", pure=True).load(p.read_text(encoding="utf-8"))
            for p in sorted((CONTENT / folder).rglob("*.yaml"))]


def _between(lines: list[str], start: str, end: str) -> list[str]:
    """Non-empty lines after the heading line `start` up to the heading line `end`."""
    first = lines.index(start) + 1
    last = lines.index(end, first)
    return [line for line in lines[first:last] if line.strip()]


# ---------------------------------------------------------------- component lists

@dataclass
class Printed:
    count: int | None
    name: str
    paren: str | None = None
    title: str | None = None


def _split(text: str) -> list[str]:
    """Split a printed list on commas and 'and' outside brackets."""
    pieces, depth, current = [], 0, ""
    tokens = re.split(r"(\(|\)|,\s*and\s+|,\s*|\s+and\s+)", text)
    for token in tokens:
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        if depth == 0 and re.fullmatch(r",\s*and\s+|,\s*|\s+and\s+", token or ""):
            pieces.append(current.strip())
            current = ""
        else:
            current += token
    pieces.append(current.strip())
    return [p for p in pieces if p]


def _printed(piece: str) -> Printed:
    match = re.fullmatch(r"(?:(\d+) )?(.+?)(?: \((.*)\))?", piece)
    assert match, piece
    count, name, paren = match.groups()
    title = None
    if " – " in name:
        name, title = name.split(" – ", 1)
    return Printed(int(count) if count else None, name, paren, title)


def _check_breakdown(item: dict[str, Any], paren: str) -> None:
    if item.get("detail") == paren:
        return
    even = re.fullmatch(r"(\d+) types, (\d+) of each", paren)
    if even:
        assert item["per"] == {"each": "type", "groups": int(even[1]), "count": int(even[2])}
        return
    pieces = _split(paren)
    if "parts" not in item:
        assert len(pieces) == 1, (item["name"], paren)
        per = re.fullmatch(r"(\d+) per (.+)", pieces[0])
        assert per and item["per"]["count"] == int(per[1]) and item["per"]["each"] == per[2], paren
        return
    assert len(pieces) == len(item["parts"]), (item["name"], paren)
    for piece, part in zip(pieces, item["parts"], strict=True):
        per = re.fullmatch(r"(\d+) per (.+)", piece)
        if per:
            assert part["per"]["count"] == int(per[1]) and part["per"]["each"] == per[2], piece
        else:
            printed = _printed(piece)
            assert (part["name"], part["count"]) == (printed.name, printed.count or 1), piece


def _check_manifest(manifest: dict[str, Any], printed_lines: list[str]) -> None:
    by_line: dict[int, list[dict[str, Any]]] = {}
    for item in manifest["components"]:
        by_line.setdefault(item["line"], []).append(item)
    assert sorted(by_line) == list(range(1, len(printed_lines) + 1)), manifest["id"]
    for number, raw in enumerate(printed_lines, start=1):
        text = raw.strip().lstrip("•").strip()
        head, _, colon = text.partition(": ")
        pieces = [_printed(p) for p in _split(head)]
        items = by_line[number]
        assert len(pieces) == len(items), raw
        for printed, item in zip(pieces, items, strict=True):
            assert item["name"] == printed.name, raw
            assert item["count"] == (printed.count or 1), raw
            assert item.get("count_printed", True) == (printed.count is not None), raw
            assert item.get("title") == printed.title, raw
            if printed.paren:
                _check_breakdown(item, printed.paren)
            elif colon:
                _check_breakdown(item, colon)
            else:
                assert "parts" not in item and "per" not in item and "detail" not in item, raw


def test_dawn_of_madness_general_components() -> None:
    printed = _between(_lines("dawn-of-madness"), "General Components", "Wanderer-Specific Components")
    printed = [line for line in printed if line.startswith("•")]
    assert len(printed) == 27
    _check_manifest(_load("dawn-of-madness/manifest.yaml"), printed)


def test_emily_hawkins_components() -> None:
    printed = _between(_lines("dawn-of-madness"), "Emily Hawkins", "Setting Up the Wanderer Stage")
    printed = [line for line in printed if line.startswith("•")]
    assert len(printed) == 16
    manifest = _load("wanderers/emily-hawkins/manifest.yaml")
    _check_manifest(manifest, printed)
    assert manifest["texts_published"] is False


def test_madness_reborn_components() -> None:
    printed = _between(_lines("madness-reborn"), "Components", "Storybook Chapters")
    assert len(printed) == 20
    _check_manifest(_load("deep-madness/madness-reborn/manifest.yaml"), printed)


def test_rise_of_dagon_components() -> None:
    printed = _between(_lines("rise-of-dagon"), "Components", "Additional Rules")
    assert len(printed) == 27
    _check_manifest(_load("deep-madness/rise-of-dagon/manifest.yaml"), printed)


def test_split_keeps_brackets_together() -> None:
    assert _split("2 Family Lineage Cards (1 per abomination family) and 8 Lineage Tokens (1 per abomination)") == [
        "2 Family Lineage Cards (1 per abomination family)", "8 Lineage Tokens (1 per abomination)"]
    assert _split("Dagon, 12 Deep Ones, 5 Hydras, 6 Shadow of Filth") == [
        "Dagon", "12 Deep Ones", "5 Hydras", "6 Shadow of Filth"]


# ---------------------------------------------------------------- chapters

def _chapters(expansion: str) -> list[dict[str, Any]]:
    docs = [d for d in _docs(f"deep-madness/{expansion}") if d["kind"] == "chapter"]
    return sorted(docs, key=lambda d: d["number"])


def _section(book: str, title: str, titles: list[str]) -> str:
    lines = _lines(book)
    start = lines.index(title)
    ends = [lines.index(t, start + 1) for t in titles if t in lines[start + 1:]]
    ends += [lines.index("Card Text")] if "Card Text" in lines[start:] else []
    return "\n".join(lines[start:min(ends, default=len(lines))])


def _ints(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _deck(section: str, name: str) -> list[int] | None:
    match = re.search(rf"^{name}: ([\d, ]+)", section, re.M)
    return None if match is None else _ints(match[1])


def _board_list(section: str) -> list[tuple[int, str | None]] | None:
    match = re.search(r"(?:made of rooms|from top to bottom:|uses rooms) (.*?)(?:\. |, with)", section)
    if match is None:
        return None
    return [(int(n), label or None) for n, label in re.findall(r"(\d+)(?: \(([^)]*)\))?", match[1])]


CHAPTER_BOOKS = [("madness-reborn", 7), ("rise-of-dagon", 3)]


@pytest.mark.parametrize(("book", "expected"), CHAPTER_BOOKS)
def test_chapter_facts_match_the_rulebook(book: str, expected: int) -> None:
    chapters = _chapters(book)
    assert [c["number"] for c in chapters] == list(range(1, expected + 1))
    titles = [c["source"]["section"] for c in chapters]
    for chapter in chapters:
        section = _section(book, chapter["source"]["section"], titles)
        assert chapter["title"] in chapter["source"]["section"]
        assert chapter["room_deck"] == (_deck(section, "Room deck") or [])
        assert chapter["devoured_deck"] == _deck(section, "Devoured deck")
        board = _board_list(section)
        if board is None:
            assert chapter["board"]["rooms_printed"] is False
            assert set(chapter["board"]["rooms"]) == set(chapter["room_deck"] + chapter["devoured_deck"])
        else:
            assert chapter["board"]["rooms_printed"] is True
            assert chapter["board"]["rooms"] == [n for n, _ in board]
            printed = {(n, re.sub(r"^\d+ is the (\w+) space$", r"\1", label)) for n, label in board if label}
            labels = {(label["room"], label["label"]) for label in chapter["board"].get("labels", [])}
            assert printed <= labels, chapter["id"]
        _check_track(book, chapter, section)
        assert len(chapter.get("investigate", [])) == len(re.findall(r'gains?: "Investigate:', section))
        _check_losing(book, chapter, section)
        assert len(chapter["winning"]) == 1


def _check_track(book: str, chapter: dict[str, Any], section: str) -> None:
    hazards = chapter["devouring_track"]["hazards"]
    if book == "madness-reborn":
        colours = [c.lower() for c in re.findall(r"^(\w+) skull icon:", section, re.M)]
        assert [h["skull"] for h in hazards] == colours, chapter["id"]
        assert "values" not in chapter["devouring_track"]
        return
    values = re.search(r"from left to right, are ([\d, ]+)\.", section)
    assert values and chapter["devouring_track"]["values"] == _ints(values[1])
    block = section.split("Hazard Effects:", 1)[1]
    block = re.split(r"^(?:Investigate Actions\.|Special Rules\.)", block, flags=re.M)[0]
    printed = [line for line in block.splitlines() if line.strip()]
    assert [h["skull"] for h in hazards] == ["unlabelled"] * len(printed), chapter["id"]


def _check_losing(book: str, chapter: dict[str, Any], section: str) -> None:
    losing = chapter["losing"]
    lines = section.splitlines()
    if "Losing" not in lines:
        assert losing["printed"] is False, chapter["id"]
        assert ("No losing condition is printed" in section) == ("no printed losing" in losing["note"])
        if book == "rise-of-dagon":
            assert losing["expansion_rules"] == "rise-of-dagon-rules"
        return
    start = lines.index("Losing") + 1
    end = lines.index("Winning", start)
    printed = [line for line in lines[start:end] if line.strip() and not line.startswith("If any")]
    assert losing["printed"] is True
    assert len(losing["conditions"]) == len(printed), chapter["id"]


def _neither(chapter: dict[str, Any]) -> set[int]:
    return set(chapter["board"]["rooms"]) - set(chapter["room_deck"]) - set(chapter["devoured_deck"])


def test_rooms_in_neither_deck_are_the_known_ones() -> None:
    found = {(c["id"], room) for book, _ in CHAPTER_BOOKS for c in _chapters(book) for room in _neither(c)}
    assert found == {("dimension-breach", 1), ("dimension-breach", 5), ("virulent-whispers", 34)}
    noted = {(c["id"], n["room"]) for book, _ in CHAPTER_BOOKS for c in _chapters(book)
             for n in c.get("rooms_in_neither_deck", [])}
    # Every one is recorded with its reason, room 5 of Dimension Breach (the trap mines' room,
    # which the chapter prints in neither deck) beside room 1.
    assert noted == found


def test_special_room_facts() -> None:
    chapters = {c["id"]: c for book, _ in CHAPTER_BOOKS for c in _chapters(book)}
    mr = _text("madness-reborn")
    assert "Do not place a spawn marker in Room 1." in mr
    assert chapters["dimension-breach"]["board"]["no_spawn_marker_rooms"] == [1]
    spawn = re.search(r"spawn markers on rooms ([\d, and]+)\.", mr)
    assert spawn and chapters["wisdom-of-the-mad-king"]["board"]["spawn_marker_rooms"] == _ints(spawn[1])
    bottom = re.search(r"take out room cards (\d+) and (\d+), shuffle them, and place them face down at the deck's bottom", mr)
    assert bottom and chapters["wisdom-of-the-mad-king"]["deck_building"][0]["rooms"] == sorted(_ints(bottom[0]))
    assert "Room 34 is not in the room deck" in _text("rise-of-dagon")


# ---------------------------------------------------------------- campaign and expansion rules

def _kept(sentence: str) -> set[str]:
    names = _split(sentence)
    return {n if n.endswith("s") else n + "s" for n in (n.lower().replace(" ", "-") for n in names)}


def test_campaign_keeps_follow_the_closing_notes() -> None:
    text = _text("rise-of-dagon")
    notes = re.findall(r"After this chapter is won, each investigator keeps his/her (.*?)\. They will", text)
    assert len(notes) == 2
    campaign = _load("deep-madness/rise-of-dagon/campaign.yaml")
    steps = campaign["chapters"]
    assert [s["chapter"] for s in steps] == ["rite-of-bile", "virulent-whispers", "dagon-rising"]
    for note, step in zip(notes, steps, strict=False):
        assert set(step["keeps"]) == _kept(note), step["chapter"]
    general = re.search(r"retained when moving to the next chapter: (.*?)\. If a card", text)
    assert general and set(campaign["general_keeps"]) == _kept(general[1])
    assert "filth-cards" not in steps[1]["keeps"]


def test_rise_of_dagon_losing_thresholds() -> None:
    rules = _load("deep-madness/rise-of-dagon/expansion-rules.yaml")
    text = _text("rise-of-dagon")
    match = re.search(r"reaches (\d+) \(4 investigators\), (\d+) \(5 investigators\), or (\d+) \(6 investigators\)", text)
    assert match
    total = rules["losing"][2]["when"]["count"]["at_least"]["by_investigators"]
    assert total == {"4": int(match[1]), "5": int(match[2]), "6": int(match[3])}
    assert "receives four infection tokens" in text
    assert rules["losing"][0]["when"]["any_investigator"]["count"]["at_least"] == 4
    assert len(rules["losing"]) == 6


def test_card_texts_name_legible_cards_only() -> None:
    text = _text("rise-of-dagon")
    cards = [d for d in _docs("deep-madness/rise-of-dagon") if d["kind"] == "card-text"]
    assert {c["id"] for c in cards} == {"meredith-waite", "hydras-domain-rite-of-bile", "sacrificial-dagger",
                                        "infection-card-face-down", "focused-restoration", "collective-renewal"}
    for card in cards:
        assert card["source"]["section"] in _lines("rise-of-dagon")
        for ability in card["abilities"]:
            if "name" in ability:
                assert f"{ability['name']}." in text or f"{ability['name']}:" in text
        if card.get("shown_as_example"):
            assert f'titled "{card["name"]}"' in text
    assert "Regan Waite investigator card. Her card face is not legible" in text
    assert not any("regan" in c["id"] for c in cards)


# ---------------------------------------------------------------- Dawn of Madness facts

def test_condition_types_follow_the_rulebook() -> None:
    text = _text("dawn-of-madness")
    types = _load("dawn-of-madness/conditions.yaml")["types"]
    assert "There are 11 types of condition cards" in text and len(types) == 11
    shuffled = re.search(r"shuffle the (.*?) decks before placing", text)
    bottom = re.search(r"if the condition card is a (.*?) card, put it on the bottom", text)
    assert shuffled and bottom
    assert {t["name"] for t in types if t["shuffled_at_setup"]} == set(_split(shuffled[1]))
    assert {t["name"] for t in types if t["discard_to"] == "bottom"} == set(
        _split(bottom[1].replace(" or ", ", ")))


def test_dice_and_score_goal_follow_the_rulebook() -> None:
    text = _text("dawn-of-madness")
    rules = _load("dawn-of-madness/game-rules.yaml")
    favoured = dict(re.findall(r"The (\w+) stands for .*? It appears twice on (?:the )?(\w+) sentience dice", text))
    assert {colour: die["favoured"] for colour, die in rules["sentience_dice"]["colours"].items()} == {
        colour: kind for kind, colour in favoured.items()}
    assert "1 Sixteen-sided Otherworld Die" in text and rules["otherworld_die"]["sides"] == 16
    stage = rules["wanderer_stage"]
    assert "cumulative score equals or exceeds 40" in text and stage["score_goal"] == 40
    goals = {v["name"]: v["goal"] for v in stage["variants"]}
    assert "increase the ending score requirement to 50" in text and goals["Longer Game – Deeper Story"] == 50
    assert "reduce the ending score requirement to 30" in text and goals["Shorter Game – Less Story"] == 30
    assert "The wanderer stage is played over 10 game rounds" in text and stage["rounds"] == 10


def test_round_trackers_follow_the_documented_convention() -> None:
    trackers = _load("dawn-of-madness/round-trackers.yaml")["trackers"]
    assert [(t["round"], t["entry"]) for t in trackers] == [(n, n) for n in range(1, 11)]


def test_every_source_section_exists() -> None:
    for path in sorted(CONTENT.rglob("*.yaml")):
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        source = data.get("source") if isinstance(data, dict) else None
        if isinstance(source, dict) and source.get("rulebook") in FILES:
            assert source["section"] in _lines(source["rulebook"]), path


# ---------------------------------------------------------------- durations, pools, examples

def _hazard_lines(section: str) -> dict[str, str]:
    return {m[1].lower(): m[2] for m in re.finditer(r"^(\w+) skull icon: (.*)$", section, re.M)}


def test_hazard_durations_follow_the_rulebook() -> None:
    """A rule a hazard puts in force lasts the round only where the rulebook says 'during
    this round'; where it prints no duration, the content says so instead of inventing one."""
    chapters = _chapters("madness-reborn")
    titles = [c["source"]["section"] for c in chapters]
    seen = 0
    for chapter in chapters:
        printed = _hazard_lines(_section("madness-reborn", chapter["source"]["section"], titles))
        for hazard in chapter["devouring_track"]["hazards"]:
            for effect in hazard["effects"]:
                modifier = effect.get("round_modifier")
                if modifier is None:
                    continue
                seen += 1
                says_round = "during this round" in printed[hazard["skull"]]
                assert modifier["duration"] == ("round" if says_round else "not-printed"), (
                    chapter["id"], hazard["skull"])
    assert seen == 6


def test_pools_and_reserves_are_the_whole_supply() -> None:
    """A pool that can run dry, and the reserve a hazard spawns from, hold the box's count."""
    manifest = _load("deep-madness/madness-reborn/manifest.yaml")
    by_name = {c["name"]: c["count"] for c in manifest["components"]}
    assert "24 Noise Tokens" in _text("madness-reborn")
    dreamlands = next(c for c in _chapters("madness-reborn") if c["id"] == "the-dreamlands")
    noise = next(c for c in dreamlands["components"] if c["id"] == "noise-tokens")
    assert noise["pool"] is True and noise["count"] == by_name["Noise Tokens"] == 24
    assert "No noise token remains in the pool" in _text("madness-reborn")
    memories = next(c for c in _chapters("madness-reborn") if c["id"] == "infectious-memories")
    eggs = next(c for c in memories["components"] if c["id"] == "incarnate-egg-figures")
    assert eggs["count"] == 6 and "6 Incarnate Eggs" in _text("madness-reborn")
    assert "Blue skull icon: Devour a room, then spawn an Incarnate Egg in it." in _text(
        "madness-reborn")


def _printed_examples() -> dict[str, list[dict[str, Any]]]:
    """The red-line examples as the rulebook prints them, one entry per lettered note."""
    text = _text("rise-of-dagon")
    found: dict[str, list[dict[str, Any]]] = {}
    for number in (1, 2):
        block = text.split(f"Red Space Lines Example {number}", 1)[1].split("\n\n", 2)[1]
        block = block.split("Red Space Lines Example", 1)[0].split("Shadow of Filth", 1)[0]
        entries: list[dict[str, Any]] = []
        for line in block.strip().splitlines():
            space = line[0]
            first, _, moved = line.partition("If he were to move to Space ")
            entries.append(_measures(space, first))
            if moved:
                entries.append({**_measures(space, moved), "from_space": moved[0]})
        found[f"red-lines-example-{number}"] = entries
    return found


def _measures(space: str, text: str) -> dict[str, Any]:
    out: dict[str, Any] = {"space": space, "line_of_sight": "not in" not in text}
    both = re.search(r"range and distance of (\d+)", text)
    if both:
        out["range"] = out["distance"] = int(both[1])
    else:
        for key in ("range", "distance"):
            found = re.search(rf"{key} of (?:only )?(\d+)", text)
            if found:
                out[key] = int(found[1])
    return out


def test_red_line_examples_follow_the_rulebook() -> None:
    rules = _load("deep-madness/rise-of-dagon/expansion-rules.yaml")
    red = next(r for r in rules["rules"] if r["title"] == "Red Space Lines")
    printed = _printed_examples()
    assert {e["id"]: e["spaces"] for e in red["examples"]} == printed
    assert len(printed["red-lines-example-1"]) == 6 and len(printed["red-lines-example-2"]) == 4


# ---------------------------------------------------------------- dmtool check on this content

MINE = ["dawn-of-madness/manifest.yaml", "dawn-of-madness/conditions.yaml",
        "dawn-of-madness/support-cards.yaml", "dawn-of-madness/round-trackers.yaml",
        "dawn-of-madness/game-rules.yaml", "wanderers/emily-hawkins/manifest.yaml", "deep-madness"]
EXPECTED = {
    ("content/dawn-of-madness/manifest.yaml", "DM211"),
    ("content/wanderers/emily-hawkins/manifest.yaml", "DM211"),
    ("content/deep-madness/rise-of-dagon/manifest.yaml", "DM211"),
    ("content/deep-madness/madness-reborn/chapters/1-dimension-breach.yaml", "DM218"),
    ("content/deep-madness/madness-reborn/chapters/3-hunger-pangs.yaml", "DM218"),
}


def test_dmtool_check_reports_only_the_intended_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    report = run_check(CheckOptions(paths=tuple(Path("content") / p for p in MINE)))
    found = {(d.location.path, d.code) for d in report.diagnostics}
    assert found == EXPECTED
    assert not [d for d in report.diagnostics if d.severity.value == "error"]
    assert sum(d.code == "DM218" for d in report.diagnostics) == 3

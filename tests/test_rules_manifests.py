"""Manifest, component-reference and Dawn of Madness shape rules (DM210-DM219, DM240-DM242)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.facts import DocumentFacts, Standing
from dmtool.validation.pipeline import CheckOptions, run_check
from dmtool.validation.rules._manifest_index import Counting

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def _modeline(kind: str) -> str:
    return f"# yaml-language-server: $schema={SCHEMAS / kind}.schema.json\n"


MINI = _modeline("manifest") + """kind: manifest
id: mini
title: Mini expansion
scope: expansion
source: {rulebook: madness-reborn, section: Components}
components:
  - {id: noise-tokens, line: 1, name: Noise Tokens, count: 24, per: {each: colour, groups: 4, count: 6}}
  - id: search-cards
    line: 2
    name: Search Cards
    count: 2
    counts: {kind: card-text, expansion: mini}
  - id: monster-figures
    line: 3
    name: Monster Figures
    count: 3
    parts:
      - {id: boss-figure, name: Boss, count: 1}
      - {id: egg-figures, name: Eggs, count: 2}
"""


def _card(card_id: str, component: str = "search-cards") -> str:
    return _modeline("card-text") + f"""kind: card-text
id: {card_id}
expansion: mini
component: {component}
card_type: search
name: {card_id}
source: {{rulebook: rise-of-dagon, section: Card Text}}
abilities:
  - text: A made-up ability.
  - text: Another made-up ability.
"""


def _findings(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    report = run_check(CheckOptions(paths=(tmp_path,)))
    return sorted((d.code, Path(d.location.path).name) for d in report.diagnostics)


def test_a_fully_authored_manifest_is_clean(tmp_path: Path) -> None:
    assert _findings(tmp_path, {"mini.yaml": MINI, "a.yaml": _card("a"), "b.yaml": _card("b")}) == []


def test_too_many_counted_documents_is_an_error(tmp_path: Path) -> None:
    files = {"mini.yaml": MINI, "a.yaml": _card("a"), "b.yaml": _card("b"), "c.yaml": _card("c")}
    assert _findings(tmp_path, files) == [("DM210", "mini.yaml")]


def test_too_few_counted_documents_is_one_info(tmp_path: Path) -> None:
    assert _findings(tmp_path, {"mini.yaml": MINI}) == [("DM211", "mini.yaml")]


def test_unpublished_texts_are_named_in_the_incomplete_message(tmp_path: Path) -> None:
    manifest = MINI.replace("scope: expansion\n", "scope: expansion\ntexts_published: false\n"
                            "texts_note: Nothing is printed.\n")
    (tmp_path / "mini.yaml").write_text(manifest, encoding="utf-8")
    report = run_check(CheckOptions(paths=(tmp_path,)))
    [diagnostic] = report.diagnostics
    assert diagnostic.code == "DM211" and "not published" in diagnostic.message
    assert "0 of 2 Search Cards" in diagnostic.message


def test_items_filter_counts_list_entries(tmp_path: Path) -> None:
    manifest = MINI.replace("counts: {kind: card-text, expansion: mini}",
                            "counts: {kind: card-text, expansion: mini, items: abilities}")
    assert _findings(tmp_path, {"mini.yaml": manifest, "a.yaml": _card("a")}) == []
    assert _findings(tmp_path, {"b.yaml": _card("b")}) == [("DM210", "mini.yaml")]


def test_where_null_matches_an_absent_field(tmp_path: Path) -> None:
    manifest = MINI.replace("counts: {kind: card-text, expansion: mini}",
                            "counts: {kind: card-text, where: {chapter: null}}")
    chaptered = _card("c").replace("card_type: search\n", "card_type: search\nchapter: nowhere\n")
    files = {"mini.yaml": manifest, "a.yaml": _card("a"), "b.yaml": _card("b"), "c.yaml": chaptered}
    assert ("DM210", "mini.yaml") not in _findings(tmp_path, files)


def _doc(data: dict[str, object]) -> SourceDocument:
    return SourceDocument(Path("x.yaml"), "x.yaml", "", data)


def test_counted_honours_copies_and_filters() -> None:
    corpus = Corpus()
    corpus.add(_doc({"kind": "devour-card", "id": "a", "copies": 3}))
    corpus.add(_doc({"kind": "devour-card", "id": "b"}))
    corpus.add(_doc({"kind": "coda", "id": "c", "wanderer": "emily"}))
    corpus.add(_doc({"kind": "coda", "id": "d", "wanderer": "other"}))
    assert sum(n for _, n in Counting(corpus).counted({"kind": "devour-card"})) == 4
    assert [d.data["id"] for d, _ in Counting(corpus).counted({"kind": "coda", "wanderer": "emily"})] == ["c"]


def test_breakdowns_must_add_up(tmp_path: Path) -> None:
    broken = MINI.replace("groups: 4, count: 6", "groups: 4, count: 5").replace(
        "{id: egg-figures, name: Eggs, count: 2}", "{id: egg-figures, name: Eggs, count: 1}")
    assert _findings(tmp_path, {"mini.yaml": broken, "a.yaml": _card("a"), "b.yaml": _card("b")}) == [
        ("DM212", "mini.yaml"), ("DM212", "mini.yaml")]


def test_component_ids_are_unique_within_a_manifest(tmp_path: Path) -> None:
    broken = MINI.replace("{id: egg-figures", "{id: noise-tokens")
    assert _findings(tmp_path, {"mini.yaml": broken, "a.yaml": _card("a"), "b.yaml": _card("b")}) == [
        ("DM213", "mini.yaml")]


def test_counting_an_unknown_kind_is_a_warning(tmp_path: Path) -> None:
    broken = MINI.replace("kind: card-text, expansion: mini", "kind: card-txet")
    assert _findings(tmp_path, {"mini.yaml": broken}) == [("DM216", "mini.yaml")]


def test_references_must_name_a_manifest_component(tmp_path: Path) -> None:
    files = {"mini.yaml": MINI, "a.yaml": _card("a", component="egg-figures"),
             "b.yaml": _card("b", component="egg-figure")}
    assert _findings(tmp_path, files) == [("DM214", "b.yaml")]


DOM = _modeline("manifest") + """kind: manifest
id: base
title: Base game
scope: game
source: {rulebook: dawn-of-madness, section: General Components}
components:
  - {id: two-wanderer-support-cards, line: 1, name: 2-Wanderers Support Cards, count: 5}
"""


def _support(size: int, cards: int) -> str:
    rows = "".join(f"      - {{number: {n}, transcribed: false}}\n" for n in range(1, cards + 1))
    return _modeline("support-cards") + f"""kind: support-cards
id: support
title: Support cards
source: {{rulebook: dawn-of-madness, section: Support Cards}}
sets:
  - id: two-wanderers
    wanderers: 2
    size: {size}
    component: {{manifest: base, component: two-wanderer-support-cards}}
    cards:
{rows}"""


@pytest.mark.parametrize(("size", "cards", "expected"), [
    (5, 5, []),
    (5, 0, []),
    (4, 4, [("DM215", "support.yaml")]),
    (5, 4, [("DM215", "support.yaml")]),
])
def test_supply_sizes_agree_with_the_manifest(
    tmp_path: Path, size: int, cards: int, expected: list[tuple[str, str]]
) -> None:
    text = _support(size, cards)
    if cards == 0:
        text = text.replace("    cards:\n", "    cards: []\n")
    assert _findings(tmp_path, {"base.yaml": DOM, "support.yaml": text}) == expected


RULES = _modeline("expansion-rules") + """kind: expansion-rules
id: mini-rules
expansion: mini
title: Mini rules
source: {rulebook: rise-of-dagon, section: Expansion Overview}
component_groups:
  - {id: chapters-only, use: chapters-only, components: [noise-tokens, search-cards], summary: Chapters only.}
  - {id: anywhere, use: any-chapter-and-base-game, components: [boss-figure, egg-figures], summary: Anywhere.}
"""


def test_grouping_by_all_parts_is_complete(tmp_path: Path) -> None:
    files = {"mini.yaml": MINI, "a.yaml": _card("a"), "b.yaml": _card("b"), "rules.yaml": RULES}
    assert _findings(tmp_path, files) == []


@pytest.mark.parametrize("change", [
    ("[boss-figure, egg-figures]", "[boss-figure]"),            # a part left out
    ("[boss-figure, egg-figures]", "[monster-figures, boss-figure]"),  # line and part both
    ("[noise-tokens, search-cards]", "[noise-tokens, search-cards, noise-tokens]"),
])
def test_grouping_gaps_and_doubles_are_warnings(tmp_path: Path, change: tuple[str, str]) -> None:
    files = {"mini.yaml": MINI, "a.yaml": _card("a"), "b.yaml": _card("b"),
             "rules.yaml": RULES.replace(*change)}
    assert _findings(tmp_path, files) == [("DM219", "rules.yaml")]


BASE = _modeline("manifest") + """kind: manifest
id: base
title: Base game
scope: game
source: {rulebook: dawn-of-madness, section: General Components}
components:
  - {id: game-round-trackers, line: 1, name: Game Round Trackers, count: 10}
"""


def _trackers(pairs: list[tuple[int, int]]) -> str:
    rows = "".join(f"  - {{round: {r}, entry: {e}}}\n" for r, e in pairs)
    return _modeline("round-trackers") + f"""kind: round-trackers
id: trackers
title: Trackers
source: {{rulebook: dawn-of-madness, section: Event Phase}}
component: {{manifest: base, component: game-round-trackers}}
convention: Tracker N reads entry N.
trackers:
{rows}"""


@pytest.mark.parametrize(("pairs", "expected"), [
    ([(n, n) for n in range(1, 11)], []),
    ([(n, 100 + n) for n in range(1, 11)], []),
    ([(n, n) for n in range(1, 10)] + [(10, 9)], [("DM240", "trackers.yaml")]),
    ([(n, n) for n in (2, 1, 3, 4, 5, 6, 7, 8, 9, 10)], [("DM240", "trackers.yaml")]),
])
def test_ten_round_trackers_in_order(
    tmp_path: Path, pairs: list[tuple[int, int]], expected: list[tuple[str, str]]
) -> None:
    assert _findings(tmp_path, {"base.yaml": BASE, "trackers.yaml": _trackers(pairs)}) == expected


DOM_PARTS = _modeline("manifest") + """kind: manifest
id: base
title: Base game
scope: game
source: {rulebook: dawn-of-madness, section: General Components}
components:
  - {id: sentience-dice, line: 1, name: Six-sided Sentience Dice, count: 20}
  - {id: otherworld-die, line: 2, name: Sixteen-sided Otherworld Die, count: 1}
  - {id: burdened-cards, line: 3, name: Burdened Cards, count: 6}
"""


def _condition_types(count: int, duplicate_name: bool = False) -> str:
    rows = "".join(
        f"  - {{id: type-{k}, name: {'Same' if duplicate_name else f'Type {k}'}, deck_size: 6, "
        "component: {manifest: base, component: burdened-cards}, shuffled_at_setup: false, discard_to: top}\n"
        for k in range(1, count + 1))
    return _modeline("condition-types") + f"""kind: condition-types
id: conditions
title: Conditions
source: {{rulebook: dawn-of-madness, section: Condition Cards}}
types:
{rows}"""


@pytest.mark.parametrize(("count", "duplicate_name", "expected"), [
    (11, False, []),
    (12, False, [("DM241", "conditions.yaml")]),
    (11, True, [("DM241", "conditions.yaml")] * 10),
])
def test_eleven_distinct_condition_types(
    tmp_path: Path, count: int, duplicate_name: bool, expected: list[tuple[str, str]]
) -> None:
    files = {"base.yaml": DOM_PARTS, "conditions.yaml": _condition_types(count, duplicate_name)}
    assert _findings(tmp_path, files) == expected


GAME_RULES = _modeline("game-rules") + """kind: game-rules
id: rules
title: Rules
source: {rulebook: dawn-of-madness, section: Winning and Failing the Wanderer Stage}
players: {min: 1, max: 4, solo_wanderers: 2}
sentience_dice:
  sides: 6
  per_colour: 4
  component: {manifest: base, component: sentience-dice}
  colours:
    red: {favoured: hand, faces: [hand, hand, eye, brain, skull, sphere]}
    blue: {favoured: brain, faces: [brain, brain, hand, eye, skull, sphere]}
    green: {favoured: eye, faces: [eye, eye, hand, brain, skull, sphere]}
    yellow: {favoured: skull, faces: [skull, skull, hand, eye, brain, sphere]}
    purple: {favoured: sphere, faces: [sphere, sphere, hand, eye, brain, skull]}
otherworld_die:
  sides: 16
  first_face: 1
  component: {manifest: base, component: otherworld-die}
  uses: [Where things spawn.]
wanderer_stage:
  rounds: 10
  score_goal: 40
  winning: [{summary: Enough points., when: {score_total_at_least: goal}}]
  failing: [{summary: Time runs out., when: {round_ends: 10}}]
  variants: []
"""


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), []),
    (("[hand, hand, eye, brain, skull, sphere]", "[hand, hand, eye, brain, skull]"), ["DM242"]),
    (("[brain, brain, hand, eye, skull, sphere]", "[brain, brain, hand, eye, skull, skull]"), ["DM242"]),
    (("[eye, eye, hand, brain, skull, sphere]", "[eye, eye, eye, brain, skull, sphere]"), ["DM242"]),
    (("first_face: 1", "first_face: 0"), ["DM242"]),
    (("per_colour: 4", "per_colour: 5"), ["DM215"]),
])
def test_dice_shapes(tmp_path: Path, change: tuple[str, str], expected: list[str]) -> None:
    files = {"base.yaml": DOM_PARTS, "rules.yaml": GAME_RULES.replace(*change)}
    assert [code for code, _ in _findings(tmp_path, files)] == expected


def _first_unsure(corpus: Corpus, counts: dict[str, object]) -> int:
    """unsure as first written: every field asked of every document, one at a time."""
    wanted = {k: counts[k] for k in ("wanderer", "expansion") if k in counts}
    found = 0
    for document in corpus.readable(str(counts["kind"])):
        verdicts = [corpus.reads_as(document, key, value) for key, value in wanted.items()]
        found += False not in verdicts and None in verdicts
    return found


def test_unsure_counts_the_documents_that_cannot_be_told_as_first_defined() -> None:
    corpus = Corpus()
    invalid = DocumentFacts(kind="coda", id=None, standing=Standing.INVALID)
    corpus.add(_doc({"kind": "coda", "id": "a", "wanderer": "emily", "expansion": "mini"}))
    corpus.add(_doc({"kind": "coda", "id": "b", "wanderer": "other", "expansion": "mini"}))
    corpus.add(_doc({"kind": "coda", "id": "c", "expansion": "mini"}), invalid)  # no wanderer
    corpus.add(_doc({"kind": "coda", "id": "d", "wanderer": "other"}), invalid)  # says other
    corpus.add(_doc({"kind": "coda", "id": "e"}), invalid)  # neither can be told
    counting = Counting(corpus)
    for counts in ({"kind": "coda", "wanderer": "emily"}, {"kind": "coda", "expansion": "mini"},
                   {"kind": "coda", "wanderer": "emily", "expansion": "mini"},
                   {"kind": "coda", "wanderer": "other", "expansion": "mini"}):
        assert counting.unsure(counts) == _first_unsure(corpus, counts), counts
    assert counting.unsure({"kind": "coda", "wanderer": "emily", "expansion": "mini"}) == 2

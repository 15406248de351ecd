"""The storybook model and the branch walker over effect trees."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from storygraph_support import entry, load, storybook_data, write

from dmtool.model.effects import walk_branches, walk_outlines
from dmtool.model.storybook import (
    Storybook,
    always_exits,
    dead_effects,
    first_branches,
    iter_branches,
    iter_effects,
)

P = ("entries", 0, "effects")


def _shape(effects: list) -> list[tuple[list[str], str, object]]:
    """(decisions, exit kind, exit value) of each branch."""
    return [
        ([s.label for s in b.steps], b.exit.kind, b.exit.value) for b in iter_branches(effects, P)
    ]


def test_a_test_has_a_branch_per_outcome_with_its_effects() -> None:
    effects = [
        {
            "test": {
                "roll": {"red": ["hand"]},
                "pass": [{"score": {"A": 2}}, {"goto": 5}],
                "fail": [{"lose_health": 1}, {"goto": 6}],
            }
        }
    ]
    branches = list(iter_branches(effects, P))
    assert _shape(effects) == [(["pass"], "goto", 5), (["fail"], "goto", 6)]
    assert [leaf.name for leaf in branches[0].leaves] == ["score"]
    assert branches[0].leaves[0].parts == P + (0, "test", "pass", 0, "score")
    assert branches[1].exit.parts == P + (0, "test", "fail", 1, "goto")


def test_sides_that_do_not_exit_fall_through_to_what_follows() -> None:
    effects = [{"test": {"roll": {"red": ["hand"]}, "pass": [{"score": {"A": 1}}]}}, {"goto": 9}]
    branches = list(iter_branches(effects, P))
    assert _shape(effects) == [(["pass"], "goto", 9), (["fail"], "goto", 9)]
    # A missing side is located at its test.
    assert branches[1].steps[0].parts == P + (0, "test")


def test_open_branch_points_at_the_last_decision() -> None:
    effects = [
        {
            "choice": [
                {"label": "Go", "effects": [{"goto": 3}]},
                {"label": "Stay", "effects": [{"score": {"B": 1}}]},
            ]
        }
    ]
    branches = list(iter_branches(effects, P))
    assert _shape(effects) == [(["Go"], "goto", 3), (["Stay"], "open", None)]
    assert branches[1].exit.parts == P + (0, "choice", 1)


def test_an_entry_without_exit_has_one_open_branch_at_the_entry() -> None:
    assert _shape([{"lose_health": 1}]) == [([], "open", None)]
    assert next(iter(iter_branches([], P))).exit.parts == ()


def test_if_may_and_groups() -> None:
    effects = [
        {"all_wanderers": [{"lose_health": 1}]},
        {"if": {"when": {"has_coda": "x"}, "then": [{"goto": 2}]}},
        {"may": [{"score": {"C": 1}}]},
        {"end": "encounter"},
    ]
    branches = list(iter_branches(effects, P))
    assert _shape(effects) == [
        (["then"], "goto", 2),
        (["else", "take"], "end", "encounter"),
        (["else", "skip"], "end", "encounter"),
    ]
    assert branches[1].steps[0].negated and branches[1].steps[0].condition == {"has_coda": "x"}
    assert [leaf.name for leaf in branches[1].leaves] == ["lose_health", "score"]


def test_terminals_end_branches() -> None:
    for name, value in (("end", "event"), ("conclude", "card"), ("fail_stage", "why")):
        [branch] = iter_branches([{name: value}, {"goto": 1}], P)
        assert branch.exit.kind == name and branch.exit.is_terminal


def test_iter_effects_visits_every_effect_once() -> None:
    effects = [
        {
            "test": {
                "roll": {"red": ["hand"]},
                "pass": [
                    {
                        "choice": [
                            {"label": "a", "effects": [{"gain_coda": "c1"}]},
                            {"label": "b", "effects": [{"goto": 1}]},
                        ]
                    }
                ],
                "fail": [{"may": [{"gain_coda": "c2"}]}],
            }
        }
    ]
    names = [(n, p) for n, _, p in iter_effects(effects, P)]
    assert [n for n, _ in names] == ["test", "choice", "gain_coda", "goto", "may", "gain_coda"]
    assert names[2][1] == P + (0, "test", "pass", 0, "choice", 0, "effects", 0, "gain_coda")


def test_always_exits_and_dead_effects() -> None:
    exits = [
        {"test": {"roll": {"red": ["hand"]}, "pass": [{"goto": 1}], "fail": [{"end": "encounter"}]}}
    ]
    assert always_exits(exits)
    assert not always_exits([{"test": {"roll": {"red": ["hand"]}, "pass": [{"goto": 1}]}}])
    assert list(dead_effects(exits + [{"score": {"A": 1}}], P)) == [P + (1,)]
    nested = [
        {
            "choice": [
                {"label": "a", "effects": [{"goto": 1}, {"lose_health": 1}]},
                {"label": "b", "effects": [{"goto": 2}]},
            ]
        }
    ]
    assert list(dead_effects(nested, P)) == [P + (0, "choice", 0, "effects", 1)]


def test_storybook_from_file_keeps_positions_and_duplicates(tmp_path: Path) -> None:
    data = storybook_data(
        [
            entry(5, [{"goto": 6}]),
            entry(6, [{"end": "encounter"}]),
            entry(5, [{"end": "encounter"}]),
        ],
        setup={"text": "s", "effects": [{"goto": 5}]},
    )
    book = load(write(tmp_path / "storybook.yaml", data))
    assert book.id == "test-book" and book.wanderer == "tester"
    assert list(book.entries)[:2] == [5, 6]
    assert [d.number for d in book.duplicates] == [5]
    assert book.setup == ({"goto": 5},)
    assert set(book.endings) == {"A", "B", "C", "D"}
    assert book.endings["B"].conclusions[0].legacy == "legacy-b"
    where = book.locate(book.entries[6].parts + ("entry",))
    assert where.path == "storybook.yaml" and where.line > 1


def test_malformed_shapes_are_skipped_not_raised() -> None:
    book = Storybook.from_data(
        {
            "entries": [{"entry": "x"}, 3, {"entry": 2, "effects": "no"}],
            "endings": [{"ending": "Z"}, {"ending": "A", "conclusions": [7]}],
        }
    )
    assert list(book.entries) == [2] and book.entries[2].effects == ()
    assert list(book.endings) == ["A"] and book.endings["A"].conclusions == ()
    assert Storybook.from_data(None).entries == {}


# Effect lists with every kind of side, groups, malformed effects and a product of choices.
_WALKED = [
    [],
    [{"goto": 1}, {"score": {"A": 1}}],
    ["not an effect", {"a": 1, "b": 2}, {"test": "no body"}, {"lose_health": 1}],
    [{"all_wanderers": [{"may": [{"gain_coda": "x"}]}, {"goto": 3}]}, {"end": "encounter"}],
    [{"if": {"when": {"has_coda": "x"}, "then": [{"goto": 2}]}}, {"choice": [
        {"label": "a", "effects": [{"goto": 1}]}, {"when": {"visited": 3}}, "bad"]}],
    [{"choice": [{"label": str(k), "effects": [{"score": {"B": k}}]} for k in range(4)]}] * 6,
    [{"test": {"pass": [{"goto": 1}], "fail": [{"end": "encounter"}, {"may": [{"goto": 2}]}]}},
     {"lose_health": 1}, {"goto": 3}],
    [{"central_wanderer": [{"conclude": "x"}]}, {"if": {"then": [{"goto": 1}]}}],
    [{"if": {"then": [{"goto": 1}], "else": [{"fail_stage": True}]}}, {"choice": []}],
    [{"choice": [{"effects": [{"goto": 1}]}, {"effects": [{"end": "x"}]}]}, "x", {"goto": 2}],
]


def _storybook_effects() -> list[list]:
    """Every effect list of the storybooks in content/ and in the test cases."""
    root = Path(__file__).resolve().parents[1]
    found = []
    for path in sorted([*root.glob("content/**/storybook*.yaml"),
                        *root.glob("tests/**/storybook*.yaml")]):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for raw in data.get("entries") or [] if isinstance(data, dict) else []:
            if isinstance(raw, dict) and isinstance(raw.get("effects"), list):
                found.append(raw["effects"])
    return found


def test_first_branches_are_the_walkers_first_branches() -> None:
    walked = _WALKED + _storybook_effects()
    assert len(walked) > 100
    for effects in walked:
        for limit in (0, 1, 3, 513):
            assert first_branches(effects, P, limit) == list(
                islice(iter_branches(effects, P), limit)), (effects, limit)


def _dead_reference(effects: list, parts: tuple) -> list[tuple]:
    """dead_effects as first written: the effect after one that always exits, per list."""
    found: list[tuple] = []
    for index, effect in enumerate(effects):
        if index > 0 and always_exits(effects[index - 1 : index]):
            return [*found, parts + (index,)]
        if not isinstance(effect, dict) or len(effect) != 1:
            continue
        ((name, body),) = effect.items()
        here = parts + (index, name)
        if name == "test" and isinstance(body, dict):
            for outcome in ("pass", "fail"):
                found += _dead_reference(_as_list(body.get(outcome)), here + (outcome,))
        elif name == "choice" and isinstance(body, list):
            for k, option in enumerate(body):
                if isinstance(option, dict):
                    found += _dead_reference(_as_list(option.get("effects")), here + (k, "effects"))
        elif name == "if" and isinstance(body, dict):
            for side in ("then", "else"):
                found += _dead_reference(_as_list(body.get(side)), here + (side,))
        elif name in ("may", "all_wanderers", "central_wanderer"):
            found += _dead_reference(_as_list(body), here)
    return found


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else []


def test_dead_effects_match_the_first_definition() -> None:
    walked = _WALKED + _storybook_effects()
    assert any(_dead_reference(effects, P) for effects in walked)
    for effects in walked:
        assert list(dead_effects(effects, P)) == _dead_reference(effects, P), effects


# Lists whose dead effects hide where the walk does not read: behind a test or a group that
# always exits, behind a choice without options, inside an effect written after an exit.
_HIDING = [
    [{"test": {"pass": [{"goto": 1}], "fail": [{"end": "x"}]}}, {"lose_health": 1}],
    [{"all_wanderers": [{"goto": 1}]}, {"score": {"A": 1}}],
    [{"choice": []}, {"may": [{"goto": 1}, {"goto": 2}]}],
    [{"goto": 1}, {"test": {"pass": [{"end": "x"}, {"goto": 2}]}}],
    [{"if": {"then": [{"goto": 1}], "else": [{"goto": 2}]}}, "x"],
    [{"may": [{"goto": 1}]}, {"goto": 2}],
    [{"choice": [{"effects": [{"goto": 1}]}, "bad"]}, {"goto": 2}],
]


def test_a_walk_that_meets_no_early_exit_has_no_dead_effect() -> None:
    walked = _WALKED + _HIDING + _storybook_effects()
    told = 0
    for effects in walked:
        dead = list(dead_effects(effects, P))
        for limit in (0, 1, 3, 513):
            branches, may_hold_dead = walk_branches(effects, P, limit)
            assert branches == first_branches(effects, P, limit), (effects, limit)
            assert may_hold_dead or not dead, (effects, limit)
            told += not may_hold_dead
    assert told > 100  # most lists are told free of dead effects without looking


# The plain effects the story graph keeps in its outlines (storygraph.build._DIGESTED), and
# one it passes over.
_KEEP = frozenset({"score", "gain_coda", "spawn_encounter", "modify_sentience"})


def _outlines_of(branches: list) -> list[tuple]:
    """What walk_outlines should say of each branch, read off the full branch."""
    return [(b.exit.kind, b.exit.value,
             tuple((s.condition, s.negated) for s in b.steps if s.condition is not None),
             tuple((leaf.name, leaf.value) for leaf in b.leaves if leaf.name in _KEEP))
            for b in branches]


def _assert_outlined(effects: list) -> None:
    for limit in (0, 1, 2, 3, 513):
        branches, may_hold_dead = walk_branches(effects, P, limit)
        outlines, outlined_dead = walk_outlines(effects, limit, _KEEP)
        assert outlines == _outlines_of(branches), (effects, limit)
        assert outlined_dead == may_hold_dead, (effects, limit)


def test_outlines_say_what_the_full_branches_say() -> None:
    walked = _WALKED + _HIDING + _storybook_effects()
    for effects in walked:
        _assert_outlined(effects)
    # The lists hold sides with conditions, kept effects on several sides, cut-off walks.
    outlined = [walk_outlines(effects, 513, _KEEP)[0] for effects in walked]
    assert any(o[2] for found in outlined for o in found)
    assert any(len(o[3]) > 1 for found in outlined for o in found)
    assert any(len(found) >= 513 for found in outlined)


def test_an_outline_keeps_conditions_and_kept_effects_in_branch_order() -> None:
    when = {"has_coda": "x"}
    effects = [
        {"score": {"A": 1}},
        {"lose_health": 1},
        {"if": {"when": when, "then": [{"gain_coda": "y"}], "else": [{"goto": 4}]}},
        {"choice": [{"when": {"visited": 2}, "effects": [{"modify_sentience": {"red": 1}}]},
                    {"label": "no", "effects": [{"end": "encounter"}]}]},
    ]
    outlines, _ = walk_outlines(effects, 10, _KEEP)
    assert outlines == [
        ("open", None, ((when, False), ({"visited": 2}, False)),
         (("score", {"A": 1}), ("gain_coda", "y"), ("modify_sentience", {"red": 1}))),
        ("end", "encounter", ((when, False),), (("score", {"A": 1}), ("gain_coda", "y"))),
        ("goto", 4, ((when, True),), (("score", {"A": 1}),)),
    ]


# Effect trees of every shape the walker knows, well formed or not (the schema is not
# assumed: partial documents are analysed too).
_names = st.sampled_from(["score", "gain_coda", "lose_health", "spawn_encounter",
                          "modify_sentience", "roll"])
_plain = st.builds(lambda name, value: {name: value}, _names,
                   st.one_of(st.integers(-2, 3), st.sampled_from(["c1", "c2"]),
                             st.dictionaries(st.sampled_from("AB"), st.integers(0, 2),
                                             max_size=2)))
_exit = st.one_of(st.builds(lambda n: {"goto": n}, st.integers(1, 5)),
                  st.sampled_from([{"end": "encounter"}, {"conclude": "x"},
                                   {"fail_stage": True}]))
_junk = st.sampled_from(["text", {"a": 1, "b": 2}, {"test": "no body"}, {"choice": {}},
                         {"if": []}, 7, None])
_when = st.one_of(st.none(), st.just({"has_coda": "x"}), st.just({"visited": 3}), st.just(5))


def _branching(effects: st.SearchStrategy) -> st.SearchStrategy:
    side = st.one_of(effects, st.none(), st.just("not a list"))
    option = st.one_of(st.fixed_dictionaries({"label": st.just("o"), "effects": side},
                                             optional={"when": _when}),
                       st.just("bad option"))
    return st.one_of(
        st.builds(lambda p, f: {"test": {"roll": {}, "pass": p, "fail": f}}, side, side),
        st.builds(lambda p: {"test": {"pass": p}}, side),
        st.builds(lambda options: {"choice": options}, st.lists(option, max_size=3)),
        st.builds(lambda w, t, e: {"if": {"when": w, "then": t, "else": e}}, _when, side, side),
        st.builds(lambda t: {"if": {"then": t}}, side),
        st.builds(lambda b: {"may": b}, side),
        st.builds(lambda g, b: {g: b}, st.sampled_from(["all_wanderers", "central_wanderer"]),
                  side),
    )


_effects = st.recursive(
    st.lists(st.one_of(_plain, _exit, _junk), max_size=4),
    lambda inner: st.lists(st.one_of(_plain, _exit, _junk, _branching(inner)), max_size=5),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(_effects)
def test_outlines_agree_with_the_walk_on_any_effects(effects: list) -> None:
    _assert_outlined(effects)

"""The graph analyses: each finding at its line, and a clean storybook with none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from storygraph_support import analysed, clean_entries, codes, entry, line_of

from dmtool.diagnostics import Location
from dmtool.model.storybook import first_branches
from dmtool.storygraph import build
from dmtool.storygraph.context import Source, StoryContext
from dmtool.storygraph.reach import search

HERE = Location("elsewhere.yaml", 3, 5)


def test_clean_storybook_has_no_findings(tmp_path: Path) -> None:
    a = analysed(tmp_path, clean_entries())
    assert codes(a) == []
    assert a.scores.bounds["A"].walk_max == 1 and a.scores.certificates == {}


def test_broken_link_at_the_goto(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [entry(1, [{"goto": 2}], kind="event") | {"entry": 3}, entry(2, [{"goto": 99}])],
    )
    path = tmp_path / "storybook.yaml"
    assert ("DM301", line_of(path, "goto: 99")) in codes(a)
    [broken] = [d for d in a.diagnostics if d.code == "DM301"]
    assert "entry 99" in broken.message


def test_dead_end_per_open_branch(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"test": {"roll": {"red": ["hand"]}, "pass": [{"goto": 3}]}}], kind="event"),
            entry(
                3,
                [
                    {
                        "choice": [
                            {"label": "Up", "effects": [{"end": "encounter"}]},
                            {"label": "Down", "effects": [{"lose_health": 1}]},
                        ]
                    }
                ],
            ),
            entry(4, [], kind="event"),
        ],
    )
    path = tmp_path / "storybook.yaml"
    found = [c for c in codes(a) if c[0] == "DM302"]
    # The missing 'fail' side is reported at its test; the open option at the option; the
    # empty entry at its number.
    assert found == sorted(
        [
            ("DM302", line_of(path, "- test:")),
            ("DM302", line_of(path, "label: Down")),
            ("DM302", line_of(path, "entry: 4")),
        ]
    )


def test_trap_is_reported_once_at_its_first_entry(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"goto": 5}], kind="event"),
            entry(5, [{"goto": 6}]),
            entry(
                6,
                [
                    {
                        "choice": [
                            {"label": "a", "effects": [{"goto": 5}]},
                            {"label": "b", "effects": [{"goto": 7}]},
                        ]
                    }
                ],
            ),
            entry(7, [{"goto": 6}]),
        ],
    )
    assert [c for c in codes(a) if c[0] == "DM307"] == [
        ("DM307", line_of(tmp_path / "storybook.yaml", "entry: 5"))
    ]
    assert a.traps == [[5, 6, 7]]


def test_a_loop_with_an_exit_is_not_a_trap(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"goto": 5}], kind="event"),
            entry(
                5,
                [
                    {
                        "choice": [
                            {"label": "again", "effects": [{"goto": 5}]},
                            {"label": "leave", "effects": [{"end": "encounter"}]},
                        ]
                    }
                ],
            ),
        ],
    )
    assert codes(a) == []


def test_unreachable_region_reported_at_its_head_with_a_count(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [entry(20, [{"goto": 21}]), entry(21, [{"goto": 22}]), entry(22, [{"end": "encounter"}])],
    )
    [finding] = [d for d in a.diagnostics if d.code == "DM303"]
    assert finding.location.line == line_of(tmp_path / "storybook.yaml", "entry: 20")
    assert "2 more entries" in finding.message
    assert a.problems["unreachable"] == {20, 21, 22}


def test_condition_on_a_coda_nobody_awards_prunes_the_link(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(
                2,
                [
                    {
                        "if": {
                            "when": {"has_coda": "lost-key"},
                            "then": [{"goto": 30}],
                            "else": [{"end": "event"}],
                        }
                    }
                ],
                kind="event",
            ),
            entry(30, [{"end": "encounter"}]),
        ],
    )
    [finding] = [d for d in a.diagnostics if d.code == "DM303"]
    assert (
        "taken only when you hold the coda card Lost Key, which never happens: no reachable "
        "branch or card awards coda card 'lost-key'" in finding.message
    )


def test_awarded_coda_keeps_the_link_and_not_condition_prunes_else(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"gain_coda": "key"}, {"end": "event"}], kind="event"),
            entry(
                3,
                [
                    {
                        "if": {
                            "when": {"has_coda": "key"},
                            "then": [{"goto": 30}],
                            "else": [{"goto": 31}],
                        }
                    }
                ],
                kind="event",
            ),
            entry(
                4,
                [
                    {
                        "if": {
                            "when": {"not": {"has_coda": "never"}},
                            "then": [{"end": "event"}],
                            "else": [{"goto": 32}],
                        }
                    }
                ],
                kind="event",
            ),
            entry(30, [{"end": "encounter"}]),
            entry(31, [{"end": "encounter"}]),
            entry(32, [{"end": "encounter"}]),
        ],
    )
    assert a.problems["unreachable"] == {32}


def test_conditionally_unreachable_conclusion(tmp_path: Path) -> None:
    entries = clean_entries() + [
        entry(
            301,
            [{"if": {"when": {"visited": 77}, "then": [{"goto": 340}], "else": [{"goto": 341}]}}],
            kind="finale",
        ),
        entry(340, [{"conclude": "good"}], kind="conclusion"),
        entry(341, [{"conclude": "bad"}], kind="conclusion"),
        entry(77, [{"end": "encounter"}]),  # exists, but nothing leads to it
    ]
    from storygraph_support import ending, finale

    endings = [ending("A", 301, [340, 341])]
    for letter, start in (("B", 911), ("C", 921), ("D", 931)):
        more, end = finale(letter, start)
        entries += more
        endings.append(end)
    a = analysed(tmp_path, entries, endings)
    path = tmp_path / "storybook.yaml"
    assert ("DM305", line_of(path, "entry: 340", 2)) in codes(a)
    assert ("DM303", line_of(path, "entry: 77")) in codes(a)
    assert not any(c == ("DM305", line_of(path, "entry: 341", 2)) for c in codes(a))


def test_ending_never_scored(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        [
            entry(
                1,
                [
                    {"choice": [{"label": e, "effects": [{"score": {e: 1}}]} for e in "ABC"]},
                    {"end": "event"},
                ],
                kind="event",
            )
        ],
    )
    assert [c for c in codes(a) if c[0] == "DM304"] == [
        ("DM304", line_of(tmp_path / "storybook.yaml", "ending: D"))
    ]


def test_score_impossible_ending_carries_its_certificate(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        [
            entry(
                1,
                [
                    {
                        "choice": [
                            {"label": "A", "effects": [{"score": {"A": 2}}]},
                            {"label": "B", "effects": [{"score": {"B": 1}}]},
                            {"label": "D", "effects": [{"score": {"D": 1}}]},
                            {"label": "both", "effects": [{"score": {"A": 3, "C": 3}}]},
                        ]
                    },
                    {"end": "event"},
                ],
                kind="event",
            ),
            entry(2, [{"score": {"C": 2, "A": 2}}, {"end": "event"}], kind="event"),
        ],
    )
    [finding] = [d for d in a.diagnostics if d.code == "DM306"]
    assert finding.location.line == line_of(tmp_path / "storybook.yaml", "ending: C")
    assert (
        "at most 5 points" in finding.message
        and "ending A always has at least as many" in finding.message
    )
    assert a.scores.bounds["C"].game_max == 5 and a.scores.bounds["A"].walk_max == 3


def test_losses_of_the_later_ending_do_not_make_a_certificate(tmp_path: Path) -> None:
    # C loses 5 then gains 6 while A gains 2: the sum says C < A, yet C (floored at 0) can win.
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(
                2,
                [{"score": {"C": -5}}, {"score": {"C": 6, "A": 2}}, {"end": "event"}],
                kind="event",
            )
        ],
    )
    assert "C" not in a.scores.certificates


def test_a_scoring_loop_is_unbounded(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"goto": 5}], kind="event"),
            entry(
                5,
                [
                    {
                        "choice": [
                            {"label": "again", "effects": [{"score": {"B": 1}}, {"goto": 5}]},
                            {"label": "leave", "effects": [{"end": "encounter"}]},
                        ]
                    }
                ],
            ),
        ],
    )
    assert a.scores.bounds["B"].game_max == float("inf")
    assert a.scores.bounds["B"].as_dict()["unbounded"] is True


def test_effects_after_an_exit(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries() + [entry(2, [{"end": "event"}, {"score": {"A": 1}}], kind="event")],
    )
    assert codes(a) == [("DM313", line_of(tmp_path / "storybook.yaml", "score: {A: 1}", 2))]


def test_duplicate_numbers_are_left_to_the_reference_rules(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [entry(2, [{"end": "event"}], kind="event"), entry(2, [{"goto": 99}], kind="event")],
    )
    assert codes(a) == [] and [d.number for d in a.graph.storybook.duplicates] == [2]


def test_a_storybook_without_a_wanderer_stage_gets_no_ending_findings(tmp_path: Path) -> None:
    a = analysed(tmp_path, [])
    assert codes(a) == []


def test_start_kind_and_conclusion_mismatch(tmp_path: Path) -> None:
    from storygraph_support import ending

    entries = clean_entries() + [
        entry(901, [{"goto": 902}], kind="exploration"),  # not a finale entry
        entry(902, [{"conclude": "other-card"}], kind="conclusion"),
        entry(903, [{"end": "encounter"}], kind="finale"),
    ]
    endings = [
        ending("A", 901, [902], "legacy-a"),
        ending("B", 903, [903], None),
        ending("C", 903, [902], "other-card"),
        ending("D", 903, [902], "other-card"),
    ]
    a = analysed(tmp_path, entries, endings)
    path = tmp_path / "storybook.yaml"
    found = codes(a)
    assert ("DM311", line_of(path, "start: 901")) in found
    assert ("DM312", line_of(path, "conclude: other-card")) in found
    # Ending B's conclusion is a finale entry: DM259 of the wanderer rules, not ours.
    assert not any(line == line_of(path, "entry: 903", 2) for _, line in found)


def test_context_roots_cards_and_codas(tmp_path: Path) -> None:
    context = StoryContext(
        rounds=(
            Source("round", "round 1", 1, HERE),
            Source("round", "round 2", 40, HERE),
            Source("round", "round 3", 404, HERE),
        ),
        shards=(Source("shard", "world shard 1", 10, HERE, encounter_kind="exploration"),),
        cards=(
            Source("card", "card the-bell", 11, HERE, card_id="the-bell", where=HERE),
            Source("card", "card the-door", 12, HERE, card_id="the-door", spawned=True),
        ),
        codas={"the-voice": HERE, "the-echo": HERE},
    )
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(40, [{"end": "encounter"}], kind="exploration"),
            entry(10, [{"gain_coda": "the-voice"}, {"end": "encounter"}], kind="exploration"),
            entry(11, [{"end": "encounter"}], kind="reality_shard"),
            entry(12, [{"end": "encounter"}], kind="exploration"),
        ],
        context=context,
    )
    found = sorted((d.code, d.message.split(",")[0]) for d in a.diagnostics)
    # Entry 11 is unreachable only because its card never enters play: DM308 says so, not DM303.
    assert [c for c, _ in found] == ["DM301", "DM308", "DM309", "DM310"]
    assert any("round 3 names entry 404" in m for _, m in found)
    assert any("'the-bell'" in m for _, m in found)
    assert any("'the-echo'" in m for _, m in found)
    assert a.solution.stage >= {1, 10, 12, 40}


def test_spawned_card_is_not_an_orphan_and_its_entry_is_reached(tmp_path: Path) -> None:
    context = StoryContext(
        rounds=(Source("round", "round 1", 1, HERE), Source("round", "round 2", 2, HERE)),
        cards=(Source("card", "card the-bell", 11, HERE, card_id="the-bell"),),
    )
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"spawn_encounter": {"card": "the-bell"}}, {"end": "event"}], kind="event"),
            entry(11, [{"end": "encounter"}]),
        ],
        context=context,
    )
    assert codes(a) == []
    assert 11 in a.solution.stage


# Every kind of side and exit, a condition, a sentience change and a card spawned: the arcs'
# digests against the branches they digest.
_MIXED = [
    entry(2, [{"modify_sentience": {"red": 1}},
              {"if": {"when": {"has_coda": "x"}, "then": [{"goto": 3}],
                      "else": [{"spawn_encounter": {"card": "the-bell"}}, {"end": "event"}]}}],
          kind="event"),
    entry(3, [{"test": {"roll": {"red": ["hand"]}, "pass": [{"score": {"B": 2}}, {"goto": 99}],
                        "fail": [{"gain_coda": "x"}]}}]),
    entry(11, [{"may": [{"score": {"A": 1}}, {"score": {"A": 2, "C": 1}}]}, {"end": "encounter"}]),
]
_BELL = StoryContext(cards=(Source("card", "card the-bell", 11, HERE, card_id="the-bell"),))


def test_each_arc_digests_its_branch_walked_again_in_full(tmp_path: Path) -> None:
    graph = analysed(tmp_path, clean_entries() + _MIXED, context=_BELL).graph
    for node, arcs in graph.arcs.items():
        effects, parts = graph.effects_of(node)
        branches = first_branches(effects, parts, 512)
        assert [arc.branch for arc in arcs] == branches
        for arc, branch in zip(arcs, branches):
            assert (arc.kind, arc.exit_value) == (branch.exit.kind, branch.exit.value)
            assert arc.conditions == tuple((s.condition, s.negated) for s in branch.steps
                                           if s.condition is not None)
            assert arc.changes == tuple(leaf.value for leaf in branch.leaves
                                        if leaf.name == "modify_sentience")
    then, otherwise = graph.arcs[2]
    assert then.goto == 3 and then.conditions == (({"has_coda": "x"}, False),)
    assert otherwise.enables == (11,) and otherwise.spawns == ("the-bell",)
    assert otherwise.changes == ({"red": 1},) and otherwise.kind == "end"
    passed, failed = graph.arcs[3]
    assert passed.broken == 99 and passed.gain == (0, 2, 0, 0)
    assert failed.kind == "open" and failed.codas == ("x",)
    assert [arc.gain for arc in graph.arcs[11]] == [(3, 0, 1, 0), (0, 0, 0, 0)]


def test_a_check_walks_again_only_the_branches_a_finding_places(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[tuple] = []

    def counted(effects: Any, parts: Any, limit: int) -> list:
        walked.append(parts)
        return first_branches(effects, parts, limit)

    monkeypatch.setattr(build, "first_branches", counted)
    clean = analysed(tmp_path / "clean", clean_entries()
                     + [entry(2, [{"choice": [{"label": "a", "effects": [{"end": "event"}]},
                                              {"label": "b", "effects": [{"goto": 1}]}]}],
                              kind="event")])
    assert codes(clean) == [] and walked == []
    # A broken link (DM301) and a dead end (DM302) are placed on their branches: entry 3's,
    # the third entry written, is walked again (once), and no other.
    found = analysed(tmp_path / "mixed", clean_entries() + _MIXED, context=_BELL)
    assert ("DM301", line_of(tmp_path / "mixed" / "storybook.yaml", "goto: 99")) in codes(found)
    assert any(d.code == "DM302" for d in found.diagnostics)
    assert walked == [("entries", 2, "effects")]


def test_what_every_root_reaches_is_what_the_stage_and_each_finale_reach(tmp_path: Path) -> None:
    a = analysed(tmp_path, clean_entries() + [
        entry(2, [{"goto": 3}], kind="event"),
        entry(3, [{"if": {"when": {"has_coda": "x"}, "then": [{"goto": 4}],
                          "else": [{"end": "event"}]}}]),
        entry(4, [{"end": "encounter"}]),
        entry(5, [{"gain_coda": "x"}, {"goto": 921}], kind="finale"),
    ])
    graph, solution = a.graph, a.solution
    assert solution.reached == frozenset(search(graph, graph.all_roots(), solution.facts))
    assert solution.reached == solution.stage.union(*solution.finale.values())
    # Coda x is gained only in a finale entry no root reaches: the fixpoint closes entry 4.
    assert 3 in solution.stage and 4 not in solution.reached and "x" not in solution.facts.codas
    assert {901, 902} <= solution.finale["A"] and 5 not in solution.reached

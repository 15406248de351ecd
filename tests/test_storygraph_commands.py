"""`run_graph` and `run_odds`: options in, data and text out, files written, usage errors."""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path

import pytest
import yaml
from cli_support import loaded_by
from storygraph_support import CASE_HEADER, clean_entries, content_tree, entry, write

from bench.graph_bench import prepared
from dmtool.errors import UsageError
from dmtool.storygraph import commands as commands_module
from dmtool.storygraph import odds_command as odds_module
from dmtool.storygraph import render as render_module
from dmtool.storygraph.analysis import Analysis, analyse
from dmtool.storygraph.commands import GraphOptions, run_graph
from dmtool.storygraph.dot import draw
from dmtool.storygraph.odds_command import OddsOptions, parse_sentience, run_odds
from dmtool.validation.schemas import SchemaSet, default_schema_dir


def _tree(tmp_path: Path, entries: list | None = None) -> Path:
    """A clean content tree (tests/cases' Mara) whose storybook has these entries (by default
    two tests, one of which awards Mara's coda card the-voice)."""
    entries = (
        entries
        if entries is not None
        else clean_entries()
        + [
            entry(
                2,
                [
                    {
                        "test": {
                            "roll": {"red": ["skull", "skull"]},
                            "pass": [{"gain_coda": "the-voice"}, {"end": "event"}],
                            "fail": [{"end": "event"}],
                        }
                    }
                ],
                kind="event",
            ),
            entry(
                3,
                [
                    {
                        "test": {
                            "roll": {"green": ["eye"]},
                            "pass": [{"end": "event"}],
                            "fail": [{"end": "event"}],
                        }
                    }
                ],
                kind="event",
            ),
        ]
    )
    book = content_tree(tmp_path, entries)
    write(
        book.parent / "the-voice.yaml",
        {
            "kind": "coda",
            "id": "the-voice",
            "wanderer": "mara",
            "title": "The Voice",
            "effects": [{"modify_sentience": {"red": 1}}],
            "back": ["red"],
        },
        CASE_HEADER.format("coda"),
    )
    return book


def test_graph_text_summary_and_clean_exit(tmp_path: Path) -> None:
    result = run_graph(GraphOptions(paths=(_tree(tmp_path),)))
    assert result.exit_code == 0 and result.diagnostics == ()
    assert (
        "storybook 'mara-book'" in result.text
        and "ending A: 0..1 points in one walk" in result.text
    )


def test_graph_findings_make_exit_code_one(tmp_path: Path) -> None:
    path = _tree(tmp_path, clean_entries() + [entry(2, [{"goto": 77}], kind="event")])
    result = run_graph(GraphOptions(paths=(path,)))
    assert result.exit_code == 1
    # As `dmtool check storybook.yaml`: the findings located in the storybook. The coda
    # nothing awards any more is reported in its own file, when that is checked.
    assert [d.code for d in result.diagnostics] == ["DM301"]
    assert "DM301" in result.text and "entry 77" in result.text
    whole = run_graph(GraphOptions(paths=(path.parent,)))
    assert sorted(d.code for d in whole.diagnostics) == ["DM301", "DM309"]


def test_graph_runs_every_check_a_broken_card_reference_included(tmp_path: Path) -> None:
    path = _tree(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "gain_coda: the-voice", "gain_coda: the-vioce"), encoding="utf-8")
    result = run_graph(GraphOptions(paths=(path,)))
    assert result.exit_code == 1
    assert "All checks passed" not in result.text
    assert "error DM202" in result.text and "'the-vioce'" in result.text
    assert "storybook 'mara-book'" in result.text  # the analysis is printed as well
    data = json.loads(run_graph(GraphOptions(paths=(path,), fmt="json")).text)
    assert [d["code"] for d in data["diagnostics"]] == ["DM202"]
    assert data["findings"] == 1


def test_graph_reports_what_check_reports(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from dmtool.cli import cli

    path = _tree(tmp_path, clean_entries() + [entry(2, [{"goto": 77}], kind="event")])
    path.write_text(path.read_text(encoding="utf-8").replace(
        "gain_coda: the-voice", "gain_coda: the-vioce"), encoding="utf-8")
    checked = json.loads(CliRunner().invoke(cli, ["check", "--format", "json", str(path)]).stdout)
    graphed = run_graph(GraphOptions(paths=(path,)))
    assert sorted(d["code"] for d in checked["diagnostics"]) == sorted(
        d.code for d in graphed.diagnostics)


def test_graph_follows_the_configuration_as_check_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from dmtool.cli import cli

    path = _tree(tmp_path, clean_entries() + [entry(2, [{"goto": 77}], kind="event")])
    (tmp_path / "dmtool.toml").write_text(
        '[per-file-ignores]\n"*.yaml" = { codes = ["DM301"], reason = "being rewritten" }\n',
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    name = path.relative_to(tmp_path).as_posix()
    checked = CliRunner().invoke(cli, ["check", name])
    graphed = CliRunner().invoke(cli, ["graph", name])
    assert checked.exit_code == graphed.exit_code == 0, graphed.output
    assert "DM301" not in graphed.output
    assert checked.output.splitlines()[-1] in graphed.output  # the same summary line


def test_graph_analyses_each_storybook_once_as_check_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dmtool.storygraph import analysis

    path = _tree(tmp_path)
    analysed: list[str] = []
    original = analysis.analyse

    def counting(storybook, context):  # type: ignore[no-untyped-def]
        analysed.append(storybook.id)
        return original(storybook, context)

    monkeypatch.setattr(analysis, "analyse", counting)
    result = run_graph(GraphOptions(paths=(path,)))
    assert "storybook 'mara-book'" in result.text
    # The check's story graph rule analysed it; graph prints that analysis's summary.
    assert analysed == ["mara-book"]


def test_a_second_graph_of_an_unchanged_tree_is_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dmtool.storygraph import checked

    path = _tree(tmp_path)
    first = run_graph(GraphOptions(paths=(path,)))
    with monkeypatch.context() as patched:
        patched.setattr(checked.CheckedStorybooks, "analyses", lambda _: pytest.fail("again"))
        again = run_graph(GraphOptions(paths=(path,)))
    assert again.text == first.text and again.exit_code == first.exit_code
    assert again.data == first.data
    # Kept while it is used, however many other runs share the cache.
    from dmtool.validation.cache import KEEP_RUNS, default_directory
    from dmtool.validation.pipeline import CheckOptions, run_check

    with monkeypatch.context() as patched:
        patched.setattr(checked.CheckedStorybooks, "analyses", lambda _: pytest.fail("again"))
        for _ in range(KEEP_RUNS + 1):
            run_check(CheckOptions(paths=(path.parent,), cache_dir=default_directory()))
            assert run_graph(GraphOptions(paths=(path,))).text == first.text
    # An edit anywhere in the tree is seen.
    coda = path.parent / "the-voice.yaml"
    coda.write_text(coda.read_text(encoding="utf-8").replace("id: the-voice", "id: the-vice"))
    changed = run_graph(GraphOptions(paths=(path,)))
    assert changed.exit_code == 1 and "the-voice" in changed.text


def test_graph_of_a_storybook_that_fails_its_schema_names_the_file_it_checked(
    tmp_path: Path,
) -> None:
    path = _tree(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("title: Test Book", "titel: X"))
    result = run_graph(GraphOptions(paths=(path,)))
    assert result.exit_code == 1
    assert "error DM102 unknown property 'titel'" in result.text
    assert "in 1 file." in result.text and "in 0 files" not in result.text
    assert "All checks passed" not in result.text
    name = path.as_posix()  # shown as given (absolute here)
    assert f"storybook {name}: not analysed until its own errors (below) are fixed" in result.text
    data = json.loads(run_graph(GraphOptions(paths=(path,), fmt="json")).text)
    assert data["not_analysed"] == [name]
    assert data["storybooks"] == []


def test_graph_json_has_the_graph(tmp_path: Path) -> None:
    result = run_graph(GraphOptions(paths=(_tree(tmp_path),), fmt="json"))
    data = json.loads(result.text)
    [book] = data["storybooks"]
    assert {"nodes", "edges", "roots", "terminals", "findings", "score_bounds"} <= set(book)
    assert any(n["id"] == 2 and n["kind"] == "event" and n["line"] > 1 for n in book["nodes"])
    assert {"node": 1, "kind": "event", "label": "event entry 1", "ending": None} in book["roots"]
    assert any(t["kind"] == "conclude" and t["value"] == "mara-legacy-a" for t in book["terminals"])
    assert any(e["source"] == 901 and e["target"] == 902 for e in book["edges"])
    bound = book["score_bounds"]["D"]
    premises = bound.pop("premises")
    assert bound == {
        "ending": "D",
        "walk_min": 0,
        "walk_max": 1,
        "game_max": 1,
        "stage_max": 1,
        "unbounded": False,
    }
    assert any("10 rounds" in p for p in premises), premises


def test_dot_output_and_missing_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _tree(tmp_path)
    result = run_graph(GraphOptions(paths=(path,), output=tmp_path / "out" / "g.dot"))
    assert (
        (tmp_path / "out" / "g.dot").read_text(encoding="utf-8").startswith("digraph storybook {")
    )
    assert result.written == (tmp_path / "out" / "g.dot",) and result.messages == ()
    monkeypatch.setattr(render_module, "find_dot", lambda: None)
    result = run_graph(GraphOptions(paths=(path,), output=tmp_path / "g.svg"))
    assert result.written == (tmp_path / "g.dot",) and not (tmp_path / "g.svg").exists()
    assert "apt-get install graphviz" in result.messages[0] and "g.dot" in result.messages[0]


@pytest.mark.skipif(
    render_module.find_dot() is None,
    reason="Graphviz 'dot' is not installed (apt-get install graphviz)",
)
def test_svg_output(tmp_path: Path) -> None:
    result = run_graph(
        GraphOptions(paths=(_tree(tmp_path),), output=tmp_path / "g.svg", focus=2, depth=1)
    )
    assert result.written == (tmp_path / "g.svg",)
    assert "<svg" in (tmp_path / "g.svg").read_text(encoding="utf-8")


def test_witnesses_and_fixture_skeletons(tmp_path: Path) -> None:
    result = run_graph(
        GraphOptions(paths=(_tree(tmp_path),), witness=True, witness_dir=tmp_path / "w")
    )
    assert "ending C: conclusion 922, from ending C" in result.text
    assert "ending B: points in the wanderer stage, from event entry 1" in result.text
    names = sorted(p.name for p in (tmp_path / "w").iterdir())
    assert "witness-mara-book-b-points.yaml" in names and "witness-mara-book-a-902.yaml" in names
    schemas = SchemaSet(default_schema_dir())
    for path in (tmp_path / "w").iterdir():
        skeleton = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not list(schemas.validator("scenario").iter_errors(skeleton)), path.name
    skeleton = yaml.safe_load((tmp_path / "w" / "witness-mara-book-b-points.yaml").read_text())
    [step] = skeleton["steps"]
    assert step["do"] == {"wanderer": "mara", "effect": {"goto": 1}}
    assert step["choices"] == [{"choice": 2}]  # 'Side with B' is the second option
    assert skeleton["expect"] == {"visited": [1], "scores": {"B": 1}}


def test_usage_errors(tmp_path: Path) -> None:
    path = _tree(tmp_path)
    with pytest.raises(UsageError, match=r"\.svg, \.png or \.dot"):
        run_graph(GraphOptions(paths=(path,), output=tmp_path / "g.pdf"))
    with pytest.raises(UsageError, match="no entry 555"):
        run_graph(GraphOptions(paths=(path,), output=tmp_path / "g.dot", focus=555))
    with pytest.raises(UsageError, match="add -o"):
        run_graph(GraphOptions(paths=(path,), focus=2))
    with pytest.raises(UsageError, match="no storybook found"):
        run_graph(GraphOptions(paths=(path.parent / "the-voice.yaml",)))
    with pytest.raises(UsageError):
        run_odds(OddsOptions(paths=(path,), runs=0))


def test_odds_hardest_first_with_flags(tmp_path: Path) -> None:
    result = run_odds(OddsOptions(paths=(_tree(tmp_path),), sentience={"red": 1, "green": 2}))
    lines = result.text.splitlines()
    assert "red 1, blue 1, green 2" in lines[0] and "changed by --sentience" in lines[0]
    assert "0.00%" in lines[1] and "red 2 skull" in lines[1] and "CANNOT PASS" in lines[1]
    assert "75.00%" in lines[2] and "green eye" in lines[2]
    [book] = json.loads(run_odds(OddsOptions(paths=(_tree(tmp_path),), fmt="json")).text)[
        "storybooks"
    ]
    # Mara rolls 2 red dice (skull or sphere: 1/3 each) and 2 green (eye or sphere: 1/2 each).
    assert [t["exact"] for t in book["tests"]] == ["1/9", "3/4"]


def test_playthroughs_are_seeded_and_report_coverage(tmp_path: Path) -> None:
    path = _tree(tmp_path)
    first = run_odds(OddsOptions(paths=(path,), runs=200, seed=7, goal=1))
    again = run_odds(OddsOptions(paths=(path,), runs=200, seed=7, goal=1))
    other = run_odds(OddsOptions(paths=(path,), runs=200, seed=8, goal=1))
    assert first.text == again.text and first.data != other.data
    runs = first.data["storybooks"][0]["playthroughs"]
    assert sum(runs["outcomes"].values()) == 200 and runs["decisions"] >= 200
    assert set(runs["outcomes"]) <= {"A", "B", "C", "D", "stage failed"}
    assert "never visited" in first.text


def test_parse_sentience() -> None:
    assert parse_sentience("red=2, Blue=1") == {"red": 2, "blue": 1}
    for bad in ("red", "pink=1", "red=two"):
        with pytest.raises(UsageError):
            parse_sentience(bad)


def _fake_dot(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "fake-dot"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(0o755)
    return script


def test_too_large_a_drawing_is_not_laid_out_but_the_analysis_is_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "dot-was-run"
    monkeypatch.setenv("DMTOOL_DOT", str(_fake_dot(tmp_path, f"touch {marker}")))
    monkeypatch.setattr(render_module, "MAX_LAYOUT_SIZE", 10)
    result = run_graph(GraphOptions(paths=(_tree(tmp_path),), output=tmp_path / "g.svg"))
    assert result.exit_code == 2 and result.written == ()
    assert not marker.exists() and not (tmp_path / "g.svg").exists()
    assert "storybook 'mara-book'" in result.text and "ending A:" in result.text
    [message] = result.messages
    assert "more than the 10 that Graphviz's dot lays out" in message
    assert "--ending A" in message and "--focus ENTRY --depth 2" in message
    # The DOT text needs no layout: it is written at any size.
    result = run_graph(GraphOptions(paths=(_tree(tmp_path),), output=tmp_path / "g.dot"))
    assert result.exit_code == 0 and (tmp_path / "g.dot").is_file()


def test_a_layout_over_its_time_budget_is_stopped_and_the_analysis_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DMTOOL_DOT", str(_fake_dot(tmp_path, "exec sleep 30")))
    monkeypatch.setattr(render_module, "TIME_BUDGET_SECONDS", 1)
    result = run_graph(GraphOptions(paths=(_tree(tmp_path),), output=tmp_path / "g.svg"))
    assert result.exit_code == 2 and not (tmp_path / "g.svg").exists()
    assert "storybook 'mara-book'" in result.text
    assert "did not finish the layout within 1 s" in result.messages[0]
    assert "--focus ENTRY" in result.messages[0]


def test_a_twenty_thousand_entry_storybook_is_judged_too_large_but_a_finale_is_not() -> None:
    analysis = analyse(*prepared(20_000))
    whole = draw(analysis)
    assert whole.nodes > 20_000 and render_module.too_large(whole.nodes, whole.edges)
    part = draw(analysis, ending="A")
    assert render_module.too_large(part.nodes, part.edges) is None
    near = draw(analysis, focus=500, depth=2)
    assert render_module.too_large(near.nodes, near.edges) is None


def test_odds_of_a_storybook_that_fails_its_schema_print_why_and_exit_one(
    tmp_path: Path,
) -> None:
    path = _tree(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("title: Test Book", "titel: X"))
    result = run_odds(OddsOptions(paths=(path,)))
    assert result.exit_code == 1
    assert "error DM102 unknown property 'titel'" in result.text
    assert "Found 1 error" in result.text and "tests in" not in result.text
    assert "in 1 file." in result.text  # the storybook was checked, not "in 0 files"
    data = json.loads(run_odds(OddsOptions(paths=(path,), fmt="json")).text)
    assert {d["code"] for d in data["diagnostics"]} == {"DM102"}
    assert data["storybooks"] == []


def test_odds_print_errors_found_across_files_and_still_give_the_odds(tmp_path: Path) -> None:
    path = _tree(tmp_path)
    path.write_text(
        path.read_text(encoding="utf-8").replace("gain_coda: the-voice", "gain_coda: the-vice")
    )
    result = run_odds(OddsOptions(paths=(path,)))
    assert result.exit_code == 1
    assert "DM202" in result.text and "the-vice" in result.text
    assert "tests in" in result.text  # the storybook itself is readable: its odds follow


def test_graph_and_odds_run_with_the_cycle_collector_resting_and_restore_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Their analyses stay alive to the end; full collections would walk them all again.
    seen: list[bool] = []
    real_check = commands_module.check_storybooks

    def spying(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real_check(*args, **kwargs)

    monkeypatch.setattr(commands_module, "check_storybooks", spying)
    monkeypatch.setattr(odds_module, "check_storybooks", spying)
    book = content_tree(tmp_path, clean_entries())
    run_graph(GraphOptions(paths=(book,)))
    run_odds(OddsOptions(paths=(book,)))
    assert seen == [False, False] and gc.isenabled()


def test_graph_and_odds_hold_no_analysis_once_they_return(tmp_path: Path) -> None:
    # An analysis holds its whole storybook and graph: kept past the command's end, a
    # process that graphs again keeps every corpus it ever graphed, and the collector walks
    # all of it once it is on again (a twelfth of a cold `dmtool graph` of the bench corpus).
    book = content_tree(tmp_path, clean_entries())
    run_graph(GraphOptions(paths=(book,), fmt="json"))
    run_odds(OddsOptions(paths=(book,)))
    gc.collect()
    assert [obj for obj in gc.get_objects() if type(obj) is Analysis
            and obj.graph.storybook.display.startswith(tmp_path.as_posix())] == []


# What only JSON data, witnesses and drawings need (the DOT writer, Graphviz's runner, the
# fixture skeletons and the dice they describe). The file writer is not among them: the
# check cache saves through it (it owns its folder, issue 31).
ONLY_FOR_EXTRAS = ("dmtool.storygraph.jsonout", "dmtool.storygraph.dot",
                   "dmtool.storygraph.witness", "dmtool.storygraph.fixtures",
                   "dmtool.storygraph.render", "subprocess")


def _loaded_by_graph(tmp_path: Path, *args: str) -> set[str]:
    return loaded_by(ONLY_FOR_EXTRAS, "graph", *args, cwd=tmp_path,
                      env={**os.environ, "DMTOOL_CACHE_DIR": str(tmp_path / "cache")})


def test_a_plain_graph_imports_only_what_its_summaries_need(tmp_path: Path) -> None:
    book = _tree(tmp_path)
    assert _loaded_by_graph(tmp_path, str(book)) == set()
    assert {"dmtool.storygraph.jsonout", "dmtool.storygraph.dot"} <= _loaded_by_graph(
        tmp_path, str(book), "--format", "json")
    drawn = _loaded_by_graph(tmp_path, str(book), "-o", str(tmp_path / "g.dot"))
    assert drawn == set(ONLY_FOR_EXTRAS) - {"dmtool.storygraph.jsonout"}

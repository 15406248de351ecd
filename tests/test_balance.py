"""`dmtool balance`: seeded games on a pool, the same results whatever the pool, reports in
text, JSON and HTML, Ctrl-C, and --against on a planted change."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import children_hear_ctrl_c
from click.testing import CliRunner

from dmtool.balance.decisive import decisive_items
from dmtool.balance.games import CHUNK, Bundle, Chunk, Config, chunks, play_chunk
from dmtool.balance.html import render_html
from dmtool.balance.pool import collect, in_process
from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.summary import GameSummary
from dmtool.balance.tally import Tally
from dmtool.cli import cli, main
from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play
from dmtool.model.content_index import default_content_dir

CONTENT = default_content_dir()
STORYBOOK = Path("wanderers/hollis-brandt/storybook.yaml")


def _report(**kw: object) -> dict[str, object]:
    return run_balance(BalanceOptions(content=CONTENT, **kw)).report  # type: ignore[arg-type]


def test_results_are_identical_whatever_the_number_of_processes() -> None:
    games = 2 * CHUNK + 5  # three chunks, one of them short
    alone = _report(games=games, policies=("random",), jobs=1)
    pooled = _report(games=games, policies=("random",), jobs=2)
    assert json.dumps(alone, sort_keys=True) == json.dumps(pooled, sort_keys=True)
    assert alone["finished"] == games


def test_the_same_seed_gives_the_same_report_and_another_seed_another() -> None:
    first = _report(games=12, policies=("random",), jobs=1, seed=5)
    again = _report(games=12, policies=("random",), jobs=1, seed=5)
    other = _report(games=12, policies=("random",), jobs=1, seed=6)
    assert first == again
    assert first["configurations"] != other["configurations"]


def test_game_i_is_the_game_dmtool_play_plays_with_seed_s_plus_i() -> None:
    report = _report(games=6, policies=("greedy",), jobs=1, seed=40)
    for outcome in report["configurations"][0]["outcomes"]:  # type: ignore[index]
        if outcome["example_seed"] is None:  # never reached: listed with its upper bound
            continue
        lines: list[str] = []
        run_play(PlayOptions(seed=outcome["example_seed"], policy="greedy", log=False),
                 emit=lines.append)
        result = lines[-1]
        name = outcome["outcome"]
        if name.startswith("ending"):
            assert f"result: ending {name.split()[1].rstrip(',')}" in result
        elif name.startswith("failed"):
            assert "result: failed" in result


def test_configurations_are_every_policy_variant_and_player_count() -> None:
    report = _report(games=3, policies=("random", "first"), variants=("short", "long"),
                     players=(1, 3), jobs=1)
    labels = [s["label"] for s in report["configurations"]]  # type: ignore[union-attr]
    assert labels == ["random, short, 1 player", "random, short, 3 players",
                      "random, long, 1 player", "random, long, 3 players",
                      "first, short, 1 player", "first, short, 3 players",
                      "first, long, 1 player", "first, long, 3 players"]


def test_the_report_counts_what_the_games_did() -> None:
    report = _report(games=40, policies=("greedy",), jobs=1)
    section = report["configurations"][0]  # type: ignore[index]
    top = [o for o in section["outcomes"] if o["level"] == 0]
    assert sum(o["games"] for o in top) == 40  # every game once: the finale or a failure
    for o in section["outcomes"]:
        assert o["ci"][0] <= o["rate"] <= o["ci"][1]
    assert section["entries"]["count"] == 153
    assert section["entries"]["reached"] + len(section["entries"]["never"]) == 153
    assert section["scores"]["games"][0] == 40
    assert section["tests"] and all(t["tries"] >= t["failed"] for t in section["tests"])
    assert sum(section["rounds"]["histogram"].values()) == 40


def test_cli_writes_text_json_and_a_self_contained_html_report(tmp_path: Path) -> None:
    html, data = tmp_path / "b.html", tmp_path / "b.json"
    result = CliRunner().invoke(cli, ["balance", "--games", "15", "--policy", "random,greedy",
                                      "--jobs", "1", "--content", str(CONTENT),
                                      "--html", str(html), "--json", str(data)])
    assert result.exit_code == 0, result.output
    assert "Policies and configurations side by side" in result.output
    assert "== greedy, standard, 1 player: 15 games" in result.output
    assert json.loads(data.read_text(encoding="utf-8"))["games"] == 15
    page = html.read_text(encoding="utf-8")
    assert page.count("<svg") >= 4
    assert not re.search(r"""(src|href)=["']?https?:""", page)  # nothing fetched
    assert "<script src" not in page and "@import" not in page


def test_authored_text_is_escaped_in_the_html_report() -> None:
    report = _report(games=3, policies=("random",), jobs=1)
    section = report["configurations"][0]  # type: ignore[index]
    section["entries"]["never"].append({"entry": 999, "title": "<script>alert(1)</script>"})
    section["outcomes"][0]["title"] = "</script><img src=x onerror=alert(1)>"
    page = render_html(report)
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.parametrize("args, message", [
    (["--policy", "clever"], "'clever' is not one of"),
    (["--variant", "huge"], "'huge' is not one of"),
    (["--players", "5"], "--players must be 1 to 4"),
    (["--jobs", "0"], "auto for every core"),
    (["--wanderer", "nobody"], "no wanderer 'nobody'")])
def test_bad_options_are_usage_errors(args: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["dmtool", "balance", "--games", "1", "--content",
                                      str(CONTENT), *args])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_report_is_never_written_over_content_and_is_refused_before_playing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    story = tmp_path / "storybook.yaml"
    story.write_text("kind: storybook\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["dmtool", "balance", "--games", "100000", "--content",
                                      str(CONTENT), "--html", str(story)])
    started = time.monotonic()
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert "will not write the report" in capsys.readouterr().err
    assert story.read_text(encoding="utf-8") == "kind: storybook\n"
    assert time.monotonic() - started < 30  # refused up front, not after 100,000 games


def test_an_interrupted_gathering_keeps_the_games_finished() -> None:
    bundle = Bundle.load(CONTENT, "hollis-brandt")
    configs = (Config("random"),)
    plan = list(chunks(1, 3 * CHUNK, 0))

    def stopped() -> Iterator[tuple[Chunk, Tally]]:
        results = in_process(bundle, configs, plan)
        yield next(results)
        yield next(results)
        raise KeyboardInterrupt

    result = collect(stopped(), configs, plan, 3 * CHUNK)
    assert result.interrupted and result.finished == 2 * CHUNK
    assert result.tallies[0].games == 2 * CHUNK and list(result.missing()) == plan[2:]


def test_ctrl_c_while_a_chunk_is_merged_waits_for_the_merge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that lands half way through merging a chunk's tally stops the gathering
    once that merge is whole: a half-merged tally counted a card's games on one side only,
    and the report's rates came out above 100% (math domain error, seen after 20 games)."""
    bundle = Bundle.load(CONTENT, "hollis-brandt")
    configs = (Config("random"),)
    plan = list(chunks(1, 3 * CHUNK, 0))
    whole_merge = Tally.merge

    def interrupted_merge(self: Tally, other: Tally) -> None:
        self.games += other.games
        os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C, in mid-merge
        self.games -= other.games
        whole_merge(self, other)

    monkeypatch.setattr(Tally, "merge", interrupted_merge)
    handler = signal.getsignal(signal.SIGINT)
    result = collect(in_process(bundle, configs, plan), configs, plan, 3 * CHUNK)
    monkeypatch.setattr(Tally, "merge", whole_merge)
    alone = Tally()
    alone.merge(play_chunk(bundle, configs, plan[0]))
    assert result.interrupted and result.finished == CHUNK
    assert result.tallies[0].games == CHUNK
    assert result.tallies[0].items == alone.items
    assert result.tallies[0].item_outcomes == alone.item_outcomes
    assert signal.getsignal(signal.SIGINT) is handler  # given back


def _read_until(fd: int, pattern: re.Pattern[bytes], seconds: float) -> bytes:
    """What a terminal shows, read until `pattern` appears (or the time is up)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not pattern.search(seen):
        if select.select([fd], [], [], 0.5)[0]:
            try:
                seen += os.read(fd, 4096)
            except OSError:  # the other end closed
                break
    return seen


@pytest.mark.skipif(sys.platform == "win32", reason="a terminal and SIGINT to a group")
def test_ctrl_c_stops_the_pool_and_reports_the_games_finished(tmp_path: Path) -> None:
    command = [str(Path(sys.executable).parent / "dmtool"), "balance", "--games", "100000",
               "--policy", "random", "--jobs", "2", "--content", str(CONTENT),
               "--json", str(tmp_path / "b.json")]
    terminal, child_end = pty.openpty()  # standard error on a terminal: progress is shown
    with children_hear_ctrl_c():
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=child_end,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    os.close(child_end)
    try:
        shown = _read_until(terminal, re.compile(rb"[1-9][\d,]* of 100,000 games .* ETA \d+:"),
                            120)
        assert b"games/s" in shown and b"ETA" in shown, shown
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        out, _ = process.communicate(timeout=180)  # a hang guard, not a speed limit
        shown += _read_until(terminal, re.compile(rb"games that finished"), 10)
    finally:
        os.close(terminal)
        if process.poll() is None:  # never leave the pool running into the next test
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, shown
    assert b"interrupted; the report covers the" in shown and b"Traceback" not in shown
    report = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert report["interrupted"] and 0 < report["finished"] < 100000
    assert b"INTERRUPTED" in out


def _plant(tmp_path: Path) -> Path:
    """A copy of content/ where every score effect gives ending D two points more."""
    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    book = copy / STORYBOOK
    text = re.sub(r"(score: \{[^}]*\bD: )(\d+)", lambda m: f"{m[1]}{int(m[2]) + 2}",
                  book.read_text(encoding="utf-8"))
    book.write_text(text, encoding="utf-8")
    return copy


def test_against_shows_a_planted_change_to_one_ending_as_significant(tmp_path: Path) -> None:
    planted = _plant(tmp_path)
    report = run_balance(BalanceOptions(content=planted, against=CONTENT, games=60,
                                        policies=("greedy",), jobs=2)).report
    changes = {c["outcome"]: c for c in report["against"]["configurations"][0]["changes"]}
    ending_d = changes["ending D"]
    assert ending_d["after"]["rate"] > ending_d["before"]["rate"]
    assert ending_d["significant"] and ending_d["p"] < 0.001
    unchanged = run_balance(BalanceOptions(content=CONTENT, against=CONTENT, games=10,
                                           policies=("greedy",), jobs=1)).report
    assert not any(c["only_before"] or c["only_after"]
                   for c in unchanged["against"]["configurations"][0]["changes"])


def _game(seed: int, outcome: str, detail: str, items: tuple[str, ...] = (),
          finale_items: tuple[str, ...] = ()) -> GameSummary:
    return GameSummary(seed=seed, outcome=outcome, detail=detail, rounds=5, finale_rounds=2,
                       deaths=0, withered=0, scores=(), entries=(), tests=(), items=items,
                       steps=10, finale_items=finale_items)


def test_a_finale_card_is_weighed_among_its_endings_games_only() -> None:
    tally = Tally()
    for seed in range(60):  # ending A: conclusion 331 whenever the finale card came up
        card = ("encounter card: the-mud-path",) if seed % 2 else ()
        tally.add(_game(seed, "ending A", "conclusion 331" if card else "conclusion 330",
                        finale_items=card))
    for seed in range(60, 160):  # ending B never sees that card
        tally.add(_game(seed, "ending B", "conclusion 371"))
    rows = [r for r in decisive_items(tally) if r["item"] == "encounter card: the-mud-path"]
    assert rows and {r["among"] for r in rows} == {"games that reached ending A"}
    by = {r["outcome"]: r for r in rows}
    assert by["ending A, conclusion 331"]["with"] == {
        "games": 30, "count": 30, "rate": 1.0, "ci": by["ending A, conclusion 331"]["with"]["ci"]}
    assert by["ending A, conclusion 331"]["without"]["games"] == 30  # not all 130 others
    assert "ending A" not in by  # a finale card cannot say which ending was reached

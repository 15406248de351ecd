"""The dmtool command line: click commands that build options, call plain functions, and
map results to exit codes (0 clean, 1 content errors, 2 usage or internal errors)."""

from __future__ import annotations

import functools
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dmtool import __version__
from dmtool.errors import DmtoolError, UsageError

if TYPE_CHECKING:
    from dmtool.commands.check import CheckRequest

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

# The path types of the options, one instance of each shared by all of them: each
# click.Path looks up its translated name when made (a gettext search per instance, at
# every start of dmtool).
_ANY_PATH = click.Path(path_type=Path)
_FILE_PATH = click.Path(path_type=Path, dir_okay=False)
_FOLDER_PATH = click.Path(path_type=Path, file_okay=False)
_EXISTING_PATH = click.Path(exists=True, path_type=Path)


_CONTENT_HELP = ("The content folder (or a checkout holding content/); default: the configured "
                 "'content', else content/ here. The games dmtool ships are read beneath it. "
                 "Example: --content ../dm/content")


def _tidy() -> None:
    """Before a command writes: remove what a killed dmtool left (dmtool.writing sweeps by
    its journals). Only commands that write pay for it, so `check` starts as fast as ever."""
    from dmtool.writing import sweep_leftovers

    sweep_leftovers()


def _codes(values: tuple[str, ...]) -> frozenset[str]:
    """--select/--ignore accept repeated flags and comma-separated lists."""
    return frozenset(c.strip().upper() for v in values for c in v.split(",") if c.strip())


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="Example: dmtool check content/ --format github",
)
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _param, value: _print_version(ctx, value),
              help="Show dmtool's version and its games' content version, and exit.")
def cli() -> None:
    """Check, graph, test and publish Dawn of Madness and Deep Madness content."""
    # Imported here, not above: `dmtool --version` and `--help` need none of the rules.
    from dmtool.commands.rules import register_rules
    from dmtool.config import use_author_trees

    register_rules()  # every command that checks content runs every rule `check` runs
    use_author_trees(Path.cwd())  # one notion of the content and schemas for every command
    _start_up_done()


def _print_version(ctx: click.Context, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from dmtool.packaged import version_line

    click.echo(version_line(__version__))
    ctx.exit()


class _StartUp:
    """What main() was told: the console script (dmtool/console.py) pauses the collector
    before any import, and start-up then turns it back on. In-process callers of main()
    leave the collector as they have it."""

    resume_collector = False


@functools.cache  # once per process (in-process callers invoke the CLI many times)
def _start_up_done() -> None:
    """Start-up is over: the modules, classes and functions it built live as long as the
    process. Frozen (gc.freeze), the cycle collector's later passes skip them instead of
    walking them all again each time (~3% of a one-file `dmtool check`'s instructions)."""
    gc.freeze()
    if _StartUp.resume_collector:
        gc.enable()


@cli.command(epilog="Examples:\n\n  dmtool check\n\n  dmtool check content/wanderers/ --strict --format json")
@click.argument("paths", nargs=-1, type=_ANY_PATH)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]),
              default=None, help="Output format (default text; github when GITHUB_ACTIONS=true). "
              "Example: --format sarif > dmtool.sarif")
@click.option("--strict", is_flag=True, default=None,
              help="Fail (exit 1) on warnings too. Example: dmtool check --strict")
@click.option("--select", multiple=True, metavar="CODES",
              help="Report only these codes or prefixes. Example: --select DM2,DM301")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Never report these codes or prefixes. Example: --ignore DM017")
@click.option("--color/--no-color", default=None,
              help="Colour the text output (default: when writing to a terminal). Example: --no-color")
@click.option("--output", "-o", type=_FILE_PATH, default=None,
              help="Write the report to a file instead of standard output. Example: -o report.sarif")
@click.option("--no-cache", is_flag=True,
              help="Ignore and do not update the check cache (.dmtool-cache/, or $DMTOOL_CACHE_DIR). "
              "Example: dmtool check --no-cache")
@click.option("--statistics", is_flag=True,
              help="Print how many diagnostics each code has instead of listing them "
              "(text or json). Example: dmtool check --statistics")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes for a large tree; 0 means one per core, 1 checks in "
              "this process alone. The report is the same either way. Example: dmtool check -j 1")
@click.option("--watch", is_flag=True,
              help="Keep running: re-check whenever a file changes and print only the diagnostics "
              "that appeared or went away. Example: dmtool check --watch content/")
@click.option("--no-daemon", is_flag=True,
              help="Check in this process even if a daemon runs for this folder (dmtool daemon). "
              "Example: dmtool check --no-daemon")
def check(paths: tuple[Path, ...], fmt: str | None, strict: bool | None, select: tuple[str, ...],
          ignore: tuple[str, ...], color: bool | None, output: Path | None, no_cache: bool,
          statistics: bool, jobs: int, watch: bool, no_daemon: bool) -> None:
    """Validate content files against their schemas and each other.

    PATHS are files or folders (default: the configured paths, or content/). Cross-file
    references are checked against the whole content/ tree that holds them. Where a daemon
    runs (dmtool daemon start), it gives the answer, the same report.
    """
    from dmtool.commands.check import run

    if output is not None:
        _tidy()
    request = _check_request(paths=paths, fmt=fmt, strict=strict, select=select, ignore=ignore,
                             color=color, output=output, no_cache=no_cache,
                             statistics=statistics, jobs=jobs)
    if watch:
        from dmtool.lsp.watch import run_watch

        terminal = sys.stdout.isatty()
        sys.exit(run_watch(request, emit=lambda text: click.echo(text, nl=False),
                           clear=click.clear if terminal else lambda: None,
                           color=terminal if color is None else color))
    code = run(request)
    _skip_final_collection()
    sys.exit(code)


def _check_request(*, paths: tuple[Path, ...], fmt: str | None, strict: bool | None,
                   select: tuple[str, ...], ignore: tuple[str, ...], color: bool | None,
                   output: Path | None, no_cache: bool, statistics: bool,
                   jobs: int) -> CheckRequest:
    """The request of a `dmtool check` command line (here, or sent to the daemon)."""
    from dmtool.commands.check import CheckRequest

    return CheckRequest(paths=paths, fmt=fmt, strict=strict, select=_codes(select),
                        ignore=_codes(ignore), color=color, output=output, no_cache=no_cache,
                        statistics=statistics, jobs=jobs)


@cli.group(epilog="Examples:\n\n  dmtool daemon start\n\n  dmtool check\n\n  dmtool daemon stop")
def daemon() -> None:
    """Keep this folder's content checked in memory, so that `dmtool check` here answers at once.

    While the daemon runs, `dmtool check` in this folder hands it the command line and prints
    its report, the one a check of its own would give: the daemon looks at every file's
    stat (and reads any file whose stat changed) before each answer. `--watch`, `--output`,
    `--no-cache` and `--no-daemon` (or DMTOOL_NO_DAEMON=1) check in the process itself.
    """


_IDLE_TIMEOUT = click.option(
    "--idle-timeout", type=click.IntRange(min=1), default=3 * 3600, show_default=True,
    metavar="SECONDS", help="Stop after this long without a request. Example: --idle-timeout 600")


@daemon.command("start", epilog="Example: dmtool daemon start content/")
@click.argument("paths", nargs=-1, type=_ANY_PATH)
@_IDLE_TIMEOUT
def daemon_start(paths: tuple[Path, ...], idle_timeout: int) -> None:
    """Start the daemon for this folder in the background and wait until it is ready.

    PATHS are what it checks first (default: the configured paths, or content/); it answers
    any `dmtool check` in this folder afterwards.
    """
    from dmtool.daemon.server import start_in_background

    pid = start_in_background([sys.executable, "-m", "dmtool", "daemon", "run",
                               f"--idle-timeout={idle_timeout}"], [str(p) for p in paths],
                              os.getcwd())
    click.echo(f"dmtool daemon: ready in process {pid}; `dmtool check` in this folder now asks "
               "it (dmtool daemon stop ends it)")


@daemon.command("run", epilog="Example: dmtool daemon run --idle-timeout 600")
@click.argument("paths", nargs=-1, type=_ANY_PATH)
@_IDLE_TIMEOUT
@click.option("--ready-fd", type=int, default=None, hidden=True)
def daemon_run(paths: tuple[Path, ...], idle_timeout: int, ready_fd: int | None) -> None:
    """Run the daemon for this folder in the foreground, until stopped or idle.

    PATHS are what it checks first (default: the configured paths, or content/).
    """
    from dmtool.daemon.answer import ready_signal, serve_checks

    serve_checks(_check_request, check, paths, idle_seconds=idle_timeout,
                 ready=ready_signal(ready_fd))


@daemon.command("stop", epilog="Example: dmtool daemon stop")
def daemon_stop() -> None:
    """Stop the daemon of this folder (nothing to do when none runs)."""
    from dmtool.daemon.server import SILENT_DAEMON, Silent, stop

    try:
        pid = stop(os.getcwd())
    except Silent:
        raise UsageError(SILENT_DAEMON) from None
    click.echo("dmtool daemon: no daemon runs for this folder" if pid is None
               else f"dmtool daemon: stopped process {pid}")


@daemon.command("status", epilog="Example: dmtool daemon status")
def daemon_status() -> None:
    """Say whether a daemon runs for this folder (exit 0) or not (exit 1)."""
    from dmtool.daemon.server import SILENT_DAEMON, Silent, status

    try:
        found = status(os.getcwd())
    except Silent:
        click.echo(f"dmtool daemon: {SILENT_DAEMON}")
        sys.exit(EXIT_FINDINGS)
    if found is None:
        click.echo("dmtool daemon: no daemon runs for this folder")
        sys.exit(EXIT_FINDINGS)
    pid, served = found
    click.echo(f"dmtool daemon: process {pid} answers for this folder (checks answered: {served})")


@cli.command(epilog="Examples:\n\n  dmtool explain DM202\n\n  dmtool explain --all")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every code with its title. Example: dmtool explain --all")
def explain(code: str | None, show_all: bool) -> None:
    """Explain a diagnostic code: its meaning, default severity and an example."""
    from dmtool.commands.explain import explain_all, explain_code

    if show_all or code is None:
        click.echo(explain_all())
        return
    text = explain_code(code)
    if text is None:
        click.echo(f"dmtool: unknown code {code!r}; run 'dmtool explain --all' for the list", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(text)


# --- dmtool fmt / dmtool new: paste into dmtool/cli.py after the `explain` command --------


@cli.command(epilog="Examples:\n\n  dmtool fmt\n\n  dmtool fmt content/wanderers/ilse-marrow --check")
@click.argument("paths", nargs=-1, type=_ANY_PATH)
@click.option("--check", is_flag=True,
              help="Write nothing; print a unified diff and exit 1 if any file would change "
              "(for CI). Example: dmtool fmt --check")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing; print what would change as a unified diff. "
              "Example: dmtool fmt --diff content/wanderers/")
def fmt(paths: tuple[Path, ...], check: bool, show_diff: bool) -> None:
    """Rewrite YAML content files in dmtool's canonical layout.

    PATHS are files or folders (default: content/). Comments and blank lines are kept,
    keys follow the schema's order, and files that do not load are reported and left
    untouched. Formatting twice changes nothing.
    """
    from dmtool.authoring import FmtOptions, run_fmt

    _tidy()
    result = run_fmt(FmtOptions(paths=paths, check=check, diff=show_diff))
    for diff in result.diffs:
        click.echo(diff, nl=False)
    click.echo(result.summary(), err=True)
    sys.exit(result.exit_code)


@cli.group(epilog='Examples:\n\n  dmtool new wanderer "Ilse Marrow"\n\n'
           '  dmtool new card coda "Moth Dust on the Sill" --wanderer ilse-marrow')
def new() -> None:
    """Scaffold content files that pass 'dmtool check' at once, with TODO notes."""


_NEW_DIR_HELP = ("The folder that holds {what} (default {default}). "
                 "Example: --dir {default}")


def _no_force(_ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        raise click.UsageError(
            "'dmtool new' never replaces a file, even with --force (an author's edits would be "
            "lost); choose another name, or move the existing file away first")


# Hidden: earlier versions replaced files with --force; say why that is gone.
_FORCE = click.option("--force", is_flag=True, hidden=True, expose_value=False,
                      callback=_no_force)


def _new_dir(what: str, default: str):  # type: ignore[no-untyped-def]
    return click.option("--dir", "directory", type=_FOLDER_PATH,
                        default=None, help=_NEW_DIR_HELP.format(what=what, default=default))


def _run_new(**options: object) -> None:
    from dmtool.authoring import NewOptions, run_new

    _tidy()
    result = run_new(NewOptions(**options))  # type: ignore[arg-type]
    click.echo(result.summary())
    sys.exit(result.exit_code)


@new.command("wanderer", epilog='Example:\n\n  dmtool new wanderer "Ilse Marrow"')
@click.argument("name")
@_new_dir("wanderers", "content/wanderers")
@_FORCE
def new_wanderer(name: str, directory: Path | None) -> None:
    """Scaffold a wanderer: dashboard, storybook, 16 world shards, 3 malformations,
    3 terrors, a final boss, starting cards and a finale legacy card per ending.

    NAME is the wanderer's name; the id is its kebab-case form (ilse-marrow).
    """
    _run_new(what="wanderer", name=name, directory=directory)


@new.command("storybook",
             epilog='Example:\n\n  dmtool new storybook "The Salt Road" --wanderer ilse-marrow')
@click.argument("name")
@click.option("--wanderer", required=True, metavar="ID",
              help="The wanderer the storybook belongs to. Example: --wanderer ilse-marrow")
@_new_dir("wanderers", "content/wanderers")
@_FORCE
def new_storybook(name: str, wanderer: str, directory: Path | None) -> None:
    """Scaffold a wanderer's storybook (round events, shard encounters, four endings)
    and point the wanderer at it. An existing storybook.yaml is never replaced: move it
    away first to start afresh."""
    _run_new(what="storybook", name=name, wanderer=wanderer, directory=directory)


@new.command("chapter", epilog='Example:\n\n  dmtool new chapter "The Long Night" '
             "--expansion madness-reborn")
@click.argument("name")
@click.option("--expansion", required=True, metavar="ID",
              help="The expansion the chapter belongs to. Example: --expansion madness-reborn")
@_new_dir("expansions", "content/deep-madness")
@_FORCE
def new_chapter(name: str, expansion: str, directory: Path | None) -> None:
    """Scaffold a Deep Madness chapter, numbered after the expansion's last one (and
    added to the expansion's campaign, if it has one)."""
    _run_new(what="chapter", name=name, expansion=expansion, directory=directory)


@new.command("card", epilog='Example:\n\n  dmtool new card finale-legacy-card "Salt Crown" '
             "--wanderer ilse-marrow --ending B")
@click.argument("kind", type=click.Choice(sorted(
    ["coda", "domain-card", "encounter-card", "existence-card", "final-boss",
     "finale-encounter-card", "finale-legacy-card", "wanderer-card"])))
@click.argument("name")
@click.option("--wanderer", required=True, metavar="ID",
              help="The wanderer the card belongs to. Example: --wanderer ilse-marrow")
@click.option("--ending", type=click.Choice(["A", "B", "C", "D"]), default="A",
              help="The ending of a finale card (default A). Example: --ending C")
@_new_dir("wanderers", "content/wanderers")
@_FORCE
def new_card(kind: str, name: str, wanderer: str, ending: str, directory: Path | None) -> None:
    """Scaffold one card of a wanderer, list it on the wanderer, and give encounter
    cards their storybook entry."""
    _run_new(what="card", card_kind=kind, name=name, wanderer=wanderer, ending=ending,
             directory=directory)


# --- paste into dmtool/cli.py (after the `explain` command) -------------------------------

@cli.command(epilog="Examples:\n\n  dmtool graph content/wanderers/hollis-brandt/storybook.yaml\n\n"
             "  dmtool graph content/wanderers/hollis-brandt/storybook.yaml -o parish.svg --focus 106 --depth 2\n\n"
             "  dmtool graph content/wanderers/hollis-brandt/storybook.yaml --witness --witness-dir scenarios/")
@click.argument("paths", nargs=-1, type=_EXISTING_PATH)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Output format: text, or json with nodes, edges, roots, terminals, findings and "
              "score bounds. Example: --format json > graph.json")
@click.option("--output", "-o", type=_FILE_PATH, default=None,
              help="Draw the graph to a .svg, .png or .dot file (SVG and PNG need Graphviz's "
              "'dot'; without it the DOT file is written; a drawing of more than 10,000 nodes "
              "and edges is not laid out: draw a part with --ending or --focus). "
              "Example: -o parish.svg")
@click.option("--focus", type=int, default=None, metavar="ENTRY",
              help="With -o, draw only the entries near this one. Example: -o near.svg --focus 106")
@click.option("--depth", type=click.IntRange(0, 50), default=2, show_default=True,
              help="How many links away from --focus to draw. Example: --focus 106 --depth 3")
@click.option("--ending", type=click.Choice(["A", "B", "C", "D"]), default=None,
              help="With -o, draw only this ending's finale. Example: -o c.svg --ending C")
@click.option("--witness", is_flag=True,
              help="Print, for each ending, a shortest way to give it points and to reach each "
              "of its conclusions. Example: --witness")
@click.option("--witness-dir", type=_FOLDER_PATH, default=None,
              help="With --witness, also write each witness as a scenario fixture skeleton into "
              "this folder. Example: --witness --witness-dir tests/scenarios/drafts")
@click.option("--verify", type=click.IntRange(min=1), default=None, metavar="N",
              help="Hold the analysis against the rules engine: play N seeded games per policy "
              "and replay each witness; exit 1 if a game reaches what the analysis calls "
              "impossible or passes a score bound it states. Example: --verify 20")
def graph(paths: tuple[Path, ...], fmt: str, output: Path | None, focus: int | None, depth: int,
          ending: str | None, witness: bool, witness_dir: Path | None,
          verify: int | None) -> None:
    """Analyse storybooks as graphs: broken links, dead ends, unreachable entries and endings,
    traps, score bounds; draw them; print witness paths.

    PATHS are storybook files or folders holding them (default: the configured paths, or
    the configured content, or content/); round trackers, world shards and cards are read
    from the content tree around them.
    """
    from dmtool.commands.check import check_options, given_or_default_paths
    from dmtool.storygraph.commands import GraphOptions, run_graph

    paths = given_or_default_paths(paths)

    if witness_dir is not None and not witness:
        raise click.UsageError("--witness-dir needs --witness")
    if output is not None or witness_dir is not None:
        _tidy()
    result = run_graph(GraphOptions(paths=paths, output=output, fmt=fmt, witness=witness,
                                    witness_dir=witness_dir, focus=focus, depth=depth, ending=ending,
                                    check=check_options(paths)))
    for message in result.messages:
        click.echo(f"dmtool: {message}", err=True)
    exit_code = result.exit_code
    if verify is None:
        click.echo(result.text, nl=False)
    else:
        import json  # only a verifying run needs it (start-up cost, docs/architecture.md)

        from dmtool.commands.verify import as_data, render, run_verify

        verified = run_verify(paths, verify, check_options(paths))
        if fmt == "json":
            data = json.loads(result.text)
            data["verify"] = as_data(verified)
            click.echo(json.dumps(data, indent=2, ensure_ascii=True))
        else:
            click.echo(result.text + render(verified), nl=False)
        if any(v.contradictions for v in verified):
            exit_code = max(exit_code, 1)
    _skip_final_collection()
    # 0 clean (warnings allowed), 1 an error-severity finding (or, with --verify, a
    # contradiction), 2 the drawing asked for was not made (too large, or Graphviz failed):
    # the analysis is printed all the same.
    sys.exit(exit_code)


@cli.command(epilog="Examples:\n\n  dmtool odds content/wanderers/hollis-brandt/storybook.yaml\n\n"
             "  dmtool odds content/wanderers/hollis-brandt/storybook.yaml --sentience red=3,purple=2\n\n"
             "  dmtool odds content/wanderers/hollis-brandt/storybook.yaml --runs 10000 --seed 7")
@click.argument("paths", nargs=-1, type=_EXISTING_PATH)
@click.option("--sentience", default="", metavar="COLOUR=N,...",
              help="Sentience values to use instead of the wanderer's starting ones (colours not "
              "named keep theirs). Example: --sentience red=2,blue=1")
@click.option("--runs", type=click.IntRange(min=1), default=None,
              help="Play this many random playthroughs and report the endings reached and the "
              "entries never visited, instead of listing test odds. Example: --runs 10000")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the playthroughs' random generator; the same seed plays the same "
              "games. Example: --runs 1000 --seed 42")
@click.option("--goal", type=click.Choice(["30", "40", "50"]), default="40", show_default=True,
              help="Total ending score that wins the wanderer stage in playthroughs (short, "
              "normal and long games). Example: --goal 30")
@click.option("--paths", "show_paths", is_flag=True,
              help="With --runs, also list each playthrough: its ending, scores and the "
              "entries it read in order (the site's reader plays the same). Example: --runs 5 "
              "--paths")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Output format. Example: --format json")
def odds(paths: tuple[Path, ...], sentience: str, runs: int | None, seed: int, goal: str,
         show_paths: bool, fmt: str) -> None:
    """Exact pass odds of every test, hardest first, or random playthroughs of a storybook.

    PATHS are storybook files or folders holding them (default: the configured paths, or
    the configured content, or content/)."""
    from dmtool.commands.check import check_options, given_or_default_paths
    from dmtool.storygraph.odds_command import OddsOptions, parse_sentience, run_odds

    paths = given_or_default_paths(paths)

    result = run_odds(OddsOptions(paths=paths, sentience=parse_sentience(sentience), runs=runs,
                                  seed=seed, goal=int(goal), show_paths=show_paths, fmt=fmt,
                                  check=check_options(paths)))
    click.echo(result.text, nl=False)
    _skip_final_collection()
    sys.exit(result.exit_code)  # 1 when the storybook's content has errors (printed first)


@cli.command(epilog="Examples:\n\n  dmtool play --seed 7\n\n  dmtool play --policy greedy --players 3 --variant short --quiet\n\n  dmtool play --campaign thursday.yaml --games 3 --devour")
@click.option("--wanderer", default="hollis-brandt", show_default=True, metavar="ID",
              help="The central wanderer, authored under content/wanderers/. Example: --wanderer hollis-brandt")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the dice and the automatic players; the same seed prints the same log. Example: --seed 7")
@click.option("--policy", default="random", show_default=True, metavar="NAME",
              help="Who makes the players' choices: random (seeded), first (always the first option), "
              "greedy (a simple heuristic), planner (a one-step lookahead that also reads story "
              "choices ahead), or a plug-in's name (see docs/balance.md); NAME~0.3 makes a random "
              "move at each decision with chance 0.3. Example: --policy greedy")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Players (one player plays two wanderers); other seats get stand-in wanderers. Example: --players 3")
@click.option("--variant", type=click.Choice(["short", "standard", "long"]), default="standard", show_default=True,
              help="Score goal 30, 40 or 50. Example: --variant long")
@click.option("--score-goal", type=click.Choice(["30", "40", "50"]), default=None,
              help="The score goal itself (wins over --variant). Example: --score-goal 30")
@click.option("--devour", is_flag=True, help="Play with the optional devour rule. Example: --devour")
@click.option("--abomination", metavar="ID", default=None,
              help="The abomination (default the-accretion). Example: --abomination the-white-drift")
@click.option("--campaign", type=_FILE_PATH, default=None,
              help="Campaign state file: read at setup, rewritten atomically after each game (created if missing). "
              "Example: --campaign thursday.yaml")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games in a row (seeds S, S+1, ...), each from the campaign file. Example: --games 3")
@click.option("--log/--quiet", default=True,
              help="Print each game's event log (default) or only its result. Example: --quiet")
@click.option("--content", type=_FOLDER_PATH, default=None, help=_CONTENT_HELP)
def play(wanderer: str, seed: int, policy: str, players: int, variant: str, score_goal: str | None,
         devour: bool, abomination: str | None, campaign: Path | None, games: int, log: bool,
         content: Path | None) -> None:
    """Play whole games of a wanderer from the content tree with automatic players.

    Exit code 0 when every game ran to its end, 1 when the campaign file has problems or a
    game could not finish, 2 for unusable options.
    """
    from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play

    if campaign is not None:
        _tidy()
    options = PlayOptions(wanderer=wanderer, seed=seed, policy=policy, players=players, variant=variant,
                          score_goal=int(score_goal) if score_goal else None, devour=devour,
                          abomination=abomination, campaign=campaign, games=games, log=log,
                          content=_content(content))
    sys.exit(run_play(options, emit=lambda text: click.echo(text, nl=False)))


def _content(given: Path | None) -> Path:
    """The content tree a command plays: --content, else the configured one, else content/
    here, else the packaged games (said on standard error, as it is not obvious)."""
    if given is not None:
        return given
    from dmtool.model.content_index import default_content_dir
    from dmtool.packaged import packaged_content_dir

    found = default_content_dir()
    if found == packaged_content_dir() and not Path("content").is_dir():
        click.echo(f"dmtool: no content/ here; using the games dmtool ships ({found})", err=True)
    return found


def _listed(values: tuple[str, ...]) -> tuple[str, ...]:
    """Comma-separated values and repeated flags alike: --policy greedy,random."""
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


def _jobs(value: str) -> int | None:
    if value == "auto":
        return None
    if not value.isdigit() or int(value) < 1:
        raise click.BadParameter("give a number of processes, or auto for every core.")
    return int(value)


@cli.command(epilog="Examples:\n\n  dmtool balance --games 10000 --html balance.html\n\n"
             "  dmtool balance --policy greedy,random,planner --players 1,3 --games 2000\n\n"
             "  dmtool balance --against ../previous-commit --games 5000\n\n"
             "  dmtool balance --scheduler tcp://10.0.0.5:8786 --games 100000")
@click.option("--wanderer", default="hollis-brandt", show_default=True, metavar="ID",
              help="The central wanderer whose games are played. Example: --wanderer hollis-brandt")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Games per configuration; game i uses seed S+i. Example: --games 10000")
@click.option("--policy", "policies", multiple=True, metavar="LIST",
              help="Policies to compare, comma-separated (default greedy). Example: --policy greedy,random")
@click.option("--variant", "variants", multiple=True, metavar="LIST",
              help="Score-goal variants: short, standard, long (default standard). Example: --variant short,long")
@click.option("--players", "players", multiple=True, metavar="LIST",
              help="Player counts, 1 to 4 (default 1). Example: --players 1,3")
@click.option("--devour", is_flag=True, help="Play with the optional devour rule. Example: --devour")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="The first game's seed. Example: --seed 1000")
@click.option("--jobs", default="auto", show_default=True, metavar="N|auto",
              help="Local worker processes; the results are the same for any number. Example: --jobs 2")
@click.option("--content", type=_FOLDER_PATH, default=None, help=_CONTENT_HELP)
@click.option("--against", type=_FOLDER_PATH, default=None,
              metavar="PATH", help="Also play the same seeds on another content tree (or a checkout of "
              "another commit) and report each outcome's change with a significance test. "
              "Example: --against ../previous")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on a Dask distributed cluster instead of local processes (pip install "
              "'dmtool[cluster]'). Example: --scheduler tcp://10.0.0.5:8786")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Format of the report on standard output (default text). Example: --format json")
@click.option("--html", type=_FILE_PATH, default=None,
              help="Also write a self-contained HTML report with charts. Example: --html balance.html")
@click.option("--json", "json_path", type=_FILE_PATH, default=None,
              help="Also write the report as JSON. Example: --json balance.json")
@click.option("--epsilon", "epsilons", multiple=True, metavar="LIST",
              help="Also play each policy with a random move at each decision by these chances "
              "(0: the policy, 1: random play); the report places every policy on that range. "
              "Example: --epsilon 0.25,0.5")
@click.option("--sweep", default=None, metavar="PARAMETER=VALUES",
              help="Play one parameter at several values on the same seeds and draw each "
              "outcome's curve: test:ENTRY=1,2,3 (times a test needs its first symbol), score:ENTRY:ENDING=0,1,2 "
              "(points an entry gives), variant=short,standard,long or players=1,2,3. "
              "Example: --sweep test:202=1,2,3")
@click.option("--visits", type=_FILE_PATH, default=None,
              help="Also write per-entry and per-option visit counts as CSV. Example: --visits visits.csv")
def balance(wanderer: str, games: int, policies: tuple[str, ...], variants: tuple[str, ...],
            players: tuple[str, ...], devour: bool, seed: int, jobs: str, content: Path | None,
            against: Path | None, scheduler: str | None, fmt: str, html: Path | None,
            json_path: Path | None, epsilons: tuple[str, ...], sweep: str | None,
            visits: Path | None) -> None:
    """Play many seeded games of a wanderer on every core and report what they reach.

    Outcomes with 95% intervals, game length, deaths, ending scores over the rounds, the
    entries never or seldom read, the tests failed most, and the cards and codas that went
    with an outcome. The same options and seed always give the same report, whatever
    --jobs is. Ctrl-C stops early and reports the games finished (exit code 130).
    Exit code 0 when done, 2 for a usage error.
    """
    from dmtool.balance.run import BalanceOptions
    from dmtool.commands.balance import BalanceRequest, balance_command

    if html is not None or json_path is not None or visits is not None:
        _tidy()
    try:
        counts = tuple(int(p) for p in _listed(players)) or (1,)
    except ValueError:
        raise click.BadParameter("give numbers 1 to 4, e.g. 1,3.", param_hint="--players") from None
    try:
        chances = tuple(float(e) for e in _listed(epsilons))
    except ValueError:
        raise click.BadParameter("give chances from 0 to 1, e.g. 0.25,0.5.",
                                 param_hint="--epsilon") from None
    options = BalanceOptions(
        wanderer=wanderer, games=games, policies=_listed(policies) or ("greedy",),
        variants=_listed(variants) or ("standard",), players=counts, devour=devour, seed=seed,
        jobs=_jobs(jobs), content=_content(content), against=against, scheduler=scheduler, sweep=sweep,
        epsilons=chances)
    sys.exit(balance_command(BalanceRequest(options, fmt=fmt, html=html, json_path=json_path,
                                            visits=visits)))


@cli.command(epilog="Examples:\n\n  dmtool site\n\n  dmtool site content/ -o build/site\n\n"
             "  dmtool site --dry-run --format json")
@click.argument("content", required=False, type=_FOLDER_PATH)
@click.option("--out", "-o", "out", type=_FOLDER_PATH,
              default=Path("site"), show_default=True,
              help="The folder to build the site into; it is replaced as a whole, so it must be "
              "missing, empty or an earlier dmtool site. Example: -o build/site")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Output format of the report (default text). Example: --format json")
@click.option("--force", is_flag=True,
              help="Replace an earlier dmtool site even though files were added to it since "
              "(a folder dmtool did not build is never replaced). Example: dmtool site --force")
@click.option("--dry-run", is_flag=True,
              help="Build in a temporary folder only and write nothing; reports what the site "
              "would show. Example: dmtool site --dry-run")
@click.option("--allow-errors", is_flag=True,
              help="Build the site even when the check finds errors, from the documents that "
              "are valid (the home page says so). Example: dmtool site --allow-errors")
@click.option("--balance", "balance", multiple=True, type=_EXISTING_PATH, metavar="FILE.json",
              help="A balance report (dmtool balance --json FILE.json) to show on its "
              "wanderer's page; repeat for several wanderers (default: the configuration's "
              "`balance` list). Example: --balance balance.json")
def site(content: Path | None, out: Path, fmt: str, force: bool, dry_run: bool,
         allow_errors: bool, balance: tuple[Path, ...]) -> None:
    """Build a browsable site of the rules, the chapters, the wanderers with their cards,
    storybooks and branch pictures, and the references (glossary, game data, diagnostics,
    command line, schemas).

    CONTENT is the content folder (default: the configured one, else content/). The
    content is checked first and the report is the one `dmtool check` prints for that
    folder (the same configuration applies);
    with errors nothing is built unless --allow-errors. Exit code 0 when built, 1 for content
    errors or a site that cannot be built, 2 for a usage error.
    """
    from dmtool.config import load_config
    from dmtool.sitegen import SiteOptions, run_site

    _tidy()
    config = load_config(Path.cwd())
    result = run_site(SiteOptions(
        content=content or config.content or Path("content"), out=out, fmt=fmt,
        force=force, dry_run=dry_run,
        allow_errors=allow_errors, select=frozenset(config.select),
        ignore=frozenset(config.ignore), max_file_size=config.max_file_size,
        max_nesting=config.max_nesting,
        excluded=config.is_excluded if config.exclude else None, commands=cli,
        balance=balance or config.balance))
    click.echo(result.text, nl=False)
    for message in result.messages:
        click.echo(f"dmtool: {message}", err=True)
    sys.exit(result.exit_code)


@cli.command(name="test", epilog="Examples:\n\n  dmtool test\n\n  dmtool test tests/scenarios/r22-attack-breaks-rift.yaml --explain\n\n  dmtool test -k 'R24 and not coda' --coverage")
@click.argument("paths", nargs=-1, type=_ANY_PATH)
@click.option("-k", "keyword", metavar="EXPRESSION", default=None,
              help="Run only fixtures whose id, title, path or rule ids match; words combine "
              "with and, or, not and parentheses. Example: -k 'R30 or trapped'")
@click.option("--explain", is_flag=True,
              help="Print every fixture's event log after the run. Example: dmtool test --explain")
@click.option("--coverage", is_flag=True,
              help="List the rule ids of the checklist that no fixture names. "
              "Example: dmtool test --coverage")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Output format (default text). Example: --format json > results.json")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None,
              help="The content folder (or a checkout holding content/) that fixtures without "
              "a content: key of their own borrow from and that is checked with them; default: "
              "the configured 'content', else content/ here. Example: --content ../dm/content")
def test_command(paths: tuple[Path, ...], keyword: str | None, explain: bool, coverage: bool,
                 fmt: str, content: Path | None) -> None:
    """Run scenario fixtures through the reference rules engine.

    PATHS are fixture files or folders (default: tests/scenarios). Exit code 0 when every
    fixture passed or was skipped, 1 when any failed, 2 for a usage or internal error.
    """
    from dmtool.packaged import checkout_content, set_content_tree
    from dmtool.scenarios.commands import DEFAULT_PATHS, ScenarioOptions, run_tests

    if content is not None:
        set_content_tree(checkout_content(content).resolve())

    options = ScenarioOptions(paths=paths or DEFAULT_PATHS, keyword=keyword, explain=explain,
                              coverage=coverage, format=fmt)
    outcome = run_tests(options, emit=lambda text: click.echo(text, nl=False))
    sys.exit(outcome.exit_code)


@cli.command(epilog="Example (an editor starts it for you):\n\n  dmtool lsp")
def lsp() -> None:
    """Run the language server on standard input and output (for editors).

    Diagnostics while you type (cross-file findings included), go to definition and
    references for entry numbers and ids, hover, completion, quick fixes, formatting and
    an outline. See docs/editors.md for VS Code, Neovim and Helix.
    """
    # Not the server itself: early.py answers `initialize` while it is imported.
    from dmtool.lsp.early import serve

    serve()


def _skip_final_collection() -> None:
    """graph and odds end holding every storybook's analysis, check its corpus: frozen,
    they are left out of the collection Python runs at exit, which would walk them all once
    more for nothing (about a fifth of a cold `dmtool graph` on the bench corpus, 1% of a
    one-file check)."""
    gc.freeze()


def main(*, collector_paused: bool = False) -> None:
    """Console entry point: user errors without tracebacks (exit 2). `collector_paused`:
    the caller paused the cycle collector for start-up, and start-up is to resume it."""
    _StartUp.resume_collector = collector_paused
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(EXIT_USAGE)
    except DmtoolError as exc:
        click.echo(f"dmtool: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except BrokenPipeError:
        sys.exit(EXIT_USAGE)
    except OSError as exc:  # the file system said no (full, read-only, denied, too long...)
        from dmtool.writing.errors import reason  # only on this path, as the commands are

        where = f"{Path(exc.filename).as_posix()}: " if exc.filename else ""
        click.echo(f"dmtool: cannot use {where}{reason(exc)}", err=True)
        sys.exit(EXIT_USAGE)
    except Exception as exc:
        click.echo(f"dmtool: internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("Please report this with the command you ran.", err=True)
        sys.exit(EXIT_USAGE)


if __name__ == "__main__":
    main()

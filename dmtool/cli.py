"""The dmtool command line: click commands that build options, call plain functions, and
map results to exit codes (0 clean, 1 content errors, 2 usage or internal errors)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dmtool import __version__
from dmtool.errors import DmtoolError

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _codes(values: tuple[str, ...]) -> frozenset[str]:
    """--select/--ignore accept repeated flags and comma-separated lists."""
    return frozenset(c.strip().upper() for v in values for c in v.split(",") if c.strip())


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="Example: dmtool check content/ --format github",
)
@click.version_option(__version__, "-V", "--version", prog_name="dmtool")
def cli() -> None:
    """Check, graph, test and publish Dawn of Madness and Deep Madness content."""


@cli.command(epilog="Examples:\n\n  dmtool check\n\n  dmtool check content/wanderers/ --strict --format json")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
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
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write the report to a file instead of standard output. Example: -o report.sarif")
def check(paths: tuple[Path, ...], fmt: str | None, strict: bool | None, select: tuple[str, ...],
          ignore: tuple[str, ...], color: bool | None, output: Path | None) -> None:
    """Validate content files against their schemas and each other.

    PATHS are files or folders (default: the configured paths, or content/). Cross-file
    references are checked against the whole content/ tree that holds them.
    """
    from dmtool.commands.check import CheckRequest, run

    request = CheckRequest(paths=paths, fmt=fmt, strict=strict, select=_codes(select),
                           ignore=_codes(ignore), color=color, output=output)
    sys.exit(run(request))


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


@cli.command(name="test", epilog="Examples:\n\n  dmtool test\n\n  dmtool test tests/scenarios/r22-attack-breaks-rift.yaml --explain\n\n  dmtool test -k 'R24 and not coda' --coverage")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
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
def test_command(paths: tuple[Path, ...], keyword: str | None, explain: bool, coverage: bool,
                 fmt: str) -> None:
    """Run scenario fixtures through the reference rules engine.

    PATHS are fixture files or folders (default: tests/scenarios). Exit code 0 when every
    fixture passed or was skipped, 1 when any failed, 2 for a usage or internal error.
    """
    from dmtool.scenarios.commands import DEFAULT_PATHS, ScenarioOptions, run_tests

    options = ScenarioOptions(paths=paths or DEFAULT_PATHS, keyword=keyword, explain=explain,
                              coverage=coverage, format=fmt)
    outcome = run_tests(options, emit=lambda text: click.echo(text, nl=False))
    sys.exit(outcome.exit_code)


def main() -> None:
    """Console entry point: user errors without tracebacks (exit 2)."""
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
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no tracebacks for users
        click.echo(f"dmtool: internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("Please report this with the command you ran.", err=True)
        sys.exit(EXIT_USAGE)


if __name__ == "__main__":
    main()

"""The command line: version, help on every command, explain, and exit codes."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from dmtool import __version__
from dmtool.cli import cli
from dmtool.diagnostics import catalogue


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def _commands(group: click.Group) -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((name, command))
        if isinstance(command, click.Group):
            found.extend((f"{name} {n}", c) for n, c in _commands(command))
    return found


def test_every_command_and_option_has_help_with_an_example() -> None:
    for name, command in _commands(cli):
        assert command.help, f"'dmtool {name}' has no help text"
        assert "Example" in (command.epilog or "") or "Example" in command.help, name
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden and param.name not in ("help",):
                assert param.help, f"option {param.opts} of 'dmtool {name}' has no help"
                assert "Example" in param.help or (param.is_flag and "Example" in param.help), (
                    f"option {param.opts} of 'dmtool {name}' has no example in its help"
                )


def test_help_runs_for_every_command() -> None:
    for name, _ in _commands(cli):
        result = CliRunner().invoke(cli, [*name.split(), "--help"])
        assert result.exit_code == 0, name
        assert "Usage:" in result.output


def test_explain_prints_catalogue_entry() -> None:
    code = next(iter(catalogue()))
    result = CliRunner().invoke(cli, ["explain", code.lower()])
    assert result.exit_code == 0
    assert code in result.output
    assert catalogue()[code].title in result.output


def test_explain_unknown_code_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["explain", "DM999"])
    assert result.exit_code == 2


def test_console_script_exit_codes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "dmtool.cli", *args], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert run("check", "no-such-folder").returncode == 2
    assert run("--no-such-flag").returncode == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: [unclosed\n", encoding="utf-8")
    result = run("check", "bad.yaml")
    assert result.returncode == 1
    assert "bad.yaml:1:" in result.stdout
    assert "Traceback" not in result.stderr

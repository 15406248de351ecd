"""docs/editors.md and docs/continuous-integration.md: their configuration blocks parse and
start what exists (the `dmtool lsp` command, the action's inputs)."""

from __future__ import annotations

import json
import re
import tomllib

from click.testing import CliRunner
from ruamel.yaml import YAML

from dmtool.cli import cli
from tests.lsp_support import REPO

_BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def _blocks(page: str, language: str) -> list[str]:
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    return [body for lang, body in _BLOCK.findall(text) if lang == language]


def test_vscode_settings_are_json_and_start_dmtool_lsp():
    settings = [json.loads(block) for block in _blocks("editors.md", "json")]  # every one parses
    client = next(block for block in settings if "glspc.server.command" in block)
    assert client["glspc.server.command"] == "dmtool"
    assert client["glspc.server.commandArguments"] == ["lsp"]
    assert client["glspc.server.languageId"] == ["yaml"]


def test_helix_configuration_is_toml_and_starts_dmtool_lsp():
    (block,) = _blocks("editors.md", "toml")
    config = tomllib.loads(block)
    assert config["language-server"]["dmtool"] == {"command": "dmtool", "args": ["lsp"]}
    assert config["language"][0]["language-servers"][0] == "dmtool"


def test_neovim_configurations_start_dmtool_lsp():
    blocks = _blocks("editors.md", "lua")
    assert len(blocks) == 2
    assert all('{ "dmtool", "lsp" }' in block for block in blocks)


def test_the_command_the_editors_start_exists():
    result = CliRunner().invoke(cli, ["lsp", "--help"])
    assert result.exit_code == 0 and "language server" in result.output


def test_the_documented_workflow_uses_the_action_with_its_own_inputs():
    (workflow,) = _blocks("continuous-integration.md", "yaml")[:1]
    steps = YAML(typ="safe", pure=True).load(workflow)["jobs"]["check"]["steps"]
    action = YAML(typ="safe", pure=True).load((REPO / "action.yml").read_text(encoding="utf-8"))
    used = next(step for step in steps if "dmtool@" in step.get("uses", ""))
    assert set(used["with"]) <= set(action["inputs"])

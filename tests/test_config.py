"""Configuration discovery, validation, CLI merging, excludes, and the pre-commit hook file."""

from __future__ import annotations

import tomllib
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dmtool.config import CONFIG_FILES, Config, load_config
from dmtool.errors import ConfigError, UsageError

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_any_file(tmp_path: Path):
    above = [d / n for d in tmp_path.resolve().parents for n in CONFIG_FILES]
    if any(p.is_file() for p in above):
        pytest.skip("a folder above the temporary directory holds a configuration file")
    config = load_config(tmp_path)
    assert config == Config()
    assert config.source is None and config.format == "text" and config.strict is False


def test_dmtool_toml_is_found_from_a_nested_folder(tmp_path: Path):
    source = write(
        tmp_path / "dmtool.toml",
        'select = ["DM1", "DM202"]\nignore = ["DM017"]\nstrict = true\nformat = "sarif"\n'
        'paths = ["content", "extra/more"]\nmax-file-size = 1048576\nmax-nesting = 12\n'
        'exclude = ["drafts"]\n',
    )
    deep = tmp_path / "content" / "wanderers" / "ilse"
    deep.mkdir(parents=True)
    config = load_config(deep)
    root = tmp_path.resolve()
    assert config == Config(
        select=("DM1", "DM202"),
        ignore=("DM017",),
        strict=True,
        format="sarif",
        paths=(root / "content", root / "extra" / "more"),
        max_file_size=1048576,
        max_nesting=12,
        exclude=("drafts",),
        source=source.resolve(),
    )
    assert config.base_dir == root


def test_start_may_be_a_file(tmp_path: Path):
    write(tmp_path / "dmtool.toml", "strict = true\n")
    file = write(tmp_path / "a" / "b.yaml", "kind: coda\n")
    assert load_config(file).strict is True


def test_pyproject_without_table_is_skipped(tmp_path: Path):
    write(tmp_path / "dmtool.toml", 'format = "json"\n')
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "x"\n[tool.other]\na = 1\n')
    config = load_config(tmp_path / "pkg")
    assert config.format == "json"
    assert config.source == (tmp_path / "dmtool.toml").resolve()


def test_pyproject_with_table_is_used_and_nearest_wins(tmp_path: Path):
    write(tmp_path / "dmtool.toml", 'format = "json"\n')
    nearer = write(tmp_path / "pkg" / "pyproject.toml", '[tool.dmtool]\nformat = "github"\n')
    config = load_config(tmp_path / "pkg")
    assert config.format == "github" and config.source == nearer.resolve()


def test_dmtool_toml_beats_pyproject_in_the_same_folder(tmp_path: Path):
    write(tmp_path / "pyproject.toml", '[tool.dmtool]\nformat = "github"\n')
    write(tmp_path / "dmtool.toml", 'format = "json"\n')
    assert load_config(tmp_path).format == "json"


def test_empty_dmtool_toml_gives_defaults_with_a_source(tmp_path: Path):
    source = write(tmp_path / "dmtool.toml", "")
    config = load_config(tmp_path)
    assert replace(config, source=None) == Config()
    assert config.source == source.resolve()


def test_unknown_key_names_file_key_and_suggestion(tmp_path: Path):
    write(tmp_path / "dmtool.toml", 'selekt = ["DM1"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    message = str(caught.value)
    assert str(tmp_path.resolve() / "dmtool.toml") in message
    assert "'selekt'" in message and "Did you mean 'select'?" in message


def test_pyproject_keys_are_named_with_their_table(tmp_path: Path):
    write(tmp_path / "pyproject.toml", "[tool.dmtool]\nmax_file_size = 10\n")
    with pytest.raises(ConfigError, match=r"'tool\.dmtool\.max_file_size'.*'max-file-size'"):
        load_config(tmp_path)


@pytest.mark.parametrize(
    ("line", "key", "complaint"),
    [
        ('select = "DM1"', "select", "array of strings"),
        ("select = [1]", "select", "array of strings"),
        ('select = ["dm2"]', "select", "Did you mean 'DM2'?"),
        ('select = ["DM2x"]', "select", "not a code or code prefix"),
        ('ignore = ["DM999"]', "ignore", "matches no diagnostic code"),
        ('ignore = [""]', "ignore", "empty strings"),
        ('strict = "yes"', "strict", "true or false"),
        ("strict = 1", "strict", "true or false"),
        ('format = "xml"', "format", "one of text, json, github, sarif"),
        ("format = 3", "format", "one of text, json, github, sarif"),
        ('paths = "content"', "paths", "array of strings"),
        ("max-file-size = true", "max-file-size", "whole number of bytes"),
        ("max-file-size = 1.5", "max-file-size", "whole number of bytes"),
        ("max-file-size = 0", "max-file-size", "positive"),
        ("max-nesting = true", "max-nesting", "whole number of levels"),
        ("max-nesting = 8.0", "max-nesting", "whole number of levels"),
        ('max-nesting = "8"', "max-nesting", "whole number of levels, not the string '8'"),
        ("max-nesting = 0", "max-nesting", "at least 1"),
        ("max-nesting = -3", "max-nesting", "at least 1"),
        ("max-nesting = 65", "max-nesting", "at most 64, not 65: the loader refuses deeper"),
        ("max-nesting = 1000", "max-nesting", "schema validator recurses once per level"),
        ("exclude = [[1]]", "exclude", "array of strings"),
        ('balance = "b.json"', "balance", "array of strings"),
        ('balance = ["missing.json"]', "balance", "'missing.json', which is not a file"),
    ],
)
def test_wrong_values_name_file_and_key(tmp_path: Path, line: str, key: str, complaint: str):
    write(tmp_path / "dmtool.toml", line + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    message = str(caught.value)
    assert "dmtool.toml" in message and f"'{key}'" in message and complaint in message


def test_balance_reports_are_files_relative_to_the_configuration(tmp_path: Path):
    (tmp_path / "reports").mkdir()
    write(tmp_path / "reports" / "hollis.json", "{}")
    write(tmp_path / "dmtool.toml", 'balance = ["reports/hollis.json"]\n')
    (tmp_path / "deeper").mkdir()
    assert load_config(tmp_path / "deeper").balance == (tmp_path / "reports" / "hollis.json",)
    assert Config().balance == ()


def test_malformed_toml_and_non_table(tmp_path: Path):
    write(tmp_path / "a" / "dmtool.toml", "strict = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(tmp_path / "a")
    write(tmp_path / "b" / "pyproject.toml", "[tool]\ndmtool = 3\n")
    with pytest.raises(ConfigError, match=r"'tool\.dmtool' must be a table"):
        load_config(tmp_path / "b")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "dmtool.toml").write_bytes(b"format = '\xff'\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(tmp_path / "c")


def test_config_is_frozen():
    with pytest.raises(FrozenInstanceError):
        Config().strict = True  # type: ignore[misc]


def test_cli_values_win_and_unset_flags_keep_the_file(tmp_path: Path):
    write(tmp_path / "dmtool.toml", 'select = ["DM1"]\nstrict = true\nformat = "json"\n')
    config = load_config(tmp_path)
    merged = config.merged(
        select=("DM2,DM001",), ignore=(), strict=None, format="github", paths=(Path("x"),)
    )
    assert merged.select == ("DM2", "DM001")
    assert merged.strict is True and merged.format == "github" and merged.ignore == ()
    assert merged.paths == (Path("x"),) and merged.source == config.source
    assert config.merged(strict=False).strict is False
    assert config.merged() == config


def test_cli_values_are_checked():
    with pytest.raises(UsageError, match="--format must be one of"):
        Config().merged(format="yaml")
    with pytest.raises(UsageError, match="--select has 'DM9'"):
        Config().merged(select=["DM9"])
    with pytest.raises(UsageError, match="--max-file-size must be a positive"):
        Config().merged(max_file_size=-1)
    with pytest.raises(UsageError, match="--max-nesting must be at most 64"):
        Config().merged(max_nesting=65)
    assert Config().merged(max_nesting=8).max_nesting == 8
    with pytest.raises(TypeError, match="colour"):
        Config().merged(colour=True)


def test_exclude_patterns(tmp_path: Path):
    write(
        tmp_path / "dmtool.toml",
        'exclude = ["drafts", "*.draft.yaml", "content/old/**/*.yaml", "/top.yaml"]\n',
    )
    config = load_config(tmp_path)
    root = tmp_path.resolve()
    excluded = [
        "drafts/a.yaml",
        "content/drafts/deep/b.yaml",
        "content/x.draft.yaml",
        "content/old/a.yaml",
        "content/old/1/2/a.yaml",
        "top.yaml",
    ]
    kept = ["content/a.yaml", "content/old/a.yml", "content/top.yaml", "old/a.yaml", "draftsman/a"]
    for rel in excluded:
        assert config.is_excluded(root / rel), rel
    for rel in kept:
        assert not config.is_excluded(root / rel), rel
    assert not Config().is_excluded(root / "drafts" / "a.yaml")


def test_anchored_pattern_excludes_a_whole_folder(tmp_path: Path):
    write(tmp_path / "dmtool.toml", 'exclude = ["content/wip/"]\n')
    config = load_config(tmp_path)
    assert config.is_excluded(tmp_path / "content" / "wip" / "a" / "b.yaml")
    assert not config.is_excluded(tmp_path / "wip" / "b.yaml")


def test_pre_commit_hook_runs_the_console_script():
    hooks = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text())
    [hook] = [h for h in hooks if h["id"] == "dmtool-check"]
    assert hook["entry"] == "dmtool check"
    assert hook["language"] == "python"
    assert hook["types"] == ["yaml"]
    assert hook["pass_filenames"] is True
    assert isinstance(hook["name"], str) and hook["name"]
    assert isinstance(hook["description"], str) and len(hook["description"]) > 20
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    executable = hook["entry"].split()[0]
    assert executable in scripts
    assert scripts[executable] == "dmtool.console:main"  # pauses the collector, then the CLI

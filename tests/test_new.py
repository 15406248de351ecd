"""`dmtool new`: scaffolded wanderers, storybooks, chapters and cards pass `dmtool check`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from new_support import empty_project, new

from dmtool.authoring import NewOptions, format_text, run_new
from dmtool.authoring._plans import CARD_KINDS
from dmtool.authoring.keyorder import KeyOrder
from dmtool.diagnostics import Diagnostic, Report, Severity
from dmtool.errors import UsageError
from dmtool.loading import read_document
from dmtool.validation.pipeline import CheckOptions, run_check

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "schemas"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return empty_project(tmp_path)


def findings(report: Report, *, within: Path | None = None) -> list[Diagnostic]:
    """Errors and warnings (infos are fine), optionally only those in files under `within`."""
    found = [d for d in report.sorted() if d.severity is not Severity.INFO]
    if within is not None:
        found = [d for d in found if Path(d.location.path).resolve().is_relative_to(within)]
    return found


def check(path: Path) -> Report:
    return run_check(CheckOptions(paths=(path,), schema_dir=SCHEMAS))


def test_new_wanderer_passes_check(tree: Path) -> None:
    created = new(tree, "wanderer", "Ilse Marrow")
    folder = tree / "content" / "wanderers" / "ilse-marrow"
    assert len(created) == 31 and all(p.is_relative_to(folder) for p in created)
    assert len(list((folder / "world-shards").glob("*.yaml"))) == 16
    assert len(list((folder / "malformations").glob("*.yaml"))) == 3
    report = check(tree / "content")
    assert report.files_checked == 31
    assert findings(report) == []


def test_the_check_really_looks_at_the_new_wanderer(tree: Path) -> None:
    """A negative control: break the scaffold and the same check complains."""
    new(tree, "wanderer", "Ilse Marrow")
    folder = tree / "content" / "wanderers" / "ilse-marrow"
    (folder / "world-shards" / "ilse-marrow-shard-07.yaml").unlink()
    codes = {d.code for d in findings(check(tree / "content"))}
    assert "DM251" in codes  # shard 7 is missing


def test_new_wanderer_fits_the_real_corpus(tree: Path) -> None:
    """Next to the base game's round trackers and terrors, the new wanderer is still clean."""
    shutil.copytree(REPO / "content" / "dawn-of-madness", tree / "content" / "dawn-of-madness")
    new(tree, "wanderer", "ilse-marrow")
    folder = tree / "content" / "wanderers" / "ilse-marrow"
    assert findings(check(folder)) == []


def test_new_files_are_formatted_commented_and_carry_modelines(tree: Path) -> None:
    order = KeyOrder(SCHEMAS)
    for path in new(tree, "wanderer", "Ilse Marrow"):
        text = path.read_text(encoding="utf-8")
        assert format_text(text, order=order) == text, path
        assert "# TODO:" in text, path
        document = read_document(path).document
        assert document is not None and document.modeline is not None
        schema = (path.parent / document.modeline).resolve()
        assert schema == (SCHEMAS / f"{document.data['kind']}.schema.json").resolve()
        assert document.modeline.startswith("../")  # relative, as editors expect


def test_never_overwrites_an_existing_file(tree: Path) -> None:
    new(tree, "wanderer", "Ilse Marrow")
    wanderer = tree / "content" / "wanderers" / "ilse-marrow" / "wanderer.yaml"
    wanderer.write_text(wanderer.read_text(encoding="utf-8") + "# my own notes\n",
                        encoding="utf-8")
    with pytest.raises(UsageError, match="never replaces a file") as refused:
        new(tree, "wanderer", "Ilse Marrow")
    assert "--force" not in str(refused.value)
    assert "# my own notes" in wanderer.read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", sorted(CARD_KINDS))
def test_new_card_of_each_kind(tree: Path, kind: str) -> None:
    new(tree, "wanderer", "Ilse Marrow")
    touched = new(tree, "card", f"Brass {kind}", card_kind=kind, wanderer="ilse-marrow",
                  ending="C")
    card = tree / "content" / "wanderers" / "ilse-marrow" / CARD_KINDS[kind].folder / (
        f"brass-{kind}.yaml")
    assert card in touched
    document = read_document(card).document
    assert document is not None and document.data["kind"] == kind
    left = [(d.code, Path(d.location.path).name) for d in findings(check(tree / "content"))]
    # A coda nothing awards is worth a warning until the storybook awards it.
    assert left == ([("DM309", card.name)] if kind == "coda" else [])
    wanderer = read_document(card.parent.parent / "wanderer.yaml").document
    assert wanderer is not None
    for parts in CARD_KINDS[kind].lists:
        listed = wanderer.data
        for part in parts:
            listed = listed[part]
        assert f"brass-{kind}" in listed


def test_new_card_keeps_the_comments_of_the_files_it_updates(tree: Path) -> None:
    new(tree, "wanderer", "Ilse Marrow")
    wanderer = tree / "content" / "wanderers" / "ilse-marrow" / "wanderer.yaml"
    before = [line.strip() for line in wanderer.read_text(encoding="utf-8").splitlines()
              if line.lstrip().startswith("#")]
    new(tree, "card", "Old Key", card_kind="domain-card", wanderer="ilse-marrow")
    text = wanderer.read_text(encoding="utf-8")
    after = [line.strip() for line in text.splitlines() if line.lstrip().startswith("#")]
    assert after == before
    assert "locked: [old-key]  # locked cards are also listed in forgotten_envelope" in text


def test_new_storybook_replaces_and_relinks(tree: Path) -> None:
    new(tree, "wanderer", "Ilse Marrow")
    folder = tree / "content" / "wanderers" / "ilse-marrow"
    with pytest.raises(UsageError, match=r"storybook\.yaml already exist"):
        new(tree, "storybook", "The Salt Road", wanderer="ilse-marrow")
    (folder / "storybook.yaml").unlink()  # the author moves the old one away first
    touched = new(tree, "storybook", "The Salt Road", wanderer="ilse-marrow")
    assert folder / "wanderer.yaml" in touched
    wanderer = read_document(folder / "wanderer.yaml").document
    assert wanderer is not None and wanderer.data["storybook"] == "the-salt-road"
    assert findings(check(tree / "content")) == []


def _expansion(tree: Path, name: str) -> Path:
    """A copy of a real expansion folder (its modelines still resolve through schemas/)."""
    folder = tree / "content" / "deep-madness" / name
    shutil.copytree(REPO / "content" / "deep-madness" / name, folder)
    return folder


def test_new_chapter(tree: Path) -> None:
    folder = _expansion(tree, "madness-reborn")
    before = {p.name for p in (folder / "chapters").glob("*.yaml")}
    touched = new(tree, "chapter", "The Long Night", expansion="madness-reborn")
    created = [p for p in touched if p.parent.name == "chapters"]
    assert len(created) == 1 and created[0].name == f"{len(before) + 1}-the-long-night.yaml"
    assert findings(check(created[0]), within=created[0].resolve()) == []


def test_new_chapter_joins_its_campaign(tree: Path) -> None:
    folder = _expansion(tree, "rise-of-dagon")
    touched = new(tree, "chapter", "The Long Night", expansion="rise-of-dagon")
    campaign = folder / "campaign.yaml"
    assert campaign in touched
    document = read_document(campaign).document
    assert document is not None
    assert document.data["chapters"][-1] == {"chapter": "the-long-night"}
    assert "keeps" in document.data["chapters"][-2]
    report = check(tree / "content")
    mine = [d for d in findings(report) if Path(d.location.path).name in (
        "campaign.yaml", touched[0].name)]
    assert mine == []


def test_templates_refuse_unfilled_holes() -> None:
    from dmtool.authoring.templates import TemplateError, fill

    assert fill("id: <<id>>  # <<note_2>>", id="x", note_2="y") == "id: x  # y"
    with pytest.raises(TemplateError):
        fill("id: <<id>>")
    with pytest.raises(TemplateError):
        fill("id: <<Id>>")


@pytest.mark.parametrize(("options", "message"), [
    ({"what": "card", "name": "x", "card_kind": "world-shard", "wanderer": "w"}, "new wanderer"),
    ({"what": "card", "name": "x", "card_kind": "coda"}, "--wanderer"),
    ({"what": "card", "name": "x", "card_kind": "coda", "wanderer": "nobody"}, "no wanderer"),
    ({"what": "wanderer", "name": "!!!"}, "makes no id"),
    ({"what": "chapter", "name": "x"}, "--expansion"),
    ({"what": "chapter", "name": "x", "expansion": "nowhere"}, "no expansion folder"),
    ({"what": "poem", "name": "x"}, "choose one of"),
])
def test_usage_errors(tree: Path, options: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        run_new(NewOptions(directory=tree / "content" / "wanderers",
                           schema_dir=tree / "schemas", **options))  # type: ignore[arg-type]
    assert not any((tree / "content" / "wanderers").iterdir())


def test_new_command_when_wired(tree: Path) -> None:
    import subprocess
    import sys

    import click
    from click.testing import CliRunner

    from dmtool.cli import cli

    if "new" not in cli.commands:
        pytest.skip("dmtool new is not wired into dmtool/cli.py yet")
    group = cli.commands["new"]
    assert isinstance(group, click.Group)
    kinds = next(p for p in group.commands["card"].params if p.name == "kind")
    assert sorted(kinds.type.choices) == sorted(CARD_KINDS)  # type: ignore[attr-defined]
    where = tree / "content" / "wanderers"
    result = CliRunner().invoke(cli, ["new", "wanderer", "Ilse Marrow", "--dir", str(where)])
    assert result.exit_code == 0, result.output
    assert (where / "ilse-marrow" / "wanderer.yaml").is_file()
    again = subprocess.run([sys.executable, "-m", "dmtool.cli", "new", "wanderer", "Ilse Marrow",
                            "--dir", str(where)], capture_output=True, text=True, check=False)
    assert again.returncode == 2 and "never replaces a file" in again.stderr
    assert "--force" not in again.stderr
    forced = CliRunner().invoke(cli, ["new", "wanderer", "Ilse Marrow", "--dir", str(where),
                                      "--force"])
    assert forced.exit_code == 2 and "even with --force" in forced.output

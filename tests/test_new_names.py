"""`dmtool new` writes names as YAML strings: awkward names are quoted and read back equal,
and names too long for a file name get a shorter id with the whole name kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from new_support import empty_project, new

from dmtool.authoring.scaffold import display_name
from dmtool.loading import read_document
from dmtool.validation.pipeline import CheckOptions, run_check

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "schemas"

AWKWARD_NAMES = [
    "Foo #bar", "Foo: bar", "Ann's Lantern", 'The "Quiet" One', "Line\nBreak", "- Dash First",
    "? Question", "* Star", "& Ampersand", "! Bang", "% Percent", "@ At", "`Backtick`",
    "Mârrow Élan", "Œdipa Ωmega", "שלום עולם", "مرحبا بالعالم", "Ilse שלום", "yes", "null",
    "123", "a: b: c", "[Bracketed]", "{Braced}", "Comma, Separated", "Tab\tInside",
    "Back\\slash", "Ends with colon:", "#hash-first", "|pipe", ">folded", "'single",
]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return empty_project(tmp_path)


def _data(path: Path) -> dict[str, object]:
    loaded = read_document(path)
    assert loaded.document is not None, loaded.diagnostics
    return loaded.document.data  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_awkward_wanderer_names_read_back_equal(tree: Path, name: str) -> None:
    created = new(tree, "wanderer", name)
    wanderer = next(p for p in created if p.name == "wanderer.yaml")
    data = _data(wanderer)
    shown = display_name(name)  # an id-like name ('yes', 'null') is title-cased, as before
    assert data["name"] == shown and (shown == name or name == name.lower())
    assert data["description"] == f"{shown} has not been written yet."
    malformation = next(p for p in created if p.parent.name == "malformations")
    assert _data(malformation)["name"] == f"Malformation 1 of {shown}"
    card = new(tree, "card", name, card_kind="coda", wanderer=str(data["id"]))[0]
    assert _data(card)["title"] == shown
    report = run_check(CheckOptions(paths=(tree / "content",), schema_dir=SCHEMAS))
    assert [d for d in report.diagnostics if d.severity.value == "error"] == []


def test_names_too_long_for_a_file_name_get_a_short_id(tree: Path) -> None:
    name = "The " + "Very " * 60 + "Long Wanderer"  # over 300 characters
    created = new(tree, "wanderer", name)
    wanderer = next(p for p in created if p.name == "wanderer.yaml")
    data = _data(wanderer)
    assert data["name"] == name  # the whole name, in the document
    assert len(str(data["id"])) <= 65 and str(data["id"]).startswith("the-very-very")
    assert max(len(p.name) for p in created) < 100
    other = new(tree, "wanderer", name.replace("Long", "Tall"))
    assert other and other[0].parent != wanderer.parent  # two long names, two ids
    report = run_check(CheckOptions(paths=(tree / "content",), schema_dir=SCHEMAS))
    assert [d for d in report.diagnostics if d.severity.value == "error"] == []


def test_the_command_line_takes_the_issue_names(tree: Path) -> None:
    """The reproductions of the issue, as typed: `#` used to cut the name, `: ` and quotes
    used to end in 'internal error: FormatError'."""
    env = dict(os.environ)
    names = ["Foo #bar", "Baz: qux", 'Say "hi"', "A\nB", "L" + "o" * 299]
    for name in names:
        done = subprocess.run([sys.executable, "-m", "dmtool.cli", "new", "wanderer", name,
                               "--dir", "content/wanderers"], cwd=tree, env=env,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert "internal error" not in done.stderr
    assert sorted(str(_data(p)["name"]) for p in (tree / "content" / "wanderers").glob(
        "*/wanderer.yaml")) == sorted(names)

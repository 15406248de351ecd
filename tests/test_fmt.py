"""`dmtool fmt`: canonical layout, idempotence, comments kept, --check, content/ formatted."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dmtool.authoring import FmtOptions, FormatError, format_text, run_fmt
from dmtool.authoring.keyorder import KeyOrder
from dmtool.loading import load_text
from dmtool.validation.pipeline import CheckOptions, run_check
from dmtool.writing import files

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "schemas"
CONTENT = REPO / "content"
ORDER = KeyOrder(SCHEMAS)


def fmt(text: str, order: KeyOrder = ORDER) -> str:
    return format_text(text, order=order)


@pytest.fixture
def thing_order(tmp_path: Path) -> KeyOrder:
    """Key order from a small private schema, so these tests do not follow content schemas."""
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    schema = {
        "$id": "thing.schema.json",
        "type": "object",
        "properties": {
            "kind": {"const": "thing"}, "id": {"type": "string"}, "title": {"type": "string"},
            "parts": {"type": "array", "items": {"$ref": "#/$defs/part"}},
            "notes": {"type": "string"},
        },
        "$defs": {"part": {"type": "object", "properties": {
            "name": {"type": "string"}, "size": {"type": "integer"}}}},
    }
    (schemas / "thing.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    return KeyOrder(schemas)


MESSY = """\
# a header comment
# yaml-language-server: $schema=../schemas/thing.schema.json
notes:   "plain enough"
title: 'Thing One'     # the title
id:    thing-one
kind: thing



parts:
    # the first part
    -   size: 3
        name: "Left"
    - {size:   4,   name: Right}
extra: keeps its place   # unknown keys go last
"""

CANONICAL = """\
# yaml-language-server: $schema=../schemas/thing.schema.json
# a header comment
kind: thing
id: thing-one
title: Thing One  # the title

parts:
  # the first part
  - name: Left
    size: 3
  - {name: Right, size: 4}
notes: plain enough
extra: keeps its place  # unknown keys go last
"""


def test_canonical_layout(thing_order: KeyOrder) -> None:
    assert fmt(MESSY, thing_order) == CANONICAL
    assert fmt(CANONICAL, thing_order) == CANONICAL


@pytest.mark.parametrize(("value", "written"), [
    ("plain words", "plain words"),
    ("yes", "'yes'"),  # a boolean in YAML 1.1
    ("12", "'12'"),
    ("true", "'true'"),
    ("null", "'null'"),
    ("2024-01-01", "'2024-01-01'"),
    ("", "''"),
    ("a: b", "'a: b'"),
    ("#hash", "'#hash'"),
    (" padded", "' padded'"),
    ("it's: odd", '"it\'s: odd"'),
    ("two\nlines", '"two\\nlines"'),
    ("tab\there", '"tab\\there"'),
    ("Émile — über", "Émile — über"),
])
def test_strings_are_quoted_only_when_needed(value: str, written: str) -> None:
    text = fmt("key: " + json.dumps(value, ensure_ascii=False) + "\n")
    assert text == f"key: {written}\n"
    loaded = load_text(text).document
    assert loaded is not None and loaded.data == {"key": value}


def test_scalars_other_than_strings() -> None:
    text = "a: True\nb: ~\nc:\nd: 0x1F\ne: 1.50\n"
    assert fmt(text) == "a: true\nb: null\nc:\nd: 0x1F\ne: 1.50\n"


def test_block_scalars_keep_style_and_are_reindented() -> None:
    text = ("a:\n    b: |-\n            kept\n              indented\n"
            "    c: >+\n       folded\n       line\n\n")
    assert fmt(text) == "a:\n  b: |-\n    kept\n      indented\n  c: >+\n    folded\n    line\n\n"
    leading = "x: |2\n     starts indented\n   back\n"
    assert fmt(leading) == "x: |2\n     starts indented\n   back\n"


def test_flow_collections_fit_the_width_or_become_block() -> None:
    assert fmt("a: {  b: [1,2 ,3],c: x }\n") == "a: {b: [1, 2, 3], c: x}\n"
    long = "a: [" + ", ".join(f"item-number-{n}" for n in range(12)) + "]\n"
    out = fmt(long)
    assert out.startswith("a:\n  - item-number-0\n  - item-number-1\n")
    assert max(map(len, out.splitlines())) <= 100
    # Every part fits, the whole does not (the last, empty one tips it over): block style.
    tipping = "k: {a: " + "x" * 86 + ", e: []}\n"  # 101 columns
    assert fmt(tipping) == "k:\n  a: " + "x" * 86 + "\n  e: []\n"
    exact = "k: {a: " + "x" * 92 + "}\n"  # 100 columns: stays on one line
    assert fmt(exact) == exact and fmt(exact.replace("x}", "xx}")).startswith("k:\n  a: ")


def test_text_hygiene() -> None:
    raw = "\ufeffkey: value   \r\nother: 1\r\n\r\n\r\n\r\nlast: 2"
    assert fmt(raw) == "key: value\nother: 1\n\nlast: 2\n"


COMMENTED = """\
# c1 header
# yaml-language-server: $schema=../../../schemas/storybook.schema.json
title: A Book  # c2
# c3 about id
id: a-book
kind: storybook
entries:  # c4
  # c5 before the first entry
  - entry: 1  # c6
    title: One
    effects: [  # c7
      {end: event},  # c8
      # c9 inside a flow list
      ]
    # c10 closes entry 1

  # c11 before entry 2
  - entry: 2
    text: |  # c12
      # not a comment: block scalar content
    effects:
      - goto: 1
        # c13 deep
# c14 trailer
"""


def _markers(text: str) -> Counter[str]:
    return Counter(re.findall(r"# (c\d+)\b", text))


def test_every_comment_survives_and_travels_with_its_key() -> None:
    out = fmt(COMMENTED)
    assert _markers(out) == _markers(COMMENTED) == Counter(f"c{n}" for n in range(1, 15))
    assert "# not a comment: block scalar content" in out
    lines = out.splitlines()
    assert lines[0].startswith("# yaml-language-server:")
    assert lines[lines.index("id: a-book") - 1] == "# c3 about id"  # moved with 'id'
    assert lines.index("kind: storybook") < lines.index("id: a-book")
    assert fmt(out) == out


def test_refuses_what_it_cannot_keep() -> None:
    with pytest.raises(FormatError, match="anchors"):
        fmt("a: &x 1\n")
    with pytest.raises(FormatError, match="separators"):
        fmt("a: 'x\u2028y'\n")


# -- idempotence on generated documents ------------------------------------------

TRICKY = ["yes", "no", "on", "1", "1.5", "true", "null", "~", "", " lead", "trail ", "a: b",
          "a #b", "#x", "- x", "it's", 'say "hi"', "multi\nline", "tab\there", "é ü — x",
          "[x]", "{y}", "x,y", "?q", ":c", "2024-01-01", "0o17", "1_000", "@at", "`tick",
          "%pct", "*star", "!bang", "|pipe", ">gt", "back\\slash", "line\n\nbreaks\n",
          "trailing newline\n", "  indented\nblock", "x" * 120]
_KEYS = st.sampled_from(["kind", "id", "title", "text", "effects", "goto", "a", "b", "entry",
                         "yes", "1", "x y", "k: v"])
_TEXT = st.text(st.characters(exclude_characters="\x85\u2028\u2029"), max_size=30)
_SCALARS = st.one_of(st.sampled_from(TRICKY), _TEXT, st.integers(-10**6, 10**6),
                     st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False))
_DATA = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)), max_leaves=25)
_DOCS = st.dictionaries(_KEYS, _DATA, min_size=1, max_size=6)


def _dump(value: object, *, flow: bool | None, layout: tuple[int, int, int], width: int) -> str:
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.default_flow_style = flow
    yaml.indent(mapping=layout[0], sequence=layout[1], offset=layout[2])
    yaml.width = width
    out = io.StringIO()
    yaml.dump(value, out)
    return out.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=_DOCS, flow=st.sampled_from([False, None, True]),
       layout=st.sampled_from([(2, 4, 2), (2, 2, 0), (4, 6, 4), (3, 5, 2)]),
       width=st.sampled_from([20, 80, 1000]),
       comments=st.lists(st.tuples(st.integers(0, 60), st.booleans(), st.integers(0, 8)),
                         max_size=8))
def test_formatting_twice_changes_nothing(doc: dict[str, object], flow: bool | None,
                                          layout: tuple[int, int, int], width: int,
                                          comments: list[tuple[int, bool, int]]) -> None:
    lines = _dump(doc, flow=flow, layout=layout, width=width).split("\n")
    for n, (where, at_end, column) in enumerate(comments):
        if where < len(lines):
            if at_end and lines[where].strip():
                lines[where] += f"  # e{n}"
            elif not at_end:
                lines.insert(where, " " * column + f"# h{n}")
    text = "\n".join(lines)
    before = load_text(text).document
    assume(before is not None)
    once = fmt(text)
    assert fmt(once) == once
    after = load_text(once).document
    assert after is not None and after.data == before.data
    assert Counter(re.findall(r"#[eh]\d+", once)) == Counter(re.findall(r"#[eh]\d+", text))


# -- run_fmt ---------------------------------------------------------------------

def test_check_reports_a_diff_and_never_writes(tmp_path: Path) -> None:
    messy = tmp_path / "messy.yaml"
    messy.write_text("b:   1\na: [1,2]\n", encoding="utf-8")
    tidy = tmp_path / "tidy.yaml"
    tidy.write_text("a: 1\n", encoding="utf-8")
    result = run_fmt(FmtOptions(paths=(tmp_path,), check=True))
    assert result.exit_code == 1
    assert [Path(p).name for p in result.changed] == ["messy.yaml"]
    assert len(result.diffs) == 1 and "-a: [1,2]" in result.diffs[0]
    assert "+a: [1, 2]" in result.diffs[0]
    assert messy.read_text(encoding="utf-8") == "b:   1\na: [1,2]\n"
    assert "would reformat" in result.summary()
    diff_only = run_fmt(FmtOptions(paths=(tmp_path,), diff=True))
    assert diff_only.exit_code == 0 and diff_only.diffs == result.diffs
    assert messy.read_text(encoding="utf-8") == "b:   1\na: [1,2]\n"


def test_format_writes_then_has_nothing_left_to_do(tmp_path: Path) -> None:
    path = tmp_path / "file.yaml"
    path.write_text("b:   1\na: [1,2]\n", encoding="utf-8")
    first = run_fmt(FmtOptions(paths=(path,)))
    assert first.exit_code == 0 and first.wrote and len(first.changed) == 1
    assert path.read_text(encoding="utf-8") == "b: 1\na: [1, 2]\n"
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write cleaned up after itself
    again = run_fmt(FmtOptions(paths=(path,), check=True))
    assert again.exit_code == 0 and again.changed == [] and again.diffs == []


def test_a_save_made_while_the_new_bytes_are_synced_is_kept_and_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: "a save that lands while the fsync is slow is lost, and fmt reports
    '1 file(s) reformatted'". The editor's save is made inside the sync of the new bytes,
    the moment between fmt's first comparison and its rename."""
    path = tmp_path / "file.yaml"
    path.write_text("b:   1\na: [1,2]\n", encoding="utf-8")
    other = tmp_path / "other.yaml"
    other.write_text("c:   3\n", encoding="utf-8")
    saved = "b: 1\na: [1, 2]\nc: the author's late edit\n"
    real_fsync = files.os.fsync
    syncs: list[int] = []

    def slow_sync(fd: int) -> None:
        syncs.append(fd)
        if len(syncs) == 1:  # the first sync: file.yaml's new bytes
            path.write_text(saved, encoding="utf-8")  # the editor saves meanwhile
        real_fsync(fd)

    monkeypatch.setattr(files.os, "fsync", slow_sync)
    result = run_fmt(FmtOptions(paths=(path, other)))
    assert path.read_text(encoding="utf-8") == saved
    assert other.read_text(encoding="utf-8") == "c: 3\n"  # the other file still formatted
    assert [Path(p).name for p in result.changed] == ["other.yaml"]
    assert [Path(s.display).name for s in result.skipped] == ["file.yaml"]
    assert "changed while" in result.skipped[0].reason
    assert result.exit_code == 1
    assert "1 file(s) reformatted, 0 already formatted, 1 left untouched." in result.summary()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_files_that_do_not_load_are_reported_and_left_alone(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: 1\na: 2\n", encoding="utf-8")
    anchored = tmp_path / "anchored.yaml"
    anchored.write_text("a:   &x 1\n", encoding="utf-8")
    result = run_fmt(FmtOptions(paths=(tmp_path,)))
    assert result.exit_code == 1
    assert {d.code for d in result.problems} >= {"DM002"}
    assert broken.read_text(encoding="utf-8") == "a: 1\na: 2\n"
    assert anchored.read_text(encoding="utf-8") == "a:   &x 1\n"


# -- the repository's own content ---------------------------------------------------

def test_all_of_content_is_formatted() -> None:
    result = run_fmt(FmtOptions(paths=(CONTENT,), check=True))
    assert not result.skipped, result.summary()
    if result.changed:
        pytest.fail("these content files are not in canonical layout; run 'dmtool fmt "
                    "content/':\n" + "\n".join(result.changed), pytrace=False)


def test_formatted_content_checks_the_same(tmp_path: Path) -> None:
    """Formatting never changes what `dmtool check` finds, only where lines are."""
    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    (tmp_path / "schemas").symlink_to(SCHEMAS)
    before = run_check(CheckOptions(paths=(copy,)))
    run_fmt(FmtOptions(paths=(copy,)))
    after = run_check(CheckOptions(paths=(copy,)))

    def findings(report: object) -> Counter[tuple[str, str, str]]:
        return Counter((d.code, d.severity.value, d.location.path)
                       for d in report.diagnostics)  # type: ignore[attr-defined]

    assert findings(after) == findings(before)


def test_fmt_command_when_wired(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from dmtool.cli import cli

    if "fmt" not in cli.commands:
        pytest.skip("dmtool fmt is not wired into dmtool/cli.py yet")
    path = tmp_path / "file.yaml"
    path.write_text("b:   1\n", encoding="utf-8")
    checked = CliRunner().invoke(cli, ["fmt", "--check", str(path)])
    assert checked.exit_code == 1 and "+b: 1" in checked.output
    assert path.read_text(encoding="utf-8") == "b:   1\n"
    written = CliRunner().invoke(cli, ["fmt", str(path)])
    assert written.exit_code == 0 and path.read_text(encoding="utf-8") == "b: 1\n"

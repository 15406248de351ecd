"""The YAML loader: data in YAML 1.2 terms, and every refusal located exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.loading import load_text, read_document
from dmtool.loading.builder import MAX_DEPTH, MAX_PROBLEMS


def refusal(text: str) -> list[tuple[str, int, int]]:
    result = load_text(text, display="f.yaml")
    assert result.document is None
    assert result.diagnostics, "a refused document must say why"
    return [(d.code, d.location.line, d.location.column) for d in result.diagnostics]


def data(text: str) -> object:
    result = load_text(text, display="f.yaml")
    assert result.diagnostics == []
    assert result.document is not None
    return result.document.data


# ---- data: YAML 1.2 core schema, plain JSON types ------------------------------------

@pytest.mark.parametrize(("plain", "value"), [
    ("no", "no"), ("yes", "yes"), ("on", "on"), ("off", "off"), ("y", "y"),
    ("2024-01-01", "2024-01-01"), ("1_000", "1_000"), ("12:30", "12:30"),
    ("0o17", 15), ("0x1F", 31), ("017", 17), ("-4", -4), ("+4", 4),
    ("1.5", 1.5), (".5", 0.5), ("1e3", 1000.0), ("-1.5E-2", -0.015),
    ("true", True), ("False", False), ("TRUE", True),
    ("null", None), ("~", None), ("", None), ("NULL", None),
    ("0b101", "0b101"), ("0x", "0x"), ("Yes please", "Yes please"),
])
def test_plain_scalars_follow_the_yaml_1_2_core_schema(plain: str, value: object) -> None:
    loaded = data(f"value: {plain}\n")
    assert loaded == {"value": value}
    assert type(loaded["value"]) is type(value)  # type: ignore[index]


def test_quoted_and_block_scalars_are_always_strings() -> None:
    assert data("a: '1'\nb: \"true\"\nc: |\n  12\nd: >-\n  null\n") == {
        "a": "1", "b": "true", "c": "12\n", "d": "null"}


def test_integer_keys_become_their_decimal_string() -> None:
    assert data("labels: {4: Penitent Sorrow, 0x10: Start}\n") == {
        "labels": {"4": "Penitent Sorrow", "16": "Start"}}


def test_a_utf8_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfkind: coda\n")
    loaded = read_document(path)
    assert loaded.diagnostics == []
    assert loaded.document is not None and loaded.document.data == {"kind": "coda"}


def test_text_without_a_final_newline_and_crlf_line_ends_load() -> None:
    # Without a final line break there is no break for clip chomping to keep (YAML 1.2).
    assert data("a: 1\r\nb: |\r\n  x\r\n  y") == {"a": 1, "b": "x\ny"}


# ---- modeline -------------------------------------------------------------------------

def test_modeline_is_read_from_the_leading_comments() -> None:
    text = "# a note\n\n# yaml-language-server: $schema=../schemas/coda.schema.json\nkind: coda\n"
    document = load_text(text).document
    assert document is not None
    assert document.modeline == "../schemas/coda.schema.json"
    assert document.modeline_line == 3


def test_a_modeline_after_the_first_key_does_not_count() -> None:
    document = load_text("kind: coda\n# yaml-language-server: $schema=x.json\n").document
    assert document is not None and document.modeline is None


# ---- positions ------------------------------------------------------------------------

POSITIONED = """\
kind: storybook
entries:
  - entry: 12
    effects:
      - goto: 243
      - test: {roll: {green: [eye]}, pass: [{goto: 7}]}
"""


@pytest.mark.parametrize(("parts", "key", "where"), [
    ((), False, (1, 1)),
    (("kind",), False, (1, 7)),
    (("kind",), True, (1, 1)),
    (("entries",), False, (3, 3)),
    (("entries",), True, (2, 1)),
    (("entries", 0), False, (3, 5)),
    (("entries", 0), True, (3, 5)),  # list items have no key: the item itself
    (("entries", 0, "effects", 0, "goto"), False, (5, 15)),
    (("entries", 0, "effects", 0, "goto"), True, (5, 9)),
    (("entries", 0, "effects", 1, "test", "roll", "green", 0), False, (6, 31)),
    (("entries", 0, "effects", 1, "test", "pass", 0, "goto"), True, (6, 46)),
    # Missing members fall back to the nearest ancestor (its key when key=True).
    (("entries", 0, "title"), False, (3, 5)),
    (("entries", 0, "effects", 9), False, (5, 7)),
    (("entries", 0, "effects", 0, "missing"), True, (5, 9)),
    (("nothing", "here"), False, (1, 1)),
])
def test_locate_gives_value_and_key_positions(
    parts: tuple[str | int, ...], key: bool, where: tuple[int, int]
) -> None:
    document = load_text(POSITIONED, display="s.yaml").document
    assert document is not None
    location = document.locate(parts, key=key)
    assert (location.line, location.column) == where
    assert location.path == "s.yaml"


def test_locate_gives_a_json_pointer_and_accepts_int_parts_for_number_keys() -> None:
    document = load_text("labels:\n  4: Start\n  a/b~: x\n").document
    assert document is not None
    assert document.locate(("labels", 4), key=True).line == 2
    assert document.locate(("labels", "a/b~")).pointer == "/labels/a~1b~0"


def test_positions_count_characters_not_bytes() -> None:
    document = load_text("tïtlé: «x»\nnext: [é, ü]\n").document
    assert document is not None
    assert (document.locate(("tïtlé",)).column, document.locate(("next", 1)).column) == (8, 11)


# ---- refusals -------------------------------------------------------------------------

def test_dm001_syntax_error_points_where_the_parser_stopped() -> None:
    assert refusal("kind: coda\ntitle: a: b\n") == [("DM001", 2, 9)]
    # A bracket closed on a later line (its lines indented under it) is not left open:
    # the error stays where the parser stopped, the bracket is related.
    (closed,) = load_text("kind: coda\noptions: [a,\n  b c: d: e]\n").diagnostics
    assert (closed.location.line, closed.location.column) == (3, 9)
    assert [(r.line, r.column) for r in closed.related] == [(2, 10)]


@pytest.mark.parametrize(("text", "where", "closer"), [
    ("kind: coda\ntitle: [unclosed\nid: x\n", (2, 8), "]"),
    ("kind: storybook\nentries:\n  - entry: 1\n    effects:\n"
     "      - spawn_terror: {terror: random, count: 1\n      - spawn_encounter: {card: x}\n",
     (5, 23), "}"),
])
def test_dm001_an_unclosed_bracket_is_reported_where_it_opens(
        text: str, where: tuple[int, int], closer: str) -> None:
    # The parser stops on a later line, at the first ':' it cannot read as flow text; the
    # author's slip is the bracket left open, so that is where the error stands, and the
    # hint about quoting '?' and ':' (which is about a different slip) is not given.
    (diagnostic,) = load_text(text).diagnostics
    assert (diagnostic.code, diagnostic.location.line, diagnostic.location.column) == (
        "DM001", *where)
    assert "never closed" in diagnostic.message
    assert diagnostic.hint is not None and f"'{closer}'" in diagnostic.hint
    assert "quotes" not in diagnostic.hint


def test_dm001_over_indented_key_is_pointed_at_with_its_own_hint() -> None:
    # The parser stops at the colon; the mistake is the key's indentation.
    result = load_text("kind: coda\n  id: x\n")
    (diagnostic,) = result.diagnostics
    assert (diagnostic.location.line, diagnostic.location.column) == (2, 3)
    assert diagnostic.hint == ("'id' is indented further than the keys of its mapping, so YAML "
                               "reads it as part of the line above; line it up with 'kind' "
                               "(column 1)")
    # A value with ': ' in it is not an indentation slip: the quoting hint stays.
    quoted = load_text("kind: coda\ntitle: a: b\n").diagnostics[0]
    assert quoted.hint is not None and "must be quoted" in quoted.hint


def test_dm001_tab_indentation_gets_a_hint() -> None:
    result = load_text("kind: coda\nid:\n\t- x\n")
    (diagnostic,) = result.diagnostics
    assert (diagnostic.code, diagnostic.location.line, diagnostic.location.column) == (
        "DM001", 3, 1)
    assert diagnostic.hint is not None and "tabs" in diagnostic.hint


def test_dm001_control_character_is_located_by_character() -> None:
    assert refusal("ü: é\x01\n") == [("DM001", 1, 5)]


def test_dm002_duplicate_key_points_at_the_second_and_relates_the_first() -> None:
    result = load_text("entries:\n  - entry: 1\n    text: a\n    text: b\n", display="f.yaml")
    (diagnostic,) = result.diagnostics
    assert (diagnostic.code, diagnostic.location.line, diagnostic.location.column) == (
        "DM002", 4, 5)
    assert [(r.path, r.line, r.column) for r in diagnostic.related] == [("f.yaml", 3, 5)]


def test_dm002_a_number_key_and_its_quoted_twin_collide() -> None:
    assert refusal("4: a\n'4': b\n") == [("DM002", 2, 1)]


def test_dm003_anchors_and_aliases_are_refused_where_they_stand() -> None:
    assert refusal("a: &x [1, 2]\nb: *x\n") == [("DM003", 1, 4), ("DM003", 2, 4)]


def test_dm003_billion_laughs_is_refused_without_expansion() -> None:
    # Ten levels of ten aliases each: 10**9 strings if anything ever expanded it.
    lines = ["lol0: &lol0 [" + ",".join(['"lol"'] * 10) + "]"]
    for level in range(1, 10):
        lines.append(f"lol{level}: &lol{level} [" + ",".join([f"*lol{level - 1}"] * 10) + "]")
    bomb = "\n".join(lines) + "\n"
    assert 700 < len(bomb) < 1100
    codes = refusal(bomb)
    assert codes[0] == ("DM003", 1, 7)
    assert {code for code, _, _ in codes} == {"DM003"}
    assert len(codes) == MAX_PROBLEMS  # stops counting instead of listing every alias


def test_dm004_nesting_limit_counts_every_mapping_and_list() -> None:
    fits = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert data(fits) is not None
    too_deep = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    assert refusal(too_deep) == [("DM004", 1, 4 + MAX_DEPTH - 1)]


def test_dm004_very_deep_input_never_reaches_the_recursion_limit() -> None:
    assert refusal("[" * 200_000 + "]" * 200_000)[0] == ("DM004", 1, MAX_DEPTH + 1)
    assert refusal("- " * 5_000 + "x\n")[0][0] == "DM004"


def test_dm005_a_second_document_is_refused_at_its_start() -> None:
    assert refusal("kind: coda\n---\nkind: coda\n") == [("DM005", 2, 1)]
    assert refusal("a: 1\n...\n---\nb: 2\n") == [("DM005", 3, 1)]


@pytest.mark.parametrize("text", ["", "\n\n", "# only\n# comments\n", "---\n", "--- # c\n..."])
def test_dm006_empty_and_comment_only_files(text: str) -> None:
    assert refusal(text) == [("DM006", 1, 1)]


def test_explicit_null_document_is_data_not_empty() -> None:
    assert data("~\n") is None


@pytest.mark.parametrize(("text", "where"), [
    ("title: !!binary aGVsbG8=\n", (1, 8)),
    ("x:\n  - !custom 1\n", (2, 5)),
    ("x: ! 1\n", (1, 4)),
    ("x: !!map {a: 1}\n", (1, 4)),
])
def test_dm011_explicit_tags_are_refused(text: str, where: tuple[int, int]) -> None:
    assert refusal(text) == [("DM011", *where)]


@pytest.mark.parametrize(("text", "where"), [
    ("? [a, b]\n: c\n", (1, 3)),
    ("null: 1\n", (1, 1)),
    ("a:\n  true: 1\n", (2, 3)),
    ("1.5: x\n", (1, 1)),
    ("odds: .nan\n", (1, 7)),
    ("odds: [1, -.inf]\n", (1, 11)),
    ("n: 1e400\n", (1, 4)),
    ("n: " + "9" * 5000 + "\n", (1, 4)),
])
def test_dm012_values_json_cannot_hold(text: str, where: tuple[int, int]) -> None:
    assert refusal(text) == [("DM012", *where)]


def test_several_problems_in_one_file_are_all_reported_in_order() -> None:
    assert refusal("a: 1\na: 2\nb: *x\nc: !t 3\n") == [
        ("DM002", 2, 1), ("DM003", 3, 4), ("DM011", 4, 4)]


@pytest.mark.parametrize("code", ["DM001", "DM002", "DM003", "DM004", "DM005", "DM006",
                                  "DM011", "DM012", "DM020"])
def test_catalogue_examples_produce_their_code(code: str) -> None:
    from dmtool.diagnostics import catalogue

    assert code in {c for c, _, _ in refusal(catalogue()[code].example)}


@pytest.mark.parametrize("character", ["\x85", "\u2028", "\u2029"])
def test_dm020_unicode_line_separators_are_refused_where_they_stand(character: str) -> None:
    # libyaml splits lines at them (YAML 1.1); YAML 1.2 reads them as text.
    assert refusal(f"a: 1\ntitle: \"one{character}two\"\n") == [("DM020", 2, 12)]


def test_dm020_question_mark_glued_to_a_flow_key() -> None:
    assert refusal("labels: {?first: 1}\n") == [("DM020", 1, 10)]


@pytest.mark.parametrize(("text", "data"), [
    ("options: [Why?, Because]\n", {"options": ["Why?", "Because"]}),
    ("link: {url: http://x.org}\n", {"link": {"url": "http://x.org"}})])
def test_question_mark_or_colon_inside_flow_text_reads_as_yaml_1_2_does(
    text: str, data: object
) -> None:
    # libyaml refuses these (YAML 1.1); the pure parser reads them (test_loading_yaml12.py).
    document = load_text(text).document
    assert document is not None and document.data == data


# ---- stricter than libyaml (see strict.py for the rules and their YAML test suite cases) -

@pytest.mark.parametrize(("text", "where"), [
    ('key: "value"# note\n', (1, 13)),  # S1
    ("list: [a, b]#note\n", (1, 13)),
    ("list: [a,#note\n  b]\n", (1, 10)),
    ("block: ># note\n  text\n", (1, 9)),
    ("a:\n  b: [x,\n  y]\n", (3, 3)),  # S2
    ('quoted: "a\nb"\n', (2, 1)),
    ("- [\n\tfoo]\n", (2, 1)),
    ("empty: >\n \n  \n   \n # comment\n", (4, 1)),  # S3
    ("a: [-]\n", (1, 5)),  # S5
    ("a: [-, x]\n", (1, 5)),
])
def test_invalid_yaml_that_libyaml_accepts_is_refused(text: str, where: tuple[int, int]) -> None:
    assert refusal(text) == [("DM001", *where)]


@pytest.mark.parametrize(("text", "value"), [
    ('key: "value" # note\n', {"key": "value"}),
    ("key: a#b # C# note\n", {"key": "a#b"}),
    ("url: http://x.org/#part\n", {"url": "http://x.org/#part"}),
    ("list: [a#b, 'c']#\n".replace("#\n", " #\n"), {"list": ["a#b", "c"]}),
    ("a:\n  b: [x,\n     y]\n", {"a": {"b": ["x", "y"]}}),
    ('q: "a\n  b"\n', {"q": "a b"}),
    ("[x,\ny]\n", ["x", "y"]),
    ("text: |\n\n  x\n", {"text": "\nx\n"}),
    ("a: [-1, -x, x-]\n", {"a": [-1, "-x", "x-"]}),
    ("a: [? x : y]\n", {"a": [{"x": "y"}]}),
])
def test_valid_neighbours_of_the_strict_rules_still_load(text: str, value: object) -> None:
    assert data(text) == value

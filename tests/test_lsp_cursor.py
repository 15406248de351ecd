"""The cursor is placed in a YAML buffer by its layout alone, half-typed buffers included."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dmtool.lsp.cursor import cursor_at

STORY = """\
kind: storybook
setup:
  effects:
    - spawn_terror: {terror: the-tolling-deacon, shard: random}
entries:
  - entry: 1
    title: The Bell
    text: |
      Somewhere a bell.
      It rings: twice # not a comment
    effects:
      - if:
          when: {has_coda: the-wheel-turned}
          then:
            - goto: 11
      - test:
          roll: {green: [eye, sphere]}
  - entry: 2  # a comment
    effects:
      - got
      - goto:
"""


@pytest.mark.parametrize(("line", "column", "role", "path", "word"), [
    (0, 2, "key", ("kind",), "kind"),
    (3, 8, "key", ("setup", "effects", 0, "spawn_terror"), "spawn_terror"),
    (3, 24, "key", ("setup", "effects", 0, "spawn_terror", "terror"), "terror"),
    (3, 32, "value", ("setup", "effects", 0, "spawn_terror", "terror"), "the-tolling-deacon"),
    (3, 60, "value", ("setup", "effects", 0, "spawn_terror", "shard"), "random"),
    (5, 11, "value", ("entries", 0, "entry"), "1"),
    (6, 12, "value", ("entries", 0, "title"), "The Bell"),
    (9, 9, "prose", ("entries", 0, "text"), ""),
    (12, 30, "value", ("entries", 0, "effects", 0, "if", "when", "has_coda"), "the-wheel-turned"),
    (14, 20, "value", ("entries", 0, "effects", 0, "if", "then", 0, "goto"), "11"),
    (16, 32, "value", ("entries", 0, "effects", 1, "test", "roll", "green", 1), "sphere"),
    (17, 11, "value", ("entries", 1, "entry"), "2"),
    (19, 10, "value", ("entries", 1, "effects", 0), "got"),
    (20, 13, "value", ("entries", 1, "effects", 1, "goto"), ""),
])
def test_cursor_paths(line, column, role, path, word):
    cursor = cursor_at(STORY, line, column)
    assert (cursor.role, cursor.path, cursor.word) == (role, path, word)


def test_a_blank_line_is_a_new_key_of_the_mapping_at_its_column():
    text = STORY + "    \n"
    assert cursor_at(text, 21, 4).container == ("entries", 1)
    assert cursor_at(text, 21, 6).container == ("entries", 1, "effects")
    assert cursor_at(text, 21, 0).container == ()


def test_half_typed_flow_mapping():
    cursor = cursor_at("kind: coda\nwhen: {has_coda: \n", 1, 17)
    assert (cursor.role, cursor.path) == ("value", ("when", "has_coda"))


def test_check_does_not_import_the_language_server_libraries(tmp_path):
    watcher = ("import sys, atexit; atexit.register(lambda: print(sorted({m.split('.')[0] "
               "for m in sys.modules} & {'pygls', 'lsprotocol', 'watchfiles', 'dmtool'})))")
    run = subprocess.run([sys.executable, "-c", watcher + "; from dmtool.cli import main; "
                          "sys.argv = ['dmtool', 'check', '--no-cache', "
                          "'content/wanderers/hollis-brandt/codas/chalk-dust.yaml']; main()"],
                         capture_output=True, text=True, check=False)
    assert run.stdout.strip().splitlines()[-1] == "['dmtool']"


ROOT = Path(__file__).resolve().parents[1]
HOLLIS = ROOT / "content" / "wanderers" / "hollis-brandt" / "storybook.yaml"


def _variants() -> list[tuple[str, str]]:
    """The sample storybook as written and as authors leave it while typing: an open
    bracket, a line at one space, a tab, a block scalar whose lines reach the margin, a
    comment at the margin between entries, a key typed at the entries' own indent."""
    whole = HOLLIS.read_text(encoding="utf-8")
    # Its first 20 entries and what follows the entries (the endings): every line of it is
    # placed both ways, and reading from the top costs as many lines as there are above.
    starts = [found.start() + 1 for found in re.finditer(r"\n  - entry: ", whole)]
    ending = re.compile(r"\n(?=[^ \n#])").search(whole, starts[-1]).start() + 1
    text = whole[:starts[20]] + whole[ending:]
    middle, later = starts[8], starts[14]
    return [
        ("as written", text),
        ("open bracket", text[:middle] + "  - entry: 999\n    effects: [{goto: 12\n" + text[middle:]),
        ("one space", text[:middle] + " title: stray\n" + text[middle:]),
        ("tab", text[:middle] + "\ttitle: tabbed\n" + text[middle:]),
        ("margin comment", text[:middle] + "# the second half\n\n" + text[middle:]),
        ("key at the dash", text[:middle] + "  kind: finale\n" + text[middle:]),
        ("prose at the margin", text[:later] + "  - text: |\n  broken\n" + text[later:]),
        ("no entries key", text.replace("\nentries:\n", "\nentrees:\n", 1)),
    ]


@pytest.mark.parametrize(("name", "text"), _variants(), ids=[n for n, _t in _variants()])
def test_reading_from_the_cursors_entry_places_it_as_reading_from_the_top(name, text):
    # Every line, at its margin, its content's start, its middle and its end (and past it).
    for line, written in enumerate(text.split("\n")):
        start = len(written) - len(written.lstrip(" "))
        for column in sorted({0, start + 2, len(written) // 2, len(written) + 3}):
            assert cursor_at(text, line, column) == cursor_at(text, line, column, from_entry=False), (
                name, line, column, written)

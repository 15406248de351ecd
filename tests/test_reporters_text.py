"""The text reporter: headers, excerpts with carets, tabs, long lines, colour and summary."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dmtool.diagnostics import Location, Report, Severity, diagnose
from dmtool.errors import UsageError
from dmtool.reporters import FORMATS, render
from dmtool.reporters._common import char_width
from dmtool.reporters._excerpt import ELLIPSIS, MAX_WIDTH, excerpt

ANSI = re.compile(r"\x1b\[[0-9;]*m")
STORY = (
    "kind: storybook\n"
    "id: ashes\n"
    "entries:\n"
    "  - entry: 12\n"
    "    effects:\n"
    "      - goto: 999\n"
)


def text(report: Report, *, color: bool = False) -> str:
    return render(report, fmt="text", color=color, tool_version="9.9.9")


def report_with(*diagnostics, sources=None, files=1) -> Report:
    report = Report(files_checked=files, sources=dict(sources or {}))
    report.extend(list(diagnostics))
    return report


def goto_report() -> Report:
    broken = diagnose(
        "DM202",
        Location("book.yaml", 6, 15, "/entries/0/effects/0/goto", end_line=6, end_column=18),
        "Entry 12 links to entry 999, which does not exist; link to an existing entry.",
        hint="did you mean entry 99?",
        related=(Location("other.yaml", 3, 4, "/entries/2"),),
    )
    return report_with(broken, sources={"book.yaml": STORY}, files=2)


def test_block_has_header_excerpt_caret_hint_related_and_summary():
    assert text(goto_report()) == (
        "book.yaml:6:15: error DM202 Entry 12 links to entry 999, which does not exist; "
        "link to an existing entry.\n"
        "  |\n"
        "6 |       - goto: 999\n"
        "  |               ^^^\n"
        "  = hint: did you mean entry 99?\n"
        "  = related: other.yaml:3:4\n"
        "\n"
        "Found 1 error, 0 warnings, 0 infos in 2 files.\n"
    )


def test_caret_sits_under_the_column():
    lines = text(goto_report()).splitlines()
    source, caret = lines[2], lines[3]
    assert source[caret.index("^") :].startswith("999")


def test_without_colour_there_are_no_escape_codes_even_from_content():
    hostile = "kind: coda\nid: \x1b[31mred\x1b[0m\n"
    bad = diagnose("DM102", Location("x\x1b.yaml", 2, 5), "Unknown value \x1b[2J here.")
    out = text(report_with(bad, sources={"x\x1b.yaml": hostile}))
    assert "\x1b" not in out
    assert "\u241b[31mred" in out  # shown as a control picture instead


def test_colour_marks_severity_and_code_and_strips_back_to_plain():
    coloured = text(goto_report(), color=True)
    assert "\x1b[1;31merror\x1b[0m" in coloured
    assert "\x1b[1mDM202\x1b[0m" in coloured
    assert ANSI.sub("", coloured) == text(goto_report())


def test_warning_and_info_colours():
    report = report_with(
        diagnose("DM017", Location("a.yaml"), "Add a modeline."),
        diagnose("DM017", Location("b.yaml"), "Add a modeline.", severity=Severity.INFO),
    )
    coloured = text(report, color=True)
    assert "\x1b[1;33mwarning\x1b[0m" in coloured
    assert "\x1b[1;36minfo\x1b[0m" in coloured


def test_tabs_expand_and_the_caret_follows_them():
    source = "kind: coda\n\tkey:\tvalue\n"
    bad = diagnose("DM102", Location("t.yaml", 2, 7), "Remove the unknown property.")
    lines = text(report_with(bad, sources={"t.yaml": source})).splitlines()
    assert lines[2] == "2 |     key:    value"
    assert "\t" not in "\n".join(lines)
    assert lines[2][lines[3].index("^") :].startswith("value")


def test_tab_stops_depend_on_the_position():
    shown = excerpt("ab\tc", column=4)
    assert shown.text == "ab  c"
    assert shown.caret_start == 4


def test_wide_characters_take_two_columns():
    shown = excerpt("名前: x", column=5)
    assert shown.caret_start == 6  # two wide characters, ':' and ' '


def test_long_lines_are_cut_around_the_column():
    line = "a" * 500 + "TARGET" + "b" * 500
    bad = diagnose("DM001", Location("long.yaml", 1, 501, end_column=507), "Fix the syntax.")
    lines = text(report_with(bad, sources={"long.yaml": line + "\n"})).splitlines()
    shown, caret = lines[2], lines[3]
    body = shown[len("1 | ") :]
    assert body.startswith(ELLIPSIS) and body.endswith(ELLIPSIS)
    assert len(body) <= MAX_WIDTH + 2 * len(ELLIPSIS)
    start = caret.index("^")
    assert shown[start : start + 6] == "TARGET"
    assert caret.count("^") == 6


def test_start_and_end_of_a_long_line_keep_one_ellipsis():
    line = "x" * 300
    head = excerpt(line, column=1)
    tail = excerpt(line, column=300)
    assert not head.text.startswith(ELLIPSIS) and head.text.endswith(ELLIPSIS)
    assert head.caret_start == 0
    assert tail.text.startswith(ELLIPSIS) and not tail.text.endswith(ELLIPSIS)
    assert tail.text[tail.caret_start] == "x" and tail.caret_start == len(tail.text) - 1


def test_column_past_the_end_puts_the_caret_after_the_line():
    bad = diagnose("DM104", Location("a.yaml", 1, 80), "Add the missing 'id' property.")
    lines = text(report_with(bad, sources={"a.yaml": "kind: coda\n"})).splitlines()
    assert lines[2] == "1 | kind: coda"
    assert lines[3] == "  |" + " " * (1 + len("kind: coda")) + "^"


def test_line_past_the_end_or_unknown_source_shows_no_excerpt():
    report = report_with(
        diagnose("DM001", Location("a.yaml", 40, 1), "Close the bracket.", hint="add ']'"),
        diagnose("DM010", Location("gone.yaml"), "Check that the file exists."),
        sources={"a.yaml": "kind: coda\n"},
    )
    assert text(report).splitlines()[:4] == [
        "a.yaml:40:1: error DM001 Close the bracket.",
        "  = hint: add ']'",
        "",
        "gone.yaml:1:1: error DM010 Check that the file exists.",
    ]


def test_wide_gutter_aligns_the_notes():
    source = "\n" * 11 + "title: x\n"
    bad = diagnose("DM102", Location("a.yaml", 12, 1), "Remove it.", hint="did you mean 'name'?")
    lines = text(report_with(bad, sources={"a.yaml": source})).splitlines()
    assert lines[1:5] == ["   |", "12 | title: x", "   | ^", "   = hint: did you mean 'name'?"]


def test_multi_line_messages_indent_their_continuation():
    bad = diagnose("DM001", Location("a.yaml", 1, 1), "First line.\nSecond line.")
    lines = text(report_with(bad)).splitlines()
    assert lines[:2] == ["a.yaml:1:1: error DM001 First line.", "    Second line."]


def test_diagnostics_are_sorted_and_summarised():
    report = report_with(
        diagnose("DM202", Location("b.yaml", 1, 1), "Fix b."),
        diagnose("DM017", Location("a.yaml", 9, 1), "Fix a late."),
        diagnose("DM102", Location("a.yaml", 2, 1), "Fix a early."),
        diagnose("DM017", Location("c.yaml"), "Note.", severity=Severity.INFO),
        files=12,
    )
    out = text(report)
    headers = [line for line in out.splitlines() if re.match(r"^\S+:\d+:\d+: ", line)]
    assert [h.split(":")[0] + ":" + h.split(":")[1] for h in headers] == [
        "a.yaml:2", "a.yaml:9", "b.yaml:1", "c.yaml:1",
    ]
    assert out.endswith("Found 2 errors, 1 warning, 1 info in 12 files.\n")


def test_clean_report_passes():
    assert text(report_with(files=12)) == "All checks passed (12 files).\n"
    assert text(report_with(files=1)) == "All checks passed (1 file).\n"


def test_every_format_renders_and_unknown_ones_are_refused():
    for fmt in FORMATS:
        out = render(goto_report(), fmt=fmt, color=False, tool_version="1")
        assert out.endswith("\n")
    with pytest.raises(UsageError, match="text, json, github, sarif"):
        render(goto_report(), fmt="xml", color=False, tool_version="1")


def _at_display_offset(text: str, offset: int) -> str:
    """The rest of `text` from display column `offset` (wide characters count two)."""
    position = 0
    for index, ch in enumerate(text):
        if position >= offset:
            return text[index:]
        position += char_width(ch)
    return ""


@given(
    line=st.text(alphabet=st.sampled_from("ab \t名\x1b:"), max_size=400),
    column=st.integers(min_value=-3, max_value=420),
    span=st.integers(min_value=0, max_value=30),
)
def test_excerpt_always_shows_the_caret_on_its_character(line: str, column: int, span: int):
    shown = excerpt(line, column=column, end_column=column + span)
    assert "\t" not in shown.text and "\x1b" not in shown.text
    width = char_width(shown.text)
    assert width <= MAX_WIDTH + 2 * len(ELLIPSIS)
    assert shown.caret_width >= 1
    assert shown.caret_start + shown.caret_width <= width + 1
    index = min(max(column - 1, 0), len(line))
    if index < len(line) and line[index] in "ab名:":
        assert _at_display_offset(shown.text, shown.caret_start)[:1] == line[index]
    elif index == len(line):
        assert shown.caret_start == width  # just after the last character shown


def test_crlf_and_lone_cr_count_as_line_breaks():
    source = "kind: coda\r\nid: a\rtitle: T\r\n"
    bad = diagnose("DM102", Location("w.yaml", 3, 1), "Remove 'title'.")
    lines = text(report_with(bad, sources={"w.yaml": source})).splitlines()
    assert lines[2] == "3 | title: T"


_IMPORTS_OF_A_REPORT = """
import sys
from dmtool.diagnostics import Location, Report, diagnose
from dmtool.reporters import render
report = Report()
report.files_checked = 1
if sys.argv[1] == "finding":
    report.sources["a.yaml"] = "kind: storybook\\n"
    report.add(diagnose("DM202", Location("a.yaml", 1, 1), "bad"))
out = render(report, fmt="text", color=False, tool_version="0")
print("dmtool.reporters._excerpt" in sys.modules, "|" in out)
"""


@pytest.mark.parametrize(("case", "expected"), [("clean", "False False"), ("finding", "True True")])
def test_only_a_report_with_findings_loads_the_excerpts(case: str, expected: str) -> None:
    # A clean run (a one-file pre-commit check) prints the summary line alone.
    run = subprocess.run([sys.executable, "-c", _IMPORTS_OF_A_REPORT, case],
                         capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[0] == expected

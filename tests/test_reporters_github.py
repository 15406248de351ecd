"""The github reporter: workflow commands and their escaping."""

from __future__ import annotations

from dmtool.diagnostics import Location, Report, Severity, diagnose
from dmtool.reporters import render
from dmtool.reporters.github import escape_data, escape_property


def github(*diagnostics) -> str:
    report = Report(files_checked=1)
    report.extend(list(diagnostics))
    return render(report, fmt="github", color=True, tool_version="0.1.0")


def unescape(text: str) -> str:
    """What the Actions runner does to property values and messages."""
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, plain)
    return text


def parse(line: str) -> tuple[str, dict[str, str], str]:
    assert line.startswith("::")
    head, message = line[2:].split("::", 1)
    command, _, props = head.partition(" ")
    properties = dict(p.split("=", 1) for p in props.split(","))
    return command, {k: unescape(v) for k, v in properties.items()}, unescape(message)


def test_one_error_command():
    out = github(diagnose("DM202", Location("content/a.yaml", 4, 9), "Link to an entry."))
    assert out == (
        "::error file=content/a.yaml,line=4,col=9,"
        "title=DM202 Reference to something that does not exist::Link to an entry.\n"
    )


def test_severities_map_to_commands():
    out = github(
        diagnose("DM001", Location("a.yaml"), "e"),
        diagnose("DM017", Location("b.yaml"), "w"),
        diagnose("DM017", Location("c.yaml"), "i", severity=Severity.INFO),
    )
    assert [line.split(" ")[0] for line in out.splitlines()] == ["::error", "::warning", "::notice"]


def test_message_escaping():
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_data("a:b,c") == "a:b,c"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_paths_with_colons_commas_and_percent_survive():
    path = "content/odd: name, 50%.yaml"
    message = "Raise it to 100%.\nThen: check, again."
    out = github(diagnose("DM102", Location(path, 3, 2), message, hint="did you mean 'x'?"))
    assert out.count("\n") == 1  # a single workflow command, however many lines inside
    line = out.rstrip("\n")
    assert "file=content/odd%3A name%2C 50%25.yaml," in line
    command, props, text = parse(line)
    assert command == "error"
    assert props == {
        "file": path,
        "line": "3",
        "col": "2",
        "title": "DM102 Unknown property",
    }
    assert text == "Raise it to 100%.\nThen: check, again.\nhint: did you mean 'x'?"


def test_end_positions_and_related_locations():
    loc = Location("a.yaml", 2, 3, end_line=2, end_column=9)
    out = github(diagnose("DM202", loc, "Fix.", related=(Location("b,c.yaml", 1, 1),)))
    _, props, text = parse(out.rstrip("\n"))
    assert props["endLine"] == "2" and props["endColumn"] == "9"
    assert text == "Fix.\nrelated: b,c.yaml:1:1"


def test_control_characters_do_not_reach_the_log_raw():
    out = github(diagnose("DM102", Location("a.yaml"), "Bad \x1b[31m value\x00."))
    assert "\x1b" not in out and "\x00" not in out


def test_clean_report_prints_nothing():
    assert github() == ""

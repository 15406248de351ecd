"""Drawings: authored text is escaped in DOT and SVG, and the drawing shows what it should."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from storygraph_support import analysed, clean_entries, entry

from dmtool.storygraph.dot import quote, to_dot
from dmtool.storygraph.render import find_dot, render

NASTY = [
    'Say "hi" ]; evil [shape=box',
    "<b>bold</b> <img src=x onerror=alert(1)>",
    "back\\N slash\\l \\\\ end\\",
    "javascript:alert(1)",
    "new\nline\ttab\x07bell",
]
SVG = "{http://www.w3.org/2000/svg}"


def _nasty_analysis(tmp_path: Path):  # type: ignore[no-untyped-def]
    entries = (
        clean_entries()
        + [
            entry(
                2,
                [
                    {
                        "choice": [
                            {"label": text, "effects": [{"goto": 10 + i}]}
                            for i, text in enumerate(NASTY)
                        ]
                    }
                ],
                kind="event",
            ),
        ]
        + [entry(10 + i, [{"end": "encounter"}], title=text) for i, text in enumerate(NASTY)]
    )
    return analysed(tmp_path, entries, title='Book "<script>" \\G')


def _strings_are_closed(dot: str) -> None:
    """Every line has balanced, unescaped quotes: no authored text escapes its string."""
    for line in dot.splitlines():
        unescaped = re.sub(r"\\.", "", line)
        assert unescaped.count('"') % 2 == 0, line


def test_quote_escapes_backslashes_quotes_and_controls() -> None:
    assert quote('a "b" \\N') == '"a \\"b\\" \\\\N"'
    assert quote("x\ny\x00z") == '"x y z"'
    assert quote("abcdef", limit=4) == '"abc…"'


def test_dot_has_no_html_labels_urls_or_loose_text(tmp_path: Path) -> None:
    dot = to_dot(_nasty_analysis(tmp_path))
    _strings_are_closed(dot)
    assert "label=<" not in dot and not re.search(r"\b(URL|href|tooltip)\s*=", dot)
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', '""', dot)  # drop every quoted string
    for word in ("<b>", "javascript", "onerror", "evil", "slash"):
        assert word not in outside
    # The authored backslashes are doubled, so Graphviz shows them instead of expanding \N.
    assert "back\\\\N slash\\\\l" in dot
    # Node ids are ours: e<number> or generated names.
    for node_id in re.findall(r"^\s*(\S+) \[label=", dot, flags=re.M):
        assert re.fullmatch(r"(graph|e\d+|b_\w+|r\d+|legend_\w+|missing_\d+_-?\d+)", node_id), (
            node_id
        )


@pytest.mark.skipif(
    find_dot() is None, reason="Graphviz 'dot' is not installed (apt-get install graphviz)"
)
def test_svg_shows_authored_text_literally_and_safely(tmp_path: Path) -> None:
    svg = render(to_dot(_nasty_analysis(tmp_path)), "svg", find_dot() or "dot").decode("utf-8")
    root = ET.fromstring(svg)  # well-formed XML: nothing authored opened an element
    assert not list(root.iter(f"{SVG}a")) and not list(root.iter(f"{SVG}script"))
    for element in root.iter():
        for name, value in element.attrib.items():
            assert "javascript" not in value.lower(), (name, value)
            assert "href" not in name
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "<b>bold</b>" in texts
    assert "back\\N slash\\l" in texts
    assert "javascript:alert(1)" in texts


def test_drawing_marks_problems_and_has_a_legend(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"test": {"roll": {"red": ["hand"]}, "pass": [{"goto": 3}]}}], kind="event"),
            entry(3, [{"goto": 404}]),
            entry(
                4,
                [
                    {
                        "if": {
                            "when": {"has_coda": "nobody"},
                            "then": [{"goto": 5}],
                            "else": [{"end": "event"}],
                        }
                    }
                ],
                kind="event",
            ),
            entry(5, [{"end": "encounter"}]),
        ],
    )
    dot = to_dot(a)
    assert re.search(r'e2 \[.*color="#c62828", penwidth=2\.5', dot)  # dead end
    assert re.search(r'e5 \[.*style="filled,dashed"', dot)  # unreachable
    assert 'label="missing entry 404"' in dot
    assert re.search(r'e4 -> e5 \[label="if you hold the coda card\\nNobody", style=dotted', dot)
    assert 'e2 -> e3 [label="pass"]' in dot
    assert (
        "cluster_legend" in dot and 'label="Round events"' in dot and 'label="Unreachable"' in dot
    )


def test_focus_and_ending_select_a_subgraph(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"goto": 20}], kind="event"),
            entry(20, [{"goto": 21}]),
            entry(21, [{"goto": 22}]),
            entry(22, [{"end": "encounter"}]),
        ],
    )
    near = to_dot(a, focus=21, depth=1)
    assert all(f"e{n} [" in near for n in (20, 21, 22)) and "e2 [" not in near
    finale = to_dot(a, ending="B")
    assert (
        "e911 [" in finale
        and "e912 [" in finale
        and "e921 [" not in finale
        and "e20 [" not in finale
    )


# Titles an author (or a hostile file) may write: entities Graphviz would expand, characters
# XML cannot hold (a C0 control, U+FFFE, U+FFFF), a bare ampersand and a CDATA end.
HOSTILE = [
    "&#1; one",
    "&#x1; hex",
    "&#0; nul",
    "bad \ufffe and \uffff here",
    "A &amp; B",
    "Fish & Chips &",
    "&lt;a&gt; &nbsp;",
    "&bogus; &#xD800; &#65534;",
    "bell\x01\x02\x1b\x7f\x85 end",
    "]]> cdata",
    "emoji \U0001f56f candle",
]
# What each hostile title must read as in the picture (after XML parsing).
SHOWN = {
    "A &amp; B": "A &amp; B",
    "Fish & Chips &": "Fish & Chips &",
    "&#1; one": "&#1; one",
    "&lt;a&gt; &nbsp;": "&lt;a&gt; &nbsp;",
}
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _hostile_analysis(tmp_path: Path):  # type: ignore[no-untyped-def]
    entries = (
        clean_entries()
        + [
            entry(
                2,
                [
                    {
                        "choice": [
                            {"label": text, "effects": [{"goto": 10 + i}]}
                            for i, text in enumerate(HOSTILE)
                        ]
                    }
                ],
                kind="event",
            ),
        ]
        + [
            entry(10 + i, [{"fail_stage": text}], title=text)
            for i, text in enumerate(HOSTILE)
        ]
    )
    return analysed(tmp_path, entries, title="Book &#1; \ufffe & &amp;")


def test_every_dot_string_holds_only_xml_text_with_ampersands_escaped(tmp_path: Path) -> None:
    dot = to_dot(_hostile_analysis(tmp_path))
    dot.encode("utf-8")  # nothing unencodable
    _strings_are_closed(dot)
    for string in re.findall(r'"((?:[^"\\]|\\.)*)"', dot):
        assert not _NOT_XML.search(string), string
        assert "\x85" not in string and "\x7f" not in string, string
        # Graphviz expands entities in labels: every ampersand must be the start of &amp;
        assert not re.search(r"&(?!amp;)", string), string


def test_quote_escapes_ampersands_and_drops_what_xml_cannot_hold() -> None:
    assert quote("A & B &amp; C") == '"A &amp; B &amp;amp; C"'
    assert quote("x\ufffey\uffffz") == '"xyz"'
    assert quote("&#1;") == '"&amp;#1;"'


@pytest.mark.skipif(
    find_dot() is None, reason="Graphviz 'dot' is not installed (apt-get install graphviz)"
)
def test_svg_from_hostile_titles_parses_and_shows_them_literally(tmp_path: Path) -> None:
    analysis = _hostile_analysis(tmp_path)
    for focus in (None, 2):
        svg = render(to_dot(analysis, focus=focus, depth=1), "svg", find_dot() or "dot")
        root = ET.fromstring(svg)  # an XML parser accepts it
        texts = [t.text or "" for t in root.iter(f"{SVG}text")]
        joined = " | ".join(texts)
        for title, shown in SHOWN.items():
            assert shown in joined, (title, joined)
        # Graphviz draws a run of spaces with a no-break space; the title is otherwise as
        # written, with U+FFFE removed.
        assert any(t.replace("\xa0", " ") == "Book &#1;  & &amp; (test-book)" for t in texts)


def test_the_drawing_is_the_same_whatever_the_string_hashing(tmp_path: Path) -> None:
    # Each process hashes strings with its own seed: a drawing written from a set of names
    # came out in another order every run (the round events' edges, for one).
    root = Path(__file__).resolve().parents[1]
    drawings = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"seed-{seed}.dot"
        env = dict(os.environ, PYTHONHASHSEED=seed, DMTOOL_CACHE_DIR=str(tmp_path / seed))
        subprocess.run([sys.executable, "-m", "dmtool", "graph", "-o", str(out),
                        "content/wanderers/hollis-brandt/storybook.yaml"],
                       cwd=root, env=env, check=False, capture_output=True)
        drawings.append(out.read_text(encoding="utf-8"))
    assert drawings[0] == drawings[1] == drawings[2]
    assert "_event ->" in drawings[0]  # the edges whose order moved are there

"""YAML 1.2 forms libyaml refuses are read by the pure parser, with positions from it too."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.loading import SourceDocument, fast, load_text


@pytest.fixture(autouse=True)
def _libyaml_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """These are about the libyaml path (yaml-rs would read these texts by itself)."""
    monkeypatch.setattr(fast, "ENABLED", False)


def test_a_url_inside_a_flow_mapping_is_plain_text() -> None:
    loaded = load_text("kind: coda\nlinks: {url: http://x, also: [a:b, c]}\n")
    assert loaded.diagnostics == []
    document = loaded.document
    assert document is not None
    assert document.data == {"kind": "coda", "links": {"url": "http://x", "also": ["a:b", "c"]}}
    assert document.pure_parser
    where = document.locate(("links", "also", 1))
    assert (where.line, where.column) == (2, 36)


def test_positions_of_a_cached_document_come_from_the_parser_that_reads_it() -> None:
    # A document rebuilt from the check cache does not know which parser it needed.
    text = "kind: coda\nlinks: {url: http://x}\n"
    document = SourceDocument(Path("x.yaml"), "x.yaml", text, {"kind": "coda"})
    where = document.locate(("links", "url"))
    assert (where.line, where.column) == (2, 14)


def test_ordinary_flow_collections_stay_with_libyaml() -> None:
    loaded = load_text("kind: coda\nroll: {red: [eye, hand]}\n")
    assert loaded.document is not None and not loaded.document.pure_parser


def test_a_colon_that_yaml_1_2_reads_as_a_key_is_refused_not_misread() -> None:
    # YAML 1.2 reads `omitted value:,` as the key "omitted value"; the pure parser would
    # keep the ':' as text, so the file is refused with a located reason (S6).
    loaded = load_text("tags: {plain: x, omitted value:, url: http://x}\n")
    assert loaded.document is None
    [problem] = loaded.diagnostics
    assert (problem.code, problem.location.line, problem.location.column) == ("DM001", 1, 18)
    assert "in quotes" in problem.message


def test_what_neither_parser_reads_keeps_libyaml_s_message() -> None:
    loaded = load_text("a: [\n")
    assert [d.code for d in loaded.diagnostics] == ["DM001"]
    assert "This is not valid YAML" in loaded.diagnostics[0].message

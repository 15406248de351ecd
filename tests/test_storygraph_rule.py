"""The `dmtool check` rule: every storybook analysed, card findings shared per wanderer."""

from __future__ import annotations

from pathlib import Path

from storygraph_support import clean_entries, entry, storybook_data, write

from dmtool.loading import read_document
from dmtool.storygraph.rule import check
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules import rule_checks


def _corpus(tmp_path: Path, awards: list[list[str]]) -> Corpus:
    """One storybook per list in `awards`, each gaining those codas; codas 'x' and 'y' exist."""
    corpus = Corpus()
    paths = []
    for i, codas in enumerate(awards):
        event = entry(2, [*({"gain_coda": c} for c in codas), {"end": "event"}], kind="event")
        data = storybook_data(clean_entries() + [event])
        data["id"] = f"book-{i}"
        paths.append(write(tmp_path / f"book-{i}.yaml", data))
    for coda in ("x", "y"):
        paths.append(
            write(
                tmp_path / f"{coda}.yaml",
                {
                    "kind": "coda",
                    "id": coda,
                    "wanderer": "tester",
                    "title": coda,
                    "effects": [{"modify_sentience": {"red": 1}}],
                    "back": ["red"],
                },
            )
        )
    for path in paths:
        document = read_document(path, path.name).document
        assert document is not None
        corpus.add(document)
    return corpus


def test_rule_is_found_by_the_check_pipeline() -> None:
    assert ("storygraph", check) in rule_checks()


def test_a_coda_is_an_orphan_only_if_no_storybook_of_its_wanderer_awards_it(tmp_path: Path) -> None:
    found = list(check(_corpus(tmp_path, [["x"], []])))
    assert [(d.code, d.location.path) for d in found] == [("DM309", "y.yaml")]


def test_every_storybook_is_analysed(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [["x", "y"], ["x", "y"]])
    book = tmp_path / "book-1.yaml"
    book.write_text(book.read_text(encoding="utf-8").replace("end: event", "goto: 404", 1))
    corpus = Corpus()
    for path in sorted(tmp_path.glob("*.yaml")):
        corpus.add(read_document(path, path.name).document)  # type: ignore[arg-type]
    assert [(d.code, d.location.path) for d in check(corpus)] == [("DM301", "book-1.yaml")]
    assert list(check(Corpus())) == []

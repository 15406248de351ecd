"""The `dmtool check` rule: every storybook analysed, card findings shared per wanderer."""

from __future__ import annotations

from pathlib import Path

from storygraph_support import clean_entries, entry, storybook_data, write

from dmtool.loading import read_document
from dmtool.storygraph.rule import ContextView, check
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules import rule_checks
from dmtool.validation.schemas import SchemaSet, default_schema_dir


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


def test_only_the_kinds_a_wanderer_owns_are_read_as_hers_when_it_cannot_be_told(
        tmp_path: Path) -> None:
    corpus = Corpus(schemas=SchemaSet(default_schema_dir()))
    for name, kind in (("coda", "coda"), ("card", "existence-card")):
        path = write(tmp_path / f"{name}.yaml", {"kind": kind, "id": name, "wanderer": "nobody"})
        document = read_document(path, path.name).document
        assert document is not None
        corpus.add(document)
    [card] = corpus.readable("existence-card")
    assert corpus.reads_as(card, "wanderer", "tester") is None  # no such wanderer
    view = ContextView(corpus, "tester")
    # A coda whose wanderer cannot be told may well be tester's: her context reads it so.
    [coda] = view.of_kind("coda")
    assert coda.data["wanderer"] == "tester"
    # The context reads every existence card, whoever it names: as it is.
    assert view.of_kind("existence-card") == [card]
    assert card.data["wanderer"] == "nobody" and not view.incomplete

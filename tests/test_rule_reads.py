"""A session reuses a rule's findings while nothing the rule read has changed (see
dmtool/validation/rules/reads.py); the reads are recorded by the corpus itself.

That is sound only if a rule learns of the content through recorded reads alone. These
tests hold every rule to it, over the real content and every case folder: run over a
corpus holding only what the rule recorded, a rule must find exactly what it finds over
the whole corpus; every way of reading a corpus is recorded; and nothing outside the
corpus reaches into its private parts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dmtool.validation.corpus import ALL, DEFINED, KINDS, Corpus
from dmtool.validation.pipeline import CheckOptions, check_and_load
from dmtool.validation.rules import rule_checks
from dmtool.validation.rules.reads import run_recorded
from dmtool.validation.session import CheckSession

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(p for p in (ROOT / "tests" / "cases").iterdir()
               if p.is_dir() and re.match(r"DM\d{3}", p.name))
TREES = [ROOT / "content", *CASES]


def _corpus(tree: Path, monkeypatch: pytest.MonkeyPatch) -> Corpus:
    monkeypatch.chdir(tree if tree.name != "content" else tree.parent)
    session = CheckSession()
    session.load([Path(".") if tree.name != "content" else Path("content")])
    return session.build_corpus()


def _only(corpus: Corpus, reads: set[Any]) -> Corpus:
    """A corpus of the documents `reads` cover, as settled in `corpus`, defining what it
    defines (the ids defined are one read, whichever documents define them)."""
    kinds = {read[1] for read in reads if len(read) == 2}
    kept = Corpus(schemas=corpus._schemas)
    for document in corpus._documents + corpus._partial:
        if document.kind in kinds:
            kept.add(document, corpus.facts(document))
            if id(document) in corpus._settled_from:  # as settled in the whole corpus
                kept._settled_from[id(document)] = corpus._settled_from[id(document)]
    kept.checked = corpus.checked
    kept._defined = corpus.definitions()
    return kept


def _facts(findings: list[Any]) -> list[tuple[Any, ...]]:
    return [(d.code, d.location.path, d.location.line, d.location.column, d.message, d.hint,
             tuple((r.path, r.line, r.column) for r in d.related)) for d in findings]


@pytest.mark.parametrize("tree", TREES, ids=lambda p: p.name)
def test_a_rule_finds_the_same_in_a_corpus_of_only_what_it_read(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _corpus(tree, monkeypatch)
    for name, rule in rule_checks():
        run = run_recorded(rule, corpus)
        if ALL in run.seen or KINDS in run.seen:
            continue  # it read every document: there is nothing to leave out
        only = _only(corpus, set(run.seen))
        assert run.holds_in(only), f"{name}: the restricted corpus reads differently"
        again = run_recorded(rule, only)
        assert _facts(again.findings) == _facts(run.findings), (
            f"rule {name} found something else without the documents it did not record "
            f"reading ({sorted(run.seen)}): it reads the content some other way")
        assert set(again.seen) <= set(run.seen) | {DEFINED}, name


def test_every_way_of_reading_a_corpus_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new public reader on Corpus must record what it reads, or rules using it would
    be reused on stale findings. Readers of one document (whose read covers it) are listed."""
    corpus = _corpus(ROOT / "content", monkeypatch)
    ref = next(r for d in corpus.documents for r in corpus.facts(d).references)
    first = corpus.documents[0]
    calls: dict[str, Any] = {
        "documents": lambda: corpus.documents, "partial": lambda: corpus.partial,
        "schemas": lambda: corpus.schemas, "checked": lambda: corpus.checked,
        "of_kind": lambda: corpus.of_kind("wanderer"),
        "readable": lambda: corpus.readable("wanderer"),
        "get": lambda: corpus.get("wanderer", "nobody"), "ids": lambda: corpus.ids("coda"),
        "kinds": lambda: list(corpus.kinds()), "defined": lambda: corpus.defined("coda"),
        "definitions": corpus.definitions, "resolves": lambda: corpus.resolves(ref),
        "unresolved": lambda: corpus.unresolved(first),
        "candidates": lambda: corpus.candidates(["coda"]), "titles": lambda: corpus.titles(["coda"]),
        "nested_ids": lambda: corpus.nested_ids("condition-type"),
        "data": lambda: corpus.data("wanderer", "nobody"), "walker": corpus.walker,
    }
    # (reads_as looks at the ids defined too, when the document's field names one: recorded)
    of_one_document = {"facts", "trusted", "top_fields", "reads_as"}
    # What reads nothing: building and settling a corpus, and the recording itself.
    not_readers = {"add", "settle", "recording", "value_of"}
    public = {name for name in dir(Corpus) if not name.startswith("_")}
    assert public == set(calls) | of_one_document | not_readers, (
        "a new public member of Corpus: make it record its reads and list it here")
    for name, call in calls.items():
        with corpus.recording() as reads:
            call()
        assert reads, f"Corpus.{name} reads the corpus without recording it"


def test_nothing_reaches_into_a_corpus_around_its_readers() -> None:
    private = re.compile(r"corpus\)?\._[a-z]")
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for path in sorted((ROOT / "dmtool").rglob("*.py"))
                 if path.name != "corpus.py"
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if private.search(line)]
    assert offenders == []


def test_other_schemas_run_every_rule_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from dmtool.validation import session as session_module
    from dmtool.validation.schemas import SchemaSet, default_schema_dir

    monkeypatch.chdir(ROOT)
    session = CheckSession()
    session.load([Path("content")])
    first = session.report().diagnostics
    ran: list[str] = []

    def counting(rule: Any, corpus: Corpus) -> Any:
        ran.append(rule.__module__)
        return run_recorded(rule, corpus)

    monkeypatch.setattr(session_module, "run_recorded", counting)
    session.corpus = None
    assert session.report().diagnostics == first and ran == []  # nothing changed: reused
    session.schemas = SchemaSet(default_schema_dir())
    session.corpus = None
    assert session.report().diagnostics == first
    assert len(ran) == len(rule_checks())


def test_a_one_shot_check_records_no_rule_runs_and_a_session_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Recording is for a session asked again; the pipeline reports once.
    monkeypatch.chdir(ROOT)
    result = check_and_load(CheckOptions(paths=(Path("content"),), cache_dir=None))
    assert result.session is not None and result.session._runs == {}
    session = CheckSession()
    session.load([Path("content")])
    again = session.report()
    assert session._runs and set(session._runs) <= {name for name, _ in rule_checks()}
    assert _facts(again.sorted()) == _facts(result.report.sorted())

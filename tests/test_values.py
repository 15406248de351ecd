"""What the code relies on of its value classes (dataclasses): equality and hashing by
their fields, frozen where a value never changes, slots for the many small ones, the
reprs the run key holds, copies, pickles, `replace`, fresh defaults, and the fields'
order, which the story graph's fingerprints walk."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path
from typing import Any

import pytest

from dmtool.commands.check import CheckRequest
from dmtool.config import Config
from dmtool.diagnostics import Diagnostic, Location, Report, Severity
from dmtool.diagnostics.catalogue import catalogue
from dmtool.storygraph.context import Place, Source, StoryContext
from dmtool.storygraph.rule import _plain_values
from dmtool.validation.cache import FileRecord
from dmtool.validation.facts import DocumentFacts, Standing
from dmtool.validation.pipeline import CheckOptions
from dmtool.validation.references import Reference
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.validation.suppressions import FileIgnore, Suppression

HERE = Location("book.yaml", 3, 5, "/entries/0", subject="entry 1")
FINDING = Diagnostic("DM301", Severity.ERROR, "broken link", HERE, "did you mean 11?", (HERE,))


def test_the_reprs_the_run_key_and_messages_hold() -> None:
    # The run key holds the repr of the configuration's per-file ignores: a change here
    # makes every cached run of a configured project miss once.
    ignore = FileIgnore("content/**", ("DM222",), "the rulebook says so")
    assert repr(ignore) == ("FileIgnore(pattern='content/**', codes=('DM222',), "
                            "reason='the rulebook says so')")
    assert repr(SchemaSet(Path("schemas"))) == f"SchemaSet(directory={Path('schemas')!r})"


def test_equal_and_hashed_by_their_fields() -> None:
    again = Location("book.yaml", 3, 5, "/entries/0", subject="entry 1")
    assert again == HERE and again is not HERE and hash(again) == hash(HERE)
    assert Location("book.yaml", 3, 6) != HERE
    assert HERE != ("book.yaml", 3, 5, "/entries/0", None, None, "entry 1")
    assert len({FINDING, Diagnostic("DM301", Severity.ERROR, "broken link", again,
                                    "did you mean 11?", (again,))}) == 1
    ref = Reference(("effects", 0, "gain"), ("coda",), "a-boys-blueprint")
    facts = DocumentFacts("coda", "x", Standing.TRUSTED, references=(ref,))
    assert facts == DocumentFacts("coda", "x", Standing.TRUSTED, (), (), (), (ref,), ())
    assert hash(facts) == hash(DocumentFacts("coda", "x", Standing.TRUSTED, references=(ref,)))


def test_mutable_ones_compare_but_do_not_hash() -> None:
    assert Report() == Report() and Report(files_checked=1) != Report()
    with pytest.raises(TypeError):
        hash(Report())
    report = Report()
    report.files_checked = 3
    assert report.files_checked == 3
    assert Report().diagnostics is not Report().diagnostics  # each its own list


@pytest.mark.parametrize("value", [HERE, FINDING, Config(), CheckRequest(jobs=2),
                                   FileIgnore("x", ("DM1",)), Place("doc", ("id",)),
                                   StoryContext(), next(iter(catalogue().values()))])
def test_frozen_ones_refuse_changes(value: Any) -> None:
    name = fields(value)[0].name
    with pytest.raises(FrozenInstanceError):
        setattr(value, name, None)
    with pytest.raises(FrozenInstanceError):
        delattr(value, name)
    with pytest.raises((AttributeError, TypeError)):  # slots: no room for another attribute
        value.unknown = 1


@pytest.mark.parametrize("value", [HERE, FINDING, Report(), FileRecord((), None, None, None,
                                                                        None, False, None)])
def test_the_many_small_ones_have_slots(value: Any) -> None:
    # A check makes a Location and a Diagnostic per finding, a record per file.
    assert not hasattr(value, "__dict__")


@pytest.mark.parametrize("value", [
    HERE, FINDING, Config(select=("DM1",), source=Path("dmtool.toml")),
    CheckOptions(paths=(Path("content"),), jobs=3), CheckRequest(paths=(Path("a"),)),
    Suppression("a.yaml", ("DM222",), "why", HERE, 4),
    Source("card", "card x", 11, HERE, card_id="x", spawned=True),
    FileRecord((), "coda", "x", None, None, True, b"", {"m": 1}), Report(files_checked=2),
])
def test_copies_and_pickles_are_equal(value: Any) -> None:
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value
    assert pickle.loads(pickle.dumps(value)) == value


def test_replace_changes_only_the_fields_named() -> None:
    assert replace(HERE, line=9) == Location("book.yaml", 9, 5, "/entries/0", subject="entry 1")
    assert replace(Config(strict=True), format="json") == Config(strict=True, format="json")
    options = replace(CheckOptions(paths=(Path("a"),), jobs=2), jobs=1)
    assert (options.paths, options.jobs) == ((Path("a"),), 1)
    with pytest.raises(TypeError, match="colour"):
        replace(Config(), colour=True)


def test_defaults_are_fresh_and_as_before() -> None:
    assert CheckOptions(paths=()).schema_dir == default_schema_dir()
    assert StoryContext().codas == {} and StoryContext().codas is not StoryContext().codas
    with pytest.raises(TypeError):
        CheckOptions((Path("a"),))  # type: ignore[misc]  # keyword-only
    assert Location("a").__match_args__ == (
        "path", "line", "column", "pointer", "end_line", "end_column", "subject")


def test_the_story_context_fingerprint_walks_fields_in_order() -> None:
    # Its stored analyses are keyed by this (the check cache).
    source = Source("round", "round 1", 1, HERE)
    assert _plain_values(source) == ("Source", (
        "round", "round 1", 1,
        ("Location", ("book.yaml", 3, 5, "/entries/0", None, None, "entry 1")),
        None, None, False, None, None, None, None))
    assert _plain_values(StoryContext(rounds=(source,)))[0] == "StoryContext"

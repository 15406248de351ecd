"""The value classes written out instead of made by dataclasses (dmtool/values.py) behave as
the dataclasses did: equality and hash by their fields' values, the same repr, frozen where
they were, copies, pickles and `replace`."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

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
from dmtool.values import Frozen, FrozenError, Value, replace

HERE = Location("book.yaml", 3, 5, "/entries/0", subject="entry 1")
FINDING = Diagnostic("DM301", Severity.ERROR, "broken link", HERE, "did you mean 11?", (HERE,))


# The dataclasses these classes were, for comparison.
@dataclasses.dataclass(frozen=True, slots=True)
class _Location:
    path: str
    line: int = 1
    column: int = 1
    pointer: str = ""
    end_line: int | None = None
    end_column: int | None = None
    subject: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class _FileIgnore:
    pattern: str
    codes: tuple[str, ...]
    reason: str = ""


def test_the_repr_is_the_dataclass_repr() -> None:
    # The run key holds the repr of the configuration's per-file ignores.
    written = FileIgnore("content/**", ("DM222",), "the rulebook says so")
    made = _FileIgnore("content/**", ("DM222",), "the rulebook says so")
    assert repr(written) == repr(made).replace("_FileIgnore", "FileIgnore")
    assert repr(HERE) == repr(_Location(*HERE._values(HERE))).replace("_Location", "Location")
    assert repr(SchemaSet(Path("schemas"))) == f"SchemaSet(directory={Path('schemas')!r})"


def test_equal_by_their_fields_and_only_within_their_class() -> None:
    again = Location("book.yaml", 3, 5, "/entries/0", subject="entry 1")
    assert again == HERE and again is not HERE
    assert hash(again) == hash(HERE) == hash(_Location(*HERE._values(HERE)))
    assert Location("book.yaml", 3, 6) != HERE
    assert _Location(*HERE._values(HERE)) != HERE  # another class, the same fields
    assert HERE.__eq__(("book.yaml", 3, 5)) is NotImplemented
    assert len({FINDING, Diagnostic("DM301", Severity.ERROR, "broken link", again,
                                    "did you mean 11?", (again,))}) == 1
    ref = Reference(("effects", 0, "gain"), ("coda",), "a-boys-blueprint")
    assert ref == Reference(("effects", 0, "gain"), ("coda",), "a-boys-blueprint")
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
def test_frozen_ones_refuse_changes(value: Frozen) -> None:
    name = value._fields[0]
    with pytest.raises(FrozenError):
        setattr(value, name, None)
    with pytest.raises(FrozenError):
        delattr(value, name)
    with pytest.raises(AttributeError):  # the old FrozenInstanceError was one too
        value.unknown = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", [
    HERE, FINDING, Config(select=("DM1",), source=Path("dmtool.toml")),
    CheckOptions(paths=(Path("content"),), jobs=3), CheckRequest(paths=(Path("a"),)),
    Suppression("a.yaml", ("DM222",), "why", HERE, 4),
    Source("card", "card x", 11, HERE, card_id="x", spawned=True),
    FileRecord((), "coda", "x", None, None, True, b"", {"m": 1}), Report(files_checked=2),
])
def test_copies_and_pickles_are_equal(value: Value) -> None:
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value
    if not isinstance(value, CheckOptions):  # its schema_dir default is fine; no callables
        assert pickle.loads(pickle.dumps(value)) == value


def test_replace_changes_only_the_fields_named() -> None:
    moved = replace(HERE, line=9)
    assert moved == Location("book.yaml", 9, 5, "/entries/0", subject="entry 1")
    assert replace(Config(strict=True), format="json") == Config(strict=True, format="json")
    options = replace(CheckOptions(paths=(Path("a"),), jobs=2), jobs=1)
    assert (options.paths, options.jobs) == ((Path("a"),), 1)
    with pytest.raises(TypeError, match="no field 'colour'"):
        replace(Config(), colour=True)


def test_defaults_are_fresh_and_as_before() -> None:
    assert CheckOptions(paths=()).schema_dir == default_schema_dir()
    assert StoryContext().codas == {} and StoryContext().codas is not StoryContext().codas
    with pytest.raises(TypeError):
        CheckOptions((Path("a"),))  # type: ignore[misc]  # keyword-only, as kw_only was
    assert Location("a").__match_args__ == (
        "path", "line", "column", "pointer", "end_line", "end_column", "subject")


def test_the_story_context_fingerprint_walks_fields_in_order() -> None:
    # Its stored analyses are keyed by this (the check cache): as when they were dataclasses.
    source = Source("round", "round 1", 1, HERE)
    assert _plain_values(source) == ("Source", (
        "round", "round 1", 1,
        ("Location", ("book.yaml", 3, 5, "/entries/0", None, None, "entry 1")),
        None, None, False, None, None, None, None))
    assert _plain_values(StoryContext(rounds=(source,)))[0] == "StoryContext"

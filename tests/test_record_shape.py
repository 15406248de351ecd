"""The shape check on data read back from the check cache (filecheck.is_json), and the
records of this run's own workers, whose data is the loader's and is not checked again."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from dmtool.validation import filecheck
from dmtool.validation.cache import FileRecord
from dmtool.validation.facts import is_packed_facts
from dmtool.validation.filecheck import from_record, is_json
from dmtool.validation.schemas import SchemaSet, default_schema_dir


class _Text(str):
    """A str subclass: not what the loader produces."""


def test_is_json_refuses_what_marshal_can_give_besides_json() -> None:
    assert is_json({"entries": [{"entry": 1, "text": "x", "tags": ["a", None, 1.5, True]}]})
    for odd in ((1, 2), {"a": (1,)}, [b"x"], {"a": {1: "x"}}, [{"a": [frozenset()]}],
                {"a": _Text("x")}, 1j):
        assert not is_json(odd), odd


def _record(data: object) -> FileRecord:
    return FileRecord(diagnostics=(), loaded=True, modeline=None, modeline_line=None,
                      kind="coda", doc_id="a", data_blob=marshal.dumps(data))


@pytest.mark.parametrize("made_here", [False, True])
def test_only_a_record_read_back_from_disk_has_its_data_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made_here: bool) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("kind: coda\nid: from-the-file\n", encoding="utf-8")
    shaped: list[object] = []
    monkeypatch.setattr(filecheck, "is_json", lambda value: shaped.append(value) or True)
    result = from_record(_record({"kind": "coda", "id": "a"}), path, "a.yaml", None,
                         SchemaSet(default_schema_dir()), made_here=made_here)
    assert result.document is not None
    assert result.document.data == {"kind": "coda", "id": "a"}
    assert shaped == ([] if made_here else [{"kind": "coda", "id": "a"}])


def test_data_of_the_wrong_shape_on_disk_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("kind: coda\nid: from-the-file\n", encoding="utf-8")
    result = from_record(_record({"kind": "coda", "id": ("a",)}), path, "a.yaml", None,
                         SchemaSet(default_schema_dir()))
    assert result.document is not None
    assert result.document.data == {"kind": "coda", "id": "from-the-file"}


def test_packed_facts_of_the_wrong_shape_are_refused_not_raised() -> None:
    good = ("coda", "a", "trusted", (), (), (), (), ())
    assert is_packed_facts(good)
    for bad in (("coda", "a", [], (), (), (), (), ()), ("coda", "a", "sure", (), (), (), (), ()),
                ("coda", "a", "trusted", [], (), (), (), ()), good[:7]):
        assert not is_packed_facts(bad), bad

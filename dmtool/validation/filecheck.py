"""Checking one file on its own: load it, pick its schema by kind, validate, check the modeline.

The result splits what depends only on the file's bytes (loading, kind and schema
diagnostics: cacheable by content) from what depends on the file system around it
(the modeline: whether the schema file it names exists), which is computed afresh.
"""

from __future__ import annotations

import marshal
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, Severity, diagnose
from dmtool.loading import LoadResult, SourceDocument, load_text, read_document
from dmtool.loading.builder import MAX_DEPTH
from dmtool.loading.nesting import too_deep, too_deep_in_text
from dmtool.loading.reading import MAX_BYTES, read_text
from dmtool.packaged import schema_dir
from dmtool.validation.as_meant import moved
from dmtool.validation.cache import FileRecord, pack, unpack
from dmtool.validation.corpus import top_fields_of
from dmtool.validation.facts import (
    FACTS_MEMO,
    DocumentFacts,
    Standing,
    extract_facts,
    facts_after_edit,
    is_packed_facts,
    parts_at,
    remember_facts,
    unpack_facts,
    walker_for,
)
from dmtool.validation.recovery import recover_data
from dmtool.validation.rules import document_memos
from dmtool.validation.schema_errors import did_you_mean, explain_schema_errors
from dmtool.validation.schemas import SchemaSet
from dmtool.validation.suppressions import comments_of

# Facts of a document whose kind cannot be read (not reached: such a file has no document).
_NO_FACTS = DocumentFacts(kind="", id=None, standing=Standing.INVALID)
# Data of files up to this size is stored in the cache; a larger file's data would cost
# more to store and unpack than its memos save (rules read a storybook through memos).
STORED_DATA_BYTES = 256 * 1024
# Clean documents between STORED_DATA_BYTES and this size keep their data packed between
# uses (see pipeline._lighten and from_record). A larger file is one big book whose data
# the analysis needs whole, and whose packed copy, held beside it, would add to the peak.
PACKED_DATA_BYTES = 4 * 1024 * 1024


@dataclass(slots=True, weakref_slot=True)
class FileResult:
    """One file's own findings: `document` is None when it did not load or has no known kind.
    (A weak reference may follow one: tests/test_live_check.py sees when it is freed.)"""

    diagnostics: list[Diagnostic]
    document: SourceDocument | None
    modeline_line: int | None = None

    def modeline_diagnostics(self) -> list[Diagnostic]:
        """DM016-DM018 for the document, as the file system is now."""
        if self.document is None or not self.loaded:
            return []
        return modeline_problems(self.document, self.modeline_line)

    @property
    def loaded(self) -> bool:
        """Whether the file parsed (a document recovered from a broken file did not)."""
        return not any(d.code < "DM1" and d.severity is Severity.ERROR for d in self.diagnostics)

    def to_record(self, size: int, *, keep_data: bool = False) -> FileRecord:
        """The cache record of this result, for a file of `size` bytes (with its data
        whatever the size when `keep_data`: a record sent between processes)."""
        document = self.document
        if document is None:
            return FileRecord(tuple(pack(d) for d in self.diagnostics), None, None, None, None,
                              False, None)
        doc_id = document.doc_id
        blob = marshal.dumps(document.data) if keep_data or size <= STORED_DATA_BYTES else None
        return FileRecord(tuple(pack(d) for d in self.diagnostics), document.kind,
                          doc_id if isinstance(doc_id, str) else None, document.modeline,
                          self.modeline_line, True, blob)


def check_file(
    path: Path, name: str, schemas: SchemaSet, max_file_size: int | None
) -> tuple[list[Diagnostic], SourceDocument | None]:
    """Everything `dmtool check` says about one file on its own, and its document."""
    result = read_document(path, name, max_bytes=max_file_size)
    if result.document is None:
        return list(result.diagnostics), None
    checked = check_document(result.document, schemas)
    return checked.diagnostics + checked.modeline_diagnostics(), checked.document


def check_decoded(text: str | None, problems: list[Diagnostic], path: Path, name: str,
                  schemas: SchemaSet, max_file_size: int | None, *,
                  keep_text: bool = False, previous: SourceDocument | None = None,
                  max_nesting: int | None = None) -> FileResult:
    """check_file's content part for a file already read and decoded (`decode`'s result).

    The document keeps no text: it is read again from the file if a diagnostic needs it
    (a large file's text is as big as the file, and seldom needed once its data is built).
    Callers drop their bytes before calling, so bytes, text and the parser's copy of a
    large file are never all alive at once. A long-lived session keeps texts instead
    (`keep_text`), so that nothing unchanged is read from disk again.
    """
    if text is None:
        return FileResult(problems, None)
    result = check_text(text, path, name, schemas, previous=previous, max_nesting=max_nesting)
    if result.document is not None and not keep_text:
        if result.loaded and not has_errors(result.diagnostics):
            _take_from_text(result.document)
        limit = max_file_size or MAX_BYTES
        result.document.defer_text(lambda: read_text(path, name, max_bytes=limit)[0] or "")
    return result


def _take_from_text(document: SourceDocument) -> None:
    """What the check derives from a clean document alone, while its text is in hand: its
    suppression comments, its top-level fields and every rule's per-document memos (the
    prose rule screens the text). Each is what the report would compute later anyway;
    taken now, the text need not be read from disk a second time, nor a large book's
    packed data unpacked again (pipeline._lighten), nor sent unasked for by a worker."""
    comments_of(document)
    top_fields_of(document)
    for remember in document_memos():
        remember(document)


def check_text(text: str, path: Path, name: str, schemas: SchemaSet, *,
               previous: SourceDocument | None = None,
               max_nesting: int | None = None) -> FileResult:
    """check_file's content part for a text (an editor's unsaved buffer, or decoded bytes);
    `previous`: the document the file gave before, if any (see load_text); `max_nesting`:
    the max-nesting setting (None: the loader's own limit alone)."""
    loaded = load_text(text, path=path, display=name, previous=previous)
    if max_nesting is not None:
        loaded = _within_nesting(text, name, loaded, max_nesting)
    if loaded.document is None:
        return FileResult(list(loaded.diagnostics),
                          _recovered(text, path, name, loaded, schemas))
    return check_document(loaded.document, schemas)


def _within_nesting(text: str, name: str, loaded: LoadResult, limit: int) -> LoadResult:
    """`loaded` held to the max-nesting setting: a document nested deeper is refused as the
    loader refuses one beyond its own limit, with DM004 at the mapping or list that goes
    one level too deep. Every check of a text (the batch check, its workers, the daemon,
    watch mode and the language server) comes through check_text, so the setting holds
    everywhere alike."""
    document = loaded.document
    if document is not None:
        parts = too_deep(document.data, limit)
        if parts is None:
            return loaded
        where = document.locate(parts)
        return LoadResult(None, [_too_deep(where.path, where.line, where.column, limit)])
    refusals = [d for d in loaded.diagnostics if d.code == "DM004"]
    if not refusals or limit >= MAX_DEPTH:
        return loaded
    # The loader refused the text at its own limit: the setting's is met earlier.
    found = too_deep_in_text(text, limit)
    if found is None:
        return loaded
    return LoadResult(None, [_too_deep(name, *found, limit) if d is refusals[0] else d
                             for d in loaded.diagnostics], loaded.recovered)


def _too_deep(display: str, line: int, column: int, limit: int) -> Diagnostic:
    return diagnose(
        "DM004", Location(display, line, column),
        f"Mappings and lists nest more than {limit} levels deep here, the limit the "
        "max-nesting setting sets; flatten the structure, or raise max-nesting (in "
        "dmtool.toml or [tool.dmtool] of pyproject.toml) if it is meant to nest this deep.")


def check_document(document: SourceDocument, schemas: SchemaSet) -> FileResult:
    diagnostics: list[Diagnostic] = []
    kind = _kind(document, schemas, diagnostics)
    if kind is None:
        return FileResult(diagnostics, None)
    found, moves = explain_schema_errors(document, schemas.errors(kind, document.data),
                                         schemas=schemas, kind=kind)
    diagnostics.extend(found)
    line = document.modeline_line if document.modeline is not None else None
    walker = walker_for(schemas)
    if not has_errors(found):
        remember_facts(document, facts_after_edit(document, walker)
                       or extract_facts(document.data, standing=Standing.TRUSTED, walker=walker)
                       or _NO_FACTS)
        return FileResult(diagnostics, document, line)
    # Other files see the document as its author meant it, as far as misplaced keys go;
    # references are judged as written (their positions are in the file).
    meant = document.read_as(moved(document.data, moves))
    broken = [parts_at(document.data, d.location.pointer) for d in found if d.code != "DM104"]
    remember_facts(meant, extract_facts(meant.data, standing=Standing.INVALID, walker=walker,
                                        broken=broken, as_written=document.data) or _NO_FACTS)
    return FileResult(diagnostics, meant, line)


def _recovered(text: str, path: Path, name: str, loaded: LoadResult,
               schemas: SchemaSet) -> SourceDocument | None:
    """What can be read of a text that did not load, as a partial document (or None).

    When only the entries an edit touched fail, the last good data stands for the text,
    and nothing more of it is parsed (see load_text)."""
    good = loaded.recovered
    data = good.data if good is not None else recover_data(text, loaded.diagnostics)
    facts = _recovered_facts(good) if good is not None else None
    if facts is None:
        facts = extract_facts(data, standing=Standing.RECOVERED)
    if facts is None or facts.kind not in schemas.kinds:
        return None
    document = SourceDocument(path, name, text, data)
    document.last_good = good
    remember_facts(document, facts)
    return document


def _recovered_facts(good: SourceDocument) -> DocumentFacts | None:
    """The facts a recovered document standing on `good`'s data has: good's own, but
    recovered (no references). Kept with good, they are not extracted again from a long
    book's data for each key typed while a line is half written."""
    packed = good.memos.get(FACTS_MEMO)
    if packed is None or not is_packed_facts(packed):
        return None
    known = unpack_facts(packed)
    return DocumentFacts(known.kind, known.id, Standing.RECOVERED, known.defines,
                         known.entries, known.endings)


def from_record(record: FileRecord, path: Path, name: str, max_file_size: int | None,
                schemas: SchemaSet, *, made_here: bool = False) -> FileResult:
    """A FileResult rebuilt from the cache: text and data are read only when used.

    `made_here`: the record was made in this run by a worker (a fork of this process,
    packing the loader's own output), not read back from disk, so its data needs no
    shape check."""
    diagnostics = [unpack(d) for d in record.diagnostics]
    if not record.loaded:
        return FileResult(diagnostics, None)
    blob = record.data_blob
    limit = max_file_size or MAX_BYTES

    def text() -> str:
        return read_text(path, name, max_bytes=limit)[0] or ""

    def data() -> Any:
        # The cache verified its checksum; a value that is still not JSON data (a cache
        # written by hand) is not trusted: the file is parsed again instead.
        try:
            value = marshal.loads(blob) if blob is not None else None
        except (EOFError, ValueError, TypeError):
            value = None
        if value is not None and (made_here or is_json(value)):
            return value
        return reparsed_data(path, name, max_file_size)

    document = SourceDocument(path, name, modeline=record.modeline, read_text=text,
                              read_data=data, kind=record.kind, doc_id=record.doc_id,
                              memos=record.memos)
    # Its data can be built again (unpacked, or parsed again if not stored), so a book's
    # data is let go once analysed (storygraph/rule.py), in a forked child too, which
    # otherwise kept every book it analysed (P5). Not a very large book's: the packed data
    # kept to unpack it again would be held beside the data (45 MB of a 53 MB book's, P4),
    # where otherwise it is freed once unpacked.
    if blob is None or len(blob) <= PACKED_DATA_BYTES:
        document.let_go_of_data(data)
    return FileResult(diagnostics, document, record.modeline_line)


def reparsed_data(path: Path, name: str, max_file_size: int | None) -> Any:
    """A document's data parsed again from its file (for a document whose data was not
    kept: a large file's, see pipeline.py)."""
    text = read_text(path, name, max_bytes=max_file_size or MAX_BYTES)[0] or ""
    reloaded = load_text(text, path=path, display=name).document
    return reloaded.data if reloaded is not None else {}


def is_json(value: Any) -> bool:
    """Whether `value` is made only of the JSON types the loader produces."""
    pending = [value]
    while pending:
        item = pending.pop()
        cls = item.__class__
        if cls is dict:
            if any(k.__class__ is not str for k in item):
                return False
            pending.extend(item.values())
        elif cls is list:
            pending.extend(item)
        elif not (cls is str or cls is int or cls is float or cls is bool or item is None):
            return False
    return True


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def _kind(document: SourceDocument, schemas: SchemaSet, out: list[Diagnostic]) -> str | None:
    data = document.data
    if not isinstance(data, dict):
        out.append(diagnose("DM013", document.locate(()),
                            "the document must be a mapping that starts with 'kind:' and 'id:'"))
        return None
    if "kind" not in data:
        out.append(diagnose("DM014", document.locate(()),
                            "the document has no 'kind:' key, so no schema can be chosen",
                            hint="start the file with e.g. 'kind: coda'"))
        return None
    kind = data["kind"]
    if not isinstance(kind, str) or kind not in schemas.kinds:
        out.append(diagnose("DM015", document.locate(("kind",)),
                            f"unknown kind {kind!r}; known kinds: {', '.join(sorted(schemas.kinds))}",
                            hint=did_you_mean(str(kind), schemas.kinds)))
        return None
    return kind


def modeline_problems(document: SourceDocument, line: int | None) -> list[Diagnostic]:
    """DM017 (no modeline), DM016 (names another kind's schema), DM018 (names no file)."""
    kind = document.kind
    expected = f"{kind}.schema.json"
    modeline = document.modeline
    if modeline is None:
        return [diagnose("DM017", Location(document.display, 1, 1),
                         f"the file has no schema modeline; add "
                         f"'# yaml-language-server: $schema=<path to schemas/{expected}>' as its "
                         "first line")]
    where = Location(document.display, line or 1, 1)
    named = _file_name(modeline)
    if named != expected:
        return [diagnose("DM016", where,
                         f"the modeline names schema '{named}' but the document is "
                         f"of kind '{kind}', whose schema is '{expected}'")]
    if "://" not in modeline and not os.path.isfile(
            os.path.join(os.path.dirname(document.path), modeline)):
        return [diagnose("DM018", where,
                         f"the modeline's schema path '{modeline}' does not exist relative to "
                         "this file", hint=_schema_hint(document.path, expected))]
    return []


def _schema_hint(path: str | os.PathLike[str], name: str) -> str | None:
    """Where the schema dmtool checks with is, relative to the file (a modeline into a
    virtual environment made again elsewhere, or a clone without it, points nowhere)."""
    schema = schema_dir() / name
    if not schema.is_file():
        return None
    where = Path(os.path.relpath(schema, os.path.dirname(os.path.abspath(path)))).as_posix()
    return f"dmtool's schema for it is at '{where}'"


def _file_name(modeline: str) -> str:
    """Path(modeline).name, without building a path for the usual modeline (every file of
    every run): its last part, when that is a name (not empty, as after a trailing '/',
    nor '.', which a path drops)."""
    last = modeline.rpartition("/")[2]
    return last if last and last != "." else Path(modeline).name

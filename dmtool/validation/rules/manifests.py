"""Manifest rules (DM210-DM213, DM216): counted documents, breakdowns and component ids."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules._manifest_index import Counting, Parts
from dmtool.validation.schema_errors import did_you_mean

# How many counted documents to point at in `related` when a line is exceeded.
_RELATED_LIMIT = 5


# Every finding is located in a manifest (see session._needless_rules).
REPORTS_IN = frozenset({"manifest"})


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    known_kinds = _known_kinds(corpus)
    counting = Counting(corpus)
    for document in corpus.of_kind("manifest"):
        yield from _duplicate_ids(document)
        yield from _breakdowns(document)
        yield from _counted_lines(counting, document, known_kinds)


def _known_kinds(corpus: Corpus) -> set[str] | None:
    schemas = corpus.schemas
    return None if schemas is None else set(schemas.kinds)


def _entries(data: dict[str, Any]) -> Iterator[tuple[Parts, dict[str, Any]]]:
    """Every line and part of a manifest with its path."""
    for n, line in enumerate(data["components"]):
        yield ("components", n), line
        for m, part in enumerate(line.get("parts", [])):
            yield ("components", n, "parts", m), part


def _duplicate_ids(document: SourceDocument) -> Iterator[Diagnostic]:
    seen: dict[str, Parts] = {}
    for parts, entry in _entries(document.data):
        first = seen.setdefault(entry["id"], parts)
        if first != parts:
            yield diagnose(
                "DM213", document.locate(parts + ("id",)),
                f"the component id '{entry['id']}' is already used in this manifest; give this "
                "line or part an id of its own",
                related=(document.locate(first + ("id",)),))


def _breakdowns(document: SourceDocument) -> Iterator[Diagnostic]:
    for parts, entry in _entries(document.data):
        count = entry["count"]
        breakdown = entry.get("parts")
        if breakdown:
            total = sum(p["count"] for p in breakdown)
            if total != count:
                yield diagnose(
                    "DM212", document.locate(parts + ("count",)),
                    f"'{entry['name']}' has count {count} but its parts add up to {total}; "
                    "correct the count or the parts so they agree with the rulebook")
        per = entry.get("per")
        if per is not None and per["groups"] * per["count"] != count:
            yield diagnose(
                "DM212", document.locate(parts + ("per",)),
                f"'{entry['name']}' has count {count} but {per['groups']} groups of "
                f"{per['count']} make {per['groups'] * per['count']}; correct the count or the "
                "breakdown")


def _counted_lines(
    counting: Counting, document: SourceDocument, known_kinds: set[str] | None
) -> Iterator[Diagnostic]:
    short: list[tuple[str, int, int, Location]] = []
    for parts, entry in _entries(document.data):
        counts = entry.get("counts")
        if counts is None:
            continue
        kind = counts["kind"]
        if known_kinds is not None and kind not in known_kinds:
            yield diagnose(
                "DM216", document.locate(parts + ("counts", "kind")),
                f"no schema defines the kind '{kind}', so nothing is ever counted against "
                f"'{entry['name']}'; name an existing kind",
                hint=did_you_mean(kind, known_kinds))
            continue
        matched = counting.counted(counts)
        authored = sum(amount for _, amount in matched)
        if authored > entry["count"]:
            yield diagnose(
                "DM210", document.locate(parts + ("counts",), key=True),
                f"{authored} {entry['name']} are authored but the manifest lists only "
                f"{entry['count']}; remove the extra documents or narrow the 'counts' filter",
                related=tuple(d.locate(()) for d, _ in matched[:_RELATED_LIMIT]))
        elif authored + counting.unsure(counts) < entry["count"]:
            # A document that may be one of these but cannot be read well enough to say (its
            # wanderer missing, say) might fill the gap: its own diagnostic says what is wrong.
            short.append((entry["name"], authored, entry["count"], document.locate(parts)))
    if short:
        yield _incomplete(document, short)


def _incomplete(document: SourceDocument, short: list[tuple[str, int, int, Location]]) -> Diagnostic:
    data = document.data
    listed = "; ".join(f"{have} of {want} {name}" for name, have, want, _ in short)
    reason = (
        " Its texts are not published, so this is expected."
        if data.get("texts_published") is False
        else " Add the missing documents when their texts are available."
    )
    return diagnose(
        "DM211", document.locate(("id",)),
        f"the manifest '{data['id']}' is not fully authored: {listed}.{reason}",
        related=tuple(location for *_, location in short))

"""Campaign rules (DM235-DM237): chapter order, expansion, and what each transition keeps."""

from __future__ import annotations

from collections.abc import Iterator

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

# Every finding is located in a campaign (see session._needless_rules).
REPORTS_IN = frozenset({"campaign"})


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    for document in corpus.of_kind("campaign"):
        yield from _chapters(corpus, document)
        yield from _carry_over(document)


def _chapters(corpus: Corpus, document: SourceDocument) -> Iterator[Diagnostic]:
    data = document.data
    expansion = data["expansion"]
    numbers: list[int] = []
    for n, step in enumerate(data["chapters"]):
        chapter = corpus.get("chapter", step["chapter"])
        if chapter is None:
            continue  # an unknown chapter id is DM202's business
        if chapter.data["expansion"] != expansion:
            yield diagnose(
                "DM236", document.locate(("chapters", n, "chapter")),
                f"chapter '{step['chapter']}' belongs to '{chapter.data['expansion']}', not to "
                f"this campaign's expansion '{expansion}'; list only its own chapters",
                related=(chapter.locate(("expansion",)),))
            continue
        number = chapter.data["number"]
        expected = len(numbers) + 1
        if number != expected:
            yield diagnose(
                "DM235", document.locate(("chapters", n, "chapter")),
                f"chapter '{step['chapter']}' is chapter {number} but stands at place {expected} "
                "of the campaign; list the chapters in their numbered order, each once",
                related=(chapter.locate(("number",)),))
        numbers.append(number)
    own = sorted(d.data["number"] for d in corpus.of_kind("chapter")
                 if d.data["expansion"] == expansion)
    missing = sorted(set(own) - set(numbers))
    if numbers and missing:
        yield diagnose(
            "DM235", document.locate(("chapters",), key=True),
            f"the campaign leaves out chapter(s) {', '.join(map(str, missing))} of '{expansion}'; "
            "list every chapter of the expansion in order")


def _carry_over(document: SourceDocument) -> Iterator[Diagnostic]:
    steps = document.data["chapters"]
    for n, step in enumerate(steps):
        last = n == len(steps) - 1
        if last and "keeps" in step:
            yield diagnose(
                "DM237", document.locate(("chapters", n, "keeps"), key=True),
                f"'{step['chapter']}' is the campaign's last chapter, so there is nothing to carry "
                "its components into; remove 'keeps'")
        elif not last and "keeps" not in step:
            yield diagnose(
                "DM237", document.locate(("chapters", n, "chapter")),
                f"'{step['chapter']}' is followed by another chapter but does not say what "
                "investigators keep; add 'keeps' as its closing note lists it")

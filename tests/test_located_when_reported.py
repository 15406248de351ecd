"""A file is parsed for positions only when a finding is located in it: locating costs a
second parse, which a cold check of clean files must not pay (rules locate lazily)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dmtool.commands.rules import register_rules
from dmtool.loading.document import SourceDocument
from dmtool.validation.pipeline import CheckOptions, check_and_load

ROOT = Path(__file__).resolve().parents[1]


def test_only_files_named_by_a_finding_are_located(monkeypatch: pytest.MonkeyPatch) -> None:
    register_rules()
    located: set[str] = set()
    locate = SourceDocument._locate

    def recording(self: SourceDocument, parts: tuple[str | int, ...], *, key: bool) -> object:
        located.add(self.display)
        return locate(self, parts, key=key)

    monkeypatch.setattr(SourceDocument, "_locate", recording)
    monkeypatch.chdir(ROOT)
    report = check_and_load(CheckOptions(paths=(Path("content"),), cache_dir=None)).report
    named = {d.location.path for d in report.diagnostics} | {
        r.path for d in report.diagnostics for r in d.related}
    assert located and located <= named

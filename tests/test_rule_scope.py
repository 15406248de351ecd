"""Rules that declare where their findings are located (REPORTS_IN) are skipped by a check
of files of none of those kinds; that must never lose a finding.

The declaration is held to every corpus the tests know (the real content and every case
folder): each finding of such a rule is located in a document of a declared kind. And a
check of single files gives the same report with the skipping as without it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dmtool.commands.rules import register_rules
from dmtool.validation import session as session_module
from dmtool.validation.pipeline import CheckOptions, run_check
from dmtool.validation.rules import rule_checks, rule_report_kinds
from dmtool.validation.session import CheckSession

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(p for p in (ROOT / "tests" / "cases").iterdir() if p.is_dir())
TREES = [ROOT / "content", *CASES]


def test_the_rules_that_declare_it() -> None:
    assert set(rule_report_kinds()) >= {"manifests", "chapters", "chapter_supplies", "campaigns",
                                        "components"}


@pytest.mark.parametrize("tree", TREES, ids=[t.name for t in TREES])
def test_every_finding_is_located_in_a_declared_kind(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    register_rules()
    monkeypatch.chdir(tree)
    session = CheckSession()
    session.load([Path(".")], whole_corpus=False)
    corpus = session.build_corpus()
    kind_of = {d.display: d.kind for d in (*corpus.documents, *corpus.partial)}
    checks = dict(rule_checks())
    for name, located_in in rule_report_kinds().items():
        for diagnostic in checks[name](corpus):
            assert kind_of.get(diagnostic.location.path) in located_in, (
                name, diagnostic.code, diagnostic.location.path)


def _one_file_reports(tree: Path) -> list[tuple[object, ...]]:
    found = []
    for path in sorted(tree.rglob("*.yaml"))[::7]:
        report = run_check(CheckOptions(paths=(path,), cache_dir=None))
        found += [(path.name, d.code, d.location.path, d.location.line, d.message)
                  for d in report.sorted()]
    return found


def test_single_files_report_the_same_with_and_without_skipping(
        monkeypatch: pytest.MonkeyPatch) -> None:
    register_rules()
    monkeypatch.chdir(ROOT)
    content = Path("content")
    assert os.path.isdir(content)
    skipping = _one_file_reports(content)
    monkeypatch.setattr(session_module, "rule_report_kinds", dict)
    assert _one_file_reports(content) == skipping
    assert any(code in {"DM211", "DM218", "DM222"} for _, code, *_ in skipping)

"""The check cache: a second run replays the first; any change is seen; a bad cache is ignored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from storygraph_support import analyses_recorded

from dmtool.validation.cache import CheckCache
from dmtool.validation.pipeline import CheckOptions, run_check

ROOT = Path(__file__).resolve().parents[1]


def _tree(tmp_path: Path) -> Path:
    """A small copy of the DM202 case: one document with a broken reference."""
    folder = tmp_path / "tests" / "cases" / "case"
    shutil.copytree(ROOT / "tests" / "cases" / "DM202", folder)
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    return folder


def _codes(folder: Path, cache: Path) -> list[tuple[str, int, int]]:
    report = run_check(CheckOptions(paths=(folder,), cache_dir=cache))
    return sorted((d.code, d.location.line, d.location.column) for d in report.diagnostics)


def test_second_run_replays_the_same_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.chdir(folder)
    first = _codes(Path("."), cache)
    assert first == [("DM202", 7, 16)]
    assert list(cache.glob("check-*.cache"))
    # Replaying must not run the rules: break them and run again.
    monkeypatch.setattr("dmtool.validation.session.CheckSession.report", None)
    assert _codes(Path("."), cache) == first


def test_a_changed_file_is_checked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.chdir(folder)
    assert _codes(Path("."), cache) == [("DM202", 7, 16)]
    document = folder / "dangling.yaml"
    text = document.read_text(encoding="utf-8").replace("  - gain_coda: a-coda-nobody-wrote\n", "  - lose_health: 1\n")
    document.write_text(text, encoding="utf-8")
    assert _codes(Path("."), cache) == []


def test_unchanged_files_come_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    (folder / "other.yaml").write_text(
        "# yaml-language-server: $schema=../../../schemas/devour-card.schema.json\n"
        "kind: devour-card\nid: other\nicons: [red]\ntext: Another hunger.\n", encoding="utf-8")
    cache = tmp_path / "cache"
    monkeypatch.chdir(folder)
    _codes(Path("."), cache)
    parsed: list[str] = []
    from dmtool.validation import pipeline

    original = pipeline.check_decoded
    monkeypatch.setattr(pipeline, "check_decoded", lambda text, problems, path, *a, **k: (
        parsed.append(path.name) or original(text, problems, path, *a, **k)))
    (folder / "other.yaml").write_text((folder / "other.yaml").read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert _codes(Path("."), cache) == [("DM202", 7, 16)]
    assert parsed == ["other.yaml"]


def test_a_corrupt_cache_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.chdir(folder)
    _codes(Path("."), cache)
    for stored in cache.glob("check-*.cache"):
        stored.write_bytes(b"\x00not marshal at all")
    assert _codes(Path("."), cache) == [("DM202", 7, 16)]


def test_no_cache_directory_means_no_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(folder)
    assert _codes(Path("."), None) == [("DM202", 7, 16)]  # type: ignore[arg-type]
    assert not (folder / ".dmtool-cache").exists()
    assert not CheckCache.open(None, schema_dir=ROOT / "schemas").enabled


def test_a_storybook_left_unchanged_keeps_its_analysis_by_values_through_every_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that answers a storybook from the memo keyed by its documents' contents keeps
    the memo keyed by the context's values too: else the next edit to a coda's title, which
    that second memo exists for, analysed the book again (a one-file pre-commit run right
    after a whole check took twice as long as the one after it)."""
    shutil.copytree(ROOT / "content", tmp_path / "content")
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    analysed = analyses_recorded(monkeypatch)
    coda = Path("content/wanderers/hollis-brandt/codas/a-boys-blueprint.yaml")
    whole = CheckOptions(paths=(Path("content"),), cache_dir=cache)
    one_file = CheckOptions(paths=(coda,), cache_dir=cache)

    def retitle(prefix: str) -> None:
        coda.write_text(coda.read_text(encoding="utf-8").replace("title: ", f"title: {prefix} ", 1),
                        encoding="utf-8")

    run_check(whole)
    assert "content/wanderers/hollis-brandt/storybook.yaml" in analysed
    retitle("1")
    run_check(one_file)  # answered by the context's values: a title is none of them
    run_check(whole)  # answered by the documents' contents, which the last run recorded
    analysed.clear()
    retitle("2")
    report = run_check(one_file)
    assert analysed == []
    assert report.diagnostics == run_check(CheckOptions(paths=(coda,))).diagnostics

"""Discovery: which files under the given paths are content, and what is reported instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dmtool.loading import discover


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("kind: coda\n")
    return path


def names(paths: list[Path], root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in paths]


def test_yaml_files_are_found_sorted_by_path_and_hidden_folders_skipped(tmp_path: Path) -> None:
    for name in ["b.yaml", "a/z.yml", "a-b/c.yaml", "a/UPPER.YAML", "notes.txt",
                 ".git/x.yaml", ".venv/lib/y.yaml", "a/.hidden.yaml"]:
        touch(tmp_path / name)
    files, problems = discover([tmp_path])
    assert problems == []
    # Sorted by path components: a/... comes before a-b/... .
    assert names(files, tmp_path) == ["a/UPPER.YAML", "a/z.yml", "a-b/c.yaml", "b.yaml"]


def test_the_same_file_reached_twice_is_listed_once(tmp_path: Path) -> None:
    real = touch(tmp_path / "content" / "a.yaml")
    (tmp_path / "content" / "z-link.yaml").symlink_to(real)
    files, problems = discover([tmp_path / "content", real, tmp_path / "content" / "a.yaml"])
    assert problems == []
    assert files == [real]


def test_an_explicit_file_is_taken_whatever_its_suffix(tmp_path: Path) -> None:
    path = touch(tmp_path / "odd.txt")
    assert discover([path]) == ([path], [])


def test_a_missing_path_is_dm010(tmp_path: Path) -> None:
    files, problems = discover([tmp_path / "missing"])
    assert files == []
    assert [(d.code, d.location.line, d.location.column) for d in problems] == [("DM010", 1, 1)]
    assert "does not exist" in problems[0].message


def test_dangling_and_looping_links_are_reported_not_followed(tmp_path: Path) -> None:
    touch(tmp_path / "ok.yaml")
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "gone.yaml")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "gone.txt")  # not content: ignored
    (tmp_path / "self").symlink_to(tmp_path / "self")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path)
    files, problems = discover([tmp_path])
    assert names(files, tmp_path) == ["ok.yaml"]
    reported = sorted((Path(d.location.path).name, d.code) for d in problems)
    assert reported == [("dangling.yaml", "DM010"), ("self", "DM010"), ("up", "DM010")]
    messages = " ".join(d.message for d in problems)
    assert "does not exist" in messages and "loop" in messages
    assert "back into a directory that contains it" in messages


def test_a_linked_directory_elsewhere_is_followed(tmp_path: Path) -> None:
    touch(tmp_path / "shared" / "x.yaml")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "shared").symlink_to(tmp_path / "shared")
    files, problems = discover([tmp_path / "content"])
    assert problems == []
    assert names(files, tmp_path) == ["content/shared/x.yaml"]


def test_an_unlistable_directory_is_dm010(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    touch(locked / "a.yaml")
    touch(tmp_path / "ok.yaml")
    real_scandir = os.scandir

    def scandir(path: object) -> object:
        if Path(str(path)) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    files, problems = discover([tmp_path])
    assert names(files, tmp_path) == ["ok.yaml"]
    assert [(d.code, d.location.path) for d in problems] == [("DM010", locked.as_posix())]
    assert "permission denied" in problems[0].message


def test_deep_directory_trees_do_not_recurse(tmp_path: Path) -> None:
    deep = tmp_path
    for _ in range(60):
        deep = deep / "d"
    touch(deep / "bottom.yaml")
    files, _ = discover([tmp_path])
    assert [p.name for p in files] == ["bottom.yaml"]

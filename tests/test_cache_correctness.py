"""The check cache never changes an answer: every stale or damaged cache gives the --no-cache one.

Each test reproduces a way users met a stale or broken cache (issue 11): a same-size edit
with the modification time put back, a copy made with `cp -p`, two trees sharing one cache
folder, an unreadable file, a moved schemas folder, a retargeted symbolic link, and cache
files of the wrong shape or with flipped bits. The answer with the cache must equal the
answer without it, on the run that meets the damage and on the run after it.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from dmtool.loading import reading
from dmtool.validation import cache as cache_module
from dmtool.validation.pipeline import CheckOptions, run_check

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_LINE = "# yaml-language-server: $schema=../../schemas/{}.schema.json\n"
GOOD = SCHEMA_LINE.format("coda") + (
    "kind: coda\nid: quiet-hour\nwanderer: nobody\ntitle: The Quiet Hour\n"
    "effects:\n  - modify_sentience: {red: 1}\nback: [red, blue]\n")
# The same number of bytes as GOOD, with the kind misspelt (DM015 without a cache).
BAD = GOOD.replace("kind: coda\n", "kind: cod@\n")

Answer = list[tuple[str, str, int, int, str]]


def _tree(base: Path, text: str = GOOD) -> Path:
    """base/content/codas/quiet-hour.yaml beside base/schemas (a link to the real schemas)."""
    (base / "content" / "codas").mkdir(parents=True)
    (base / "schemas").symlink_to(ROOT / "schemas")
    (base / "content" / "codas" / "quiet-hour.yaml").write_text(text, encoding="utf-8")
    return base / "content"


def _answer(folder: Path, cache: Path | None) -> Answer:
    report = run_check(CheckOptions(paths=(folder,), cache_dir=cache))
    return sorted((d.code, d.location.path, d.location.line, d.location.column, d.message)
                  for d in report.diagnostics)


def _agrees(folder: Path, cache: Path) -> Answer:
    """The cached answer, asserted equal to the uncached one (on this run and the next)."""
    fresh = _answer(folder, None)
    assert _answer(folder, cache) == fresh
    assert _answer(folder, cache) == fresh
    return fresh


def _codes(answer: Answer) -> set[str]:
    return {code for code, *_ in answer}


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_same_size_edit_with_the_time_put_back_is_seen(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    document = folder / "codas" / "quiet-hour.yaml"
    before = document.stat()
    assert "DM015" not in _codes(_agrees(folder, cache))
    document.write_text(BAD, encoding="utf-8")
    os.utime(document, ns=(before.st_atime_ns, before.st_mtime_ns))  # what `touch -r` does
    assert document.stat().st_size == before.st_size
    assert document.stat().st_mtime_ns == before.st_mtime_ns
    assert "DM015" in _codes(_agrees(folder, cache))


def test_a_copy_made_with_cp_p_is_seen(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    document = folder / "codas" / "quiet-hour.yaml"
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text(BAD, encoding="utf-8")
    os.utime(elsewhere, ns=(document.stat().st_atime_ns, document.stat().st_mtime_ns))
    assert _agrees(folder, cache)[0:0] == []
    subprocess.run(["cp", "-p", str(elsewhere), str(document)], check=True)
    assert "DM015" in _codes(_agrees(folder, cache))


def test_two_trees_sharing_one_cache_folder_keep_their_own_answers(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean = _tree(tmp_path / "one")
    broken = _tree(tmp_path / "two", BAD)
    same = (clean / "codas" / "quiet-hour.yaml").stat().st_mtime_ns
    os.utime(broken / "codas" / "quiet-hour.yaml", ns=(same, same))
    for _ in range(2):
        monkeypatch.chdir(tmp_path / "one")
        assert "DM015" not in _codes(_agrees(Path("content"), cache))
        monkeypatch.chdir(tmp_path / "two")
        assert "DM015" in _codes(_agrees(Path("content"), cache))


def test_an_unreadable_file_is_reported(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    document = folder / "codas" / "quiet-hour.yaml"
    _agrees(folder, cache)
    document.chmod(0)
    if os.geteuid() == 0:
        # Root reads any file, so pretend to be an ordinary user for this one: the
        # permission check and the open both refuse it, as they would for a user.
        _deny_reading(document, monkeypatch)
    try:
        assert "DM010" in _codes(_agrees(folder, cache))
    finally:
        document.chmod(stat.S_IRUSR | stat.S_IWUSR)


def _deny_reading(document: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    denied = os.path.realpath(document)
    real_access, real_open = os.access, reading.open_for_reading

    def access(path: object, mode: int, *args: object, **kwargs: object) -> bool:
        if os.path.realpath(os.fspath(path)) == denied and mode & os.R_OK:  # type: ignore[arg-type]
            return False
        return real_access(path, mode, *args, **kwargs)  # type: ignore[arg-type]

    def opener(path: Path):  # type: ignore[no-untyped-def]
        if os.path.realpath(path) == denied:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(reading, "open_for_reading", opener)


def test_moving_the_schemas_a_modeline_points_to_is_seen(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert "DM018" not in _codes(_agrees(folder, cache))
    (tmp_path / "schemas").rename(tmp_path / "schemas-moved")
    assert "DM018" in _codes(_agrees(folder, cache))
    (tmp_path / "schemas-moved").rename(tmp_path / "schemas")
    assert "DM018" not in _codes(_agrees(folder, cache))


def test_a_retargeted_symbolic_link_is_seen(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    document = folder / "codas" / "quiet-hour.yaml"
    targets = tmp_path / "drafts"
    targets.mkdir()
    (targets / "good.yaml").write_text(GOOD.replace("../../", "../content/../"), encoding="utf-8")
    (targets / "bad.yaml").write_text(BAD.replace("../../", "../content/../"), encoding="utf-8")
    when = (targets / "good.yaml").stat().st_mtime_ns
    os.utime(targets / "bad.yaml", ns=(when, when))
    document.unlink()
    document.symlink_to(targets / "good.yaml")
    assert "DM015" not in _codes(_agrees(folder, cache))
    document.unlink()
    document.symlink_to(targets / "bad.yaml")
    assert "DM015" in _codes(_agrees(folder, cache))


def _cache_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("check-*"))


def test_cache_files_of_the_wrong_shape_are_ignored(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    folder = _tree(tmp_path, BAD)
    monkeypatch.chdir(tmp_path)
    expected = _agrees(folder, cache)
    [stored] = _cache_files(cache)
    shapes: list[object] = [
        {}, [], None, 7, {"files": 1, "runs": 2}, {"files": {"x": (1, 2)}, "runs": {"k": 5}},
        {"paths": {str(folder): "nonsense"}, "records": {"r": (1,)}, "runs": {"k": ()}},
    ]
    for shape in shapes:
        for payload in (marshal.dumps(shape), cache_module.frame(marshal.dumps(shape))):
            stored.write_bytes(payload)
            assert _answer(folder, cache) == expected
            assert _answer(folder, cache) == expected
    # A well-framed cache whose records are all of the wrong shape, one field at a time.
    _answer(folder, cache)
    good = cache_module.unframe(stored.read_bytes())
    assert good is not None
    contents = marshal.loads(good)
    for section in ("paths", "records", "runs"):
        for key in list(contents[section]):
            damaged = dict(contents, **{section: {key: ("wrong", None)}})
            stored.write_bytes(cache_module.frame(marshal.dumps(damaged)))
            assert _answer(folder, cache) == expected


def test_every_single_bit_flip_gives_the_uncached_answer(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path, BAD)
    (folder / "codas" / "other.yaml").write_text(GOOD.replace("quiet-hour", "loud-hour"),
                                                 encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    expected = _agrees(folder, cache)
    [stored] = _cache_files(cache)
    pristine = stored.read_bytes()
    flips = 150
    for n in range(flips):
        bit = (n * 7919) % (len(pristine) * 8)  # spread over the whole file
        damaged = bytearray(pristine)
        damaged[bit // 8] ^= 1 << (bit % 8)
        stored.write_bytes(bytes(damaged))
        assert _answer(folder, cache) == expected, f"bit {bit}"
        assert _answer(folder, cache) == expected, f"bit {bit}, the run after"


def test_concurrent_runs_on_one_tree_never_corrupt_the_cache(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path, BAD)
    for n in range(12):
        (folder / "codas" / f"copy-{n}.yaml").write_text(
            GOOD.replace("quiet-hour", f"copy-{n}"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    expected = _answer(folder, None)
    env = dict(os.environ, DMTOOL_CACHE_DIR=str(cache))
    command = [sys.executable, "-m", "dmtool.cli", "check", "--format", "json", "content"]
    for round_number in range(3):
        runs = [subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) for _ in range(4)]
        # Edit while they run, so the runs see and store different states.
        (folder / "codas" / "copy-0.yaml").write_text(
            GOOD.replace("quiet-hour", "copy-0") + f"# edit {round_number}\n", encoding="utf-8")
        for run in runs:
            _, err = run.communicate(timeout=120)
            assert run.returncode == 1, err.decode()
            assert b"internal error" not in err
    assert _answer(folder, cache) == _answer(folder, None) != []
    assert _codes(expected) == _codes(_answer(folder, cache))
    assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")]


def test_a_cache_folder_that_cannot_be_written_only_costs_speed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path, BAD)
    monkeypatch.chdir(tmp_path)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    assert _answer(folder, blocked) == _answer(folder, None)
    shutil.rmtree(folder.parent / "content" / "codas")
    (folder / "codas").mkdir()
    assert _answer(folder, blocked) == _answer(folder, None)

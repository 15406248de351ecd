"""Reading files: what is refused before any YAML is parsed, and where it is located."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dmtool.loading import read_document, reading


def refusal(path: Path, **options: int) -> tuple[str, int, int, str]:
    result = read_document(path, "shown.yaml", **options)
    assert result.document is None
    (diagnostic,) = result.diagnostics
    location = diagnostic.location
    assert location.path == "shown.yaml"
    return diagnostic.code, location.line, location.column, diagnostic.message


def write(tmp_path: Path, raw: bytes, name: str = "f.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(raw)
    return path


@pytest.mark.parametrize(("bom", "name"), [
    (b"\xff\xfe", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
])
def test_dm007_utf16_and_utf32_are_named_in_the_message(
    tmp_path: Path, bom: bytes, name: str
) -> None:
    codec = "utf-16-le" if "16" in name else "utf-32-le"
    path = write(tmp_path, bom + "kind: coda\n".encode(codec))
    code, line, column, message = refusal(path)
    assert (code, line, column) == ("DM007", 1, 1)
    assert name in message


def test_dm007_invalid_utf8_is_located_at_the_bad_byte(tmp_path: Path) -> None:
    path = write(tmp_path, b"kind: coda\ntitle: Ca" + b"\xe9" + b"sar\n")
    code, line, column, message = refusal(path)
    assert (code, line, column) == ("DM007", 2, 10)
    assert "0xe9" in message


def test_dm007_column_counts_characters_before_the_bad_byte(tmp_path: Path) -> None:
    path = write(tmp_path, "é: ü".encode() + b"\xff\n")
    assert refusal(path)[:3] == ("DM007", 1, 5)


def test_dm008_nul_byte_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, b"kind: coda\nid: a\x00b\n")
    assert refusal(path)[:3] == ("DM008", 2, 6)


def test_dm008_utf16_without_a_byte_order_mark_is_caught_as_nul_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, "kind: coda\n".encode("utf-16-le"))
    assert refusal(path)[:3] == ("DM008", 1, 2)


def test_dm009_size_is_checked_with_stat_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:  # sparse: costs no disk and no reading
        handle.truncate(reading.MAX_BYTES + 1)
    opened: list[Path] = []
    original_open = Path.open

    def spy(self: Path, *args: object, **kwargs: object) -> object:
        opened.append(self)
        return original_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", spy)
    code, line, column, message = refusal(path)
    assert (code, line, column) == ("DM009", 1, 1)
    assert "64.0 MiB" in message
    assert "max-file-size" in message and "dmtool.toml" in message
    assert opened == []


def test_dm009_limit_can_be_lowered(tmp_path: Path) -> None:
    path = write(tmp_path, b"kind: coda\nid: a-rather-long-id\n")
    code, _, _, message = refusal(path, max_bytes=16)
    assert code == "DM009"
    assert "16 bytes" in message
    assert read_document(path, max_bytes=1024).document is not None


def test_dm010_missing_file(tmp_path: Path) -> None:
    code, line, column, message = refusal(tmp_path / "nope.yaml")
    assert (code, line, column) == ("DM010", 1, 1)
    assert "does not exist" in message


def test_dm010_directory(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").mkdir()
    code, _, _, message = refusal(tmp_path / "d.yaml")
    assert code == "DM010" and "directory" in message


def test_dm010_dangling_symlink(tmp_path: Path) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to(tmp_path / "gone.yaml")
    code, _, _, message = refusal(link)
    assert code == "DM010" and "gone.yaml" in message and "does not exist" in message


def test_dm010_symlink_loop(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    code, _, _, message = refusal(tmp_path / "a.yaml")
    assert code == "DM010" and "loop" in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_dm010_a_named_pipe_is_never_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    code, _, _, message = refusal(fifo)  # opening it would block forever
    assert code == "DM010" and "not a regular file" in message


def test_dm010_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, b"kind: coda\n")
    if os.geteuid() != 0:
        path.chmod(0)
    else:  # root reads anything: simulate the refusal the way the OS reports it

        def denied(self: Path, *args: object, **kwargs: object) -> object:
            raise PermissionError(13, "Permission denied", str(self))

        monkeypatch.setattr(Path, "open", denied)
    code, _, _, message = refusal(path)
    assert code == "DM010" and "Permission denied" in message


@pytest.mark.parametrize(("grown", "limit", "refused"), [
    (b"kind: coda\nid: grown\n", 1024, False), (b"kind: coda\nid: grown\n" * 8, 64, True)])
def test_a_file_that_grows_after_its_stat_is_read_whole_up_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grown: bytes, limit: int, refused: bool
) -> None:
    path = write(tmp_path, b"kind: coda\n")
    original_open = reading.open_for_reading

    def grow_then_open(where: Path) -> object:
        where.write_bytes(grown)  # between the stat and the read
        return original_open(where)

    monkeypatch.setattr(reading, "open_for_reading", grow_then_open)
    raw, problem = reading.read_bytes(path, "shown.yaml", limit)
    if refused:
        assert raw is None and problem is not None and problem.code == "DM009"
        assert f"{limit + 1:,} bytes" in problem.message
    else:
        assert raw == grown and problem is None

"""Differential test: the C parser (libyaml) and ruamel.yaml's pure Python parser agree.

dmtool reads with the C parser; the pure parser is the fallback where the C extension
cannot be installed. Every YAML file of the corpus and of the diagnostic cases must give
the same data, and the same diagnostics, whichever parser reads it; and the fast pass
(data only) must agree with the positions pass.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from dmtool.loading import builder, load_text
from dmtool.loading.builder import build
from dmtool.loading.reading import read_text

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(
    p for folder in (ROOT / "content", ROOT / "tests" / "cases") if folder.is_dir()
    for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
)


def _outcome(text: str) -> tuple[object, list[tuple[str, int, int]]]:
    result = load_text(text, display="f.yaml")
    data = None if result.document is None else result.document.data
    return data, [(d.code, d.location.line, d.location.column) for d in result.diagnostics]


@pytest.mark.skipif(not FILES, reason="no content or case files yet")
@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_c_and_pure_parsers_read_the_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, problems = read_text(path, "f.yaml")
    if text is None:
        pytest.skip(f"not text: {problems[0].code}")
    with_c = _outcome(text)
    monkeypatch.setattr(builder, "event_source",
                        functools.partial(builder.event_source, pure=True))
    with_pure = _outcome(text)
    if with_c[1] and with_c[1][0][0] == "DM001":
        # Both must refuse a syntax error, though their messages and positions differ.
        assert with_pure[0] is None and with_pure[1]
    else:
        assert with_pure == with_c


@pytest.mark.skipif(not FILES, reason="no content or case files yet")
@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_fast_and_positions_passes_build_the_same_data(path: Path) -> None:
    text, _ = read_text(path, "f.yaml")
    if text is None:
        pytest.skip("not text")
    with_positions = build(text, display="f.yaml", positions=True)
    try:
        fast = build(text, display="f.yaml", positions=False)
    except builder.NeedsPositions:
        assert with_positions.diagnostics, "the fast pass gave up on a clean file"
        return
    assert fast.diagnostics == []
    assert fast.data == with_positions.data

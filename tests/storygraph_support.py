"""Small storybooks for the storygraph tests: written as YAML so findings have real lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml as _yaml  # PyYAML, only to write test files

from dmtool.loading import read_document
from dmtool.model.storybook import Storybook
from dmtool.packaged import GAME_FOLDERS
from dmtool.storygraph.analysis import Analysis, analyse
from dmtool.storygraph.context import StoryContext


class _NoAliases(_yaml.SafeDumper):
    """Content files may not use anchors, so shared test objects are written out in full."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


HEADER = "# yaml-language-server: $schema=../schemas/storybook.schema.json\n"


def entry(
    number: int, effects: list[Any], kind: str = "exploration", **extra: Any
) -> dict[str, Any]:
    return {
        "entry": number,
        "kind": kind,
        "title": f"Entry {number}",
        "text": "Words.",
        "effects": effects,
        **extra,
    }


def ending(
    letter: str, start: int, conclusions: list[int], legacy: str | None = None
) -> dict[str, Any]:
    return {
        "ending": letter,
        "title": f"Ending {letter}",
        "setup": {"text": "Set up."},
        "rules": "Rules.",
        "event_phase": {"text": "Each round."},
        "goals": "Goals.",
        "start": start,
        "conclusions": [
            {"entry": c, "title": f"Conclusion {c}", **({"legacy": legacy} if legacy else {})}
            for c in conclusions
        ],
    }


def finale(letter: str, start: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A finale start entry and its one conclusion (start + 1) for an ending."""
    legacy = f"legacy-{letter.lower()}"
    return (
        [
            entry(start, [{"goto": start + 1}], kind="finale"),
            entry(start + 1, [{"conclude": legacy}], kind="conclusion"),
        ],
        ending(letter, start, [start + 1], legacy),
    )


def storybook_data(
    entries: list[dict[str, Any]], endings: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    """A storybook; without `endings`, four plain finales at 901/911/921/931 are added."""
    entries = list(entries)
    if endings is None:
        endings = []
        for i, letter in enumerate("ABCD"):
            more, end = finale(letter, 901 + 10 * i)
            entries += more
            endings.append(end)
    return {
        "kind": "storybook",
        "id": "test-book",
        "wanderer": "tester",
        "title": "Test Book",
        "introduction": "Once.",
        **extra,
        "entries": entries,
        "endings": endings,
    }


def write(path: Path, data: dict[str, Any], header: str = HEADER) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = _yaml.dump(data, Dumper=_NoAliases, sort_keys=False, default_flow_style=None, width=100)
    path.write_text(header + text, encoding="utf-8")
    return path


def load(path: Path) -> Storybook:
    document = read_document(path, path.name).document
    assert document is not None
    return Storybook.from_document(document)


def analysed(
    tmp_path: Path,
    entries: list[dict[str, Any]],
    endings: list[dict[str, Any]] | None = None,
    context: StoryContext | None = None,
    **extra: Any,
) -> Analysis:
    path = write(tmp_path / "storybook.yaml", storybook_data(entries, endings, **extra))
    return analyse(load(path), context)


def codes(analysis: Analysis, prefix: str = "DM3") -> list[tuple[str, int]]:
    """(code, line) of each finding, sorted."""
    return sorted(
        (d.code, d.location.line) for d in analysis.diagnostics if d.code.startswith(prefix)
    )


def line_of(path: Path, needle: str, nth: int = 1) -> int:
    """The 1-based line of the nth line containing `needle`."""
    hits = [
        i
        for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if needle in text
    ]
    return hits[nth - 1]


def clean_entries() -> list[dict[str, Any]]:
    """An event entry whose choice can favour any ending, so a storybook analyses clean."""
    return [
        entry(
            1,
            [
                {
                    "choice": [
                        {"label": f"Side with {e}", "effects": [{"score": {e: 1}}]} for e in "ABCD"
                    ]
                },
                {"end": "event"},
            ],
            kind="event",
        )
    ]


# A small content tree in which everything but the storybook is complete and clean: the
# wanderer Mara and her cards, as the tests/cases folders use them.
CASE_TREE = Path(__file__).parent / "cases" / "DM303-condition"
CASE_HEADER = "# yaml-language-server: $schema=../../../schemas/{}.schema.json\n"


def content_tree(tmp_path: Path, entries: list[dict[str, Any]]) -> Path:
    """content/wanderers/mara/ with Mara's cards and a storybook of `entries` (plus four
    finales at 901/911/921/931 that conclude with her one legacy card); `schemas/` beside
    content/ so the modelines resolve. Returns the storybook's path."""
    import shutil

    folder = tmp_path / "content" / "wanderers" / "mara"
    folder.mkdir(parents=True, exist_ok=True)
    for game in GAME_FOLDERS:  # games of its own (none), as tests/cases' Mara: the packaged
        (tmp_path / "content" / game).mkdir(exist_ok=True)  # games' round trackers stay out
    for source in CASE_TREE.glob("*.yaml"):
        if source.name != "storybook.yaml":
            shutil.copyfile(source, folder / source.name)
    schemas = tmp_path / "schemas"
    if not schemas.exists():
        shutil.copytree(Path(__file__).parents[1] / "schemas", schemas)
    entries = list(entries)
    endings = []
    for i, letter in enumerate("ABCD"):
        start = 901 + 10 * i
        entries += [
            entry(start, [{"goto": start + 1}], kind="finale"),
            entry(start + 1, [{"conclude": "mara-legacy-a"}], kind="conclusion"),
        ]
        endings.append(ending(letter, start, [start + 1]))
    data = storybook_data(entries, endings, id="mara-book", wanderer="mara")
    return write(folder / "storybook.yaml", data, CASE_HEADER.format("storybook"))


def analyses_recorded(monkeypatch: Any) -> list[str]:
    """Record the storybooks the story graph rule analyses from now on (their display paths)."""
    from dmtool.storygraph import rule as storygraph

    analysed_books: list[str] = []
    original = storygraph._Context.analyse

    def counting(self, document):  # type: ignore[no-untyped-def]
        analysed_books.append(document.display)
        return original(self, document)

    monkeypatch.setattr(storygraph._Context, "analyse", counting)
    return analysed_books


def planted_copy(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of the real content tree under tmp_path with each named file's text replaced
    once (the text must be there exactly once); returns the copy's content folder."""
    import shutil

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "content", tmp_path / "content")
    (tmp_path / "schemas").symlink_to(root / "schemas")
    for name, (old, new) in edits.items():
        path = tmp_path / "content" / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "content"

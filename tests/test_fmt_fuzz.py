"""The formatter never changes data: a differential fuzz (formatted text vs original text,
each read by dmtool's loader on its own) over mutants of every content file and over
documents generated from the content vocabulary, plus the cases that once changed data."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dmtool.authoring import FormatError, format_text
from dmtool.authoring import fmt as fmt_module
from dmtool.authoring._scalars import _plain_ok, analysed_plain_ok
from dmtool.authoring.keyorder import KeyOrder
from dmtool.loading import load_text

REPO = Path(__file__).resolve().parents[1]
ORDER = KeyOrder(REPO / "schemas")
CONTENT_FILES = sorted((REPO / "content").rglob("*.yaml"))
# Refusals that mean "the formatter has a bug"; others are constructs it leaves alone.
BUG = "a dmtool bug"


def _data(text: str) -> object:
    loaded = load_text(text)
    return None if loaded.document is None else loaded.document.data


def _same(a: object, b: object) -> bool:
    """Equal with equal types all the way down (1, 1.0 and True differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(  # type: ignore[union-attr]
            _same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    return a == b


def assert_keeps_data(text: str) -> str | None:
    """Format `text` if dmtool loads it: same data, stable, or a refusal that is no bug."""
    before = _data(text)
    if before is None:
        return None
    try:
        once = format_text(text, order=ORDER)
    except FormatError as refused:
        assert BUG not in str(refused), f"{refused}\n--- input ---\n{text}"
        return None
    after = _data(once)
    assert after is not None, f"the formatted text does not load:\n{once}"
    assert _same(_sorted(before), _sorted(after)), f"data changed:\n{text!r}\n->\n{once!r}"
    assert format_text(once, order=ORDER) == once, f"not stable:\n{once}"
    return once


def _sorted(value: object) -> object:
    """Key order is the formatter's to choose; everything else must stay."""
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


# -- the cases that changed data before ------------------------------------------------


@pytest.mark.parametrize("header", ["|", "|+", "|-", ">", ">+", "|2", "|2+"])
@pytest.mark.parametrize("where", ["root", "nested", "list"])
def test_a_block_scalar_ending_the_file_without_a_line_break_keeps_its_value(
        header: str, where: str) -> None:
    body = {"root": f"kind: coda\nid: x\ntext: {header}\n  Wiped clean.",
            "nested": f"kind: coda\nid: x\ncard:\n  text: {header}\n    Wiped\n    clean.",
            "list": f"kind: coda\nid: x\nlines:\n  - {header}\n    Wiped clean."}[where]
    once = assert_keeps_data(body)
    assert once is not None and once.endswith("\n")
    assert "Wiped clean." in json.dumps(_data(once)) or "Wiped\\nclean." in json.dumps(_data(once))


def test_the_self_check_reads_the_original_text_not_a_tidied_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An emitter that changes a value is caught, even where tidying the input (a final
    newline added) would have hidden it."""
    real_emit = fmt_module.emit

    def careless(source: object, order: KeyOrder, *, width: int, open_end: bool = False) -> str:
        return real_emit(source, order, width=width)  # forgets the open end

    monkeypatch.setattr(fmt_module, "emit", careless)
    with pytest.raises(FormatError, match="would change the data"):
        format_text("kind: coda\nid: x\ntext: |\n  Wiped clean.", order=ORDER)


# -- mutants of every content file -----------------------------------------------------

AWKWARD = ["yes", "no", "on", "~", "null", "1", "0o17", "1_000", "2024-01-01", "-x", "? q",
           ": c", "a: b", "a #b", "#x", "it's", 'say "hi"', "%pct", "@at", "`tick", "*star",
           "&amp", "!bang", "|pipe", ">gt", "[x]", "{y}", "x, y", "tab\there", "é ü — ß",
           "שלום עולם", "مرحبا", "back\\slash", " lead", "trail ", "x" * 130]


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(
    st.from_regex(r"[A-Za-z][A-Za-z0-9 ,.'()-]{0,20}", fullmatch=True),
    st.sampled_from(["y", "N", "Yes", "NO", "on", "Off", "true", "FALSE", "null", "Null",
                     "x, y", "a.", "b)", "e-", "it's"])))
def test_the_plain_scalar_shortcut_agrees_with_the_full_analysis(value: str) -> None:
    for flow in (False, True):
        assert _plain_ok(value, flow=flow) == analysed_plain_ok(value, flow=flow), (value, flow)


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(st.sampled_from(AWKWARD), st.text(max_size=12), st.from_regex(
    r"[-?:#,&*!|>'\"%@` a-z\n\t]{0,6}(: | #|:)?[a-z]{0,4}", fullmatch=True)))
def test_the_quick_rejections_agree_with_the_full_analysis(value: str) -> None:
    assume("\x85" not in value)  # the formatter refuses that character anyway
    for flow in (False, True):
        assert _plain_ok(value, flow=flow) == analysed_plain_ok(value, flow=flow), (value, flow)


def _scalar_spellings(value: str) -> list[str]:
    return [json.dumps(value, ensure_ascii=False), "'" + value.replace("'", "''") + "'", value]


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    where = rng.randrange(len(lines))
    line = lines[where]
    indent = " " * (len(line) - len(line.lstrip(" ")))
    operation = rng.randrange(16)
    if operation == 0:
        return text.rstrip("\n")
    if operation in (14, 15):  # end the file inside a block scalar, with or without a break
        header = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2"])
        body = "\n".join("  " + part for part in rng.choice(AWKWARD).split("\n"))
        return text.rstrip("\n") + f"\nlast_words: {header}\n{body}" + "\n" * (operation - 14)
    if operation == 1:
        return text.replace("\n", "\r\n")
    if operation == 2:
        return "\ufeff" + text
    if operation == 3:
        lines[where] += rng.choice(["  ", "\t", " "])
    elif operation == 4:
        lines[where:where] = [""] * rng.randint(1, 3)
    elif operation == 5:
        lines.insert(where, " " * rng.randint(0, 8) + "# a note " + rng.choice(AWKWARD))
    elif operation == 6 and line.strip() and "|" not in line and ">" not in line:
        lines[where] += "  # " + rng.choice(AWKWARD)
    elif operation == 7:
        lines.insert(where, line)
    elif operation == 8 and len(lines) > 1:
        del lines[where]
    elif operation == 9 and where + 1 < len(lines):
        lines[where], lines[where + 1] = lines[where + 1], lines[where]
    elif operation in (10, 11) and ": " in line and not line.rstrip().endswith((":", "|", ">")):
        key = line.split(": ", 1)[0]
        value = rng.choice(AWKWARD)
        lines[where] = key + ": " + rng.choice(_scalar_spellings(value))
    elif operation == 12 and ": " in line:
        key = line.split(": ", 1)[0]
        header = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2", "|1-"])
        pad = indent + "  "
        body = [pad + rng.choice(["", " "]) + w for w in rng.choice(AWKWARD).split("\n")]
        lines[where:where + 1] = [f"{key}: {header}", *body, *[""] * rng.randint(0, 2)]
    elif operation == 13:
        lines[where] = line.replace(": ", ":   ", 1).replace("- ", "-   ", 1)
    return "\n".join(lines)


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_mutants_of_every_content_file_keep_their_data(path: Path) -> None:
    original = path.read_text(encoding="utf-8")
    assert assert_keeps_data(original) == original  # content/ is formatted already
    rng = random.Random(path.relative_to(REPO).as_posix())  # the same mutants every run
    for _ in range(3):
        mutant = original
        for _ in range(rng.randint(1, 3)):
            mutant = _mutate(mutant, rng)
        assert_keeps_data(mutant)


# -- documents generated from the content vocabulary -----------------------------------

_VOCABULARY = json.loads((REPO / "schemas" / "defs.schema.json").read_text(encoding="utf-8"))
_EFFECTS = sorted(
    name for branch in _VOCABULARY.get("$defs", {}).get("effect", {}).get("oneOf", [])
    for name in branch.get("properties", {}))
_KINDS = sorted(p.name.removesuffix(".schema.json") for p in (REPO / "schemas").glob("*.json"))
_KEYS = st.sampled_from(["kind", "id", "title", "text", "name", "effects", "entries", "entry",
                         "pass", "fail", "roll", "choice", "label", "when", "notes",
                         *(_EFFECTS or ["goto", "score"])])
_WORDS = st.sampled_from([*AWKWARD, "The stair hums.", "Read entry 12.", "two\nlines",
                          "a\n\n  indented\n", "ends with break\n", "red", "A", "12", "-3",
                          "0.5", "true"])
_SCALAR = st.one_of(_WORDS, st.integers(-999, 999), st.booleans(), st.none(),
                    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x85\u2028\u2029\ufeff"),
                            max_size=12))
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)), max_leaves=12)


def _render(value: object, indent: int, draw: Callable[[st.SearchStrategy[object]], object]) -> list[str]:
    """`value` as YAML lines in styles picked by `draw` (block or flow, plain, quoted or
    block scalars, comments and blank lines between entries)."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        out: list[str] = []
        for key, item in value.items():
            if draw(st.booleans()) and draw(st.booleans()):
                out.append(pad + "# " + str(draw(_WORDS)).replace("\n", " "))
            out += _entry(pad + _key(key) + ":", item, indent, draw)
        return out
    if isinstance(value, list) and value:
        out = []
        for item in value:
            out += _entry(pad + "-", item, indent, draw)
        return out
    return [pad + _flow(value, draw)]


def _entry(head: str, item: object, indent: int,
           draw: Callable[[st.SearchStrategy[object]], object]) -> list[str]:
    if isinstance(item, (dict, list)) and item and not draw(st.booleans()):
        return [head, *_render(item, indent + draw(st.sampled_from([2, 4])), draw)]
    if isinstance(item, str) and item.strip() and draw(st.booleans()):
        header = draw(st.sampled_from(["|", ">", "|-", "|+", ">-", ">+"]))
        if item.startswith((" ", "\n")) or "\t" in item or "\r" in item:
            return [head + " " + json.dumps(item, ensure_ascii=False)]
        body = [(" " * (indent + 2) + part) if part else "" for part in item.split("\n")]
        return [head + " " + header, *body]
    tail = "  # " + str(draw(_WORDS)).replace("\n", " ") if draw(st.booleans()) else ""
    return [head + " " + _flow(item, draw) + tail]


def _key(key: str) -> str:
    return key if key.replace("_", "").isalnum() else json.dumps(key)


def _flow(value: object, draw: Callable[[st.SearchStrategy[object]], object]) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v, draw)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v, draw) for v in value) + "]"
    if isinstance(value, str):
        return str(draw(st.sampled_from(_scalar_spellings(value))))
    return json.dumps(value)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(kind=st.sampled_from(_KINDS), body=st.dictionaries(_KEYS, _VALUE, min_size=1, max_size=5),
       data=st.data(), ending=st.sampled_from(["\n", "", "\n\n", "  \n"]))
def test_generated_documents_keep_their_data(kind: str, body: dict[str, object],
                                             data: st.DataObject, ending: str) -> None:
    document = {"kind": kind, "id": "generated", **body}
    lines = _render(document, 0, data.draw)
    text = "\n".join(lines) + ending
    assume(_data(text) is not None)
    assert_keeps_data(text)

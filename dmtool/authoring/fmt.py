"""The canonical YAML layout of content files, and `format_text` that produces it.

The layout (what `dmtool fmt` writes):

- the schema modeline is the first line; other opening comments follow it;
- mappings indent by 2; list dashes sit 2 columns in from their parent key and list items
  2 columns in from their dash (ruamel's `indent(mapping=2, sequence=4, offset=2)`):

      entries:
        - entry: 12
          effects:
            - goto: 243

- keys in canonical order: `kind`, `id`, then the order of the schema's `properties`
  (see `dmtool.authoring.keyorder`); keys no schema names keep their order at the end;
- strings plain when unambiguous, else in single quotes, else in double quotes (only
  double quotes can spell escapes such as `\\n`); `True`/`FALSE` become `true`/`false`;
- literal (`|`) and folded (`>`) block scalars keep their style, chomping and line breaks
  and are re-indented 2 columns in from their key or dash;
- flow collections (`{...}`, `[...]`) stay flow while they fit in 100 columns and hold no
  comments, with one space after each comma and colon; longer ones become block style;
- every comment is kept: full-line comments move with the key or item they precede, or
  stay at the end of the block they close; end-of-line comments follow their line after
  two spaces;
- blank lines are kept, at most one in a row and none at the start of a block;
- `---`/`...` markers are dropped; LF line ends, no trailing spaces, one final newline.

`format_text` re-reads its output and refuses (FormatError) unless the data (read by
dmtool's loader from the original text and from the result, each on its own), every
comment and a second formatting pass come out the same, so a bug can never lose content.
A block scalar that ends the file without a line break has no final line break in its
value, so it is written with `-` (strip) once the file gets its final newline.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from ruamel.yaml.error import YAMLError

from dmtool.authoring._emit import emit
from dmtool.authoring._source import Source, SourceError, parse
from dmtool.authoring.keyorder import DuplicateKeyError, KeyOrder
from dmtool.loading import load_text
from dmtool.loading.collector import collector_paused

WIDTH = 100
_COMMENT_SPLIT = re.compile(r"\s+(?=#)")


class FormatError(Exception):
    """The file cannot be formatted safely; it is left as it is."""


def format_text(text: str, *, order: KeyOrder, width: int = WIDTH, verify: bool = True,
                original_data: Any = None) -> str:
    """The canonical layout of one YAML document; raises FormatError if that is not safe.

    With `verify`, a result that differs from `text` is accepted only if dmtool's loader
    reads the same data from both (each parsed from its own text; `original_data` is what
    the loader already read from `text`, if the caller has it), every comment survives,
    and formatting the result again changes nothing.
    """
    original = text.removeprefix("\ufeff")
    normal = original.replace("\r\n", "\n").replace("\r", "\n")
    open_end = not normal.endswith("\n")
    if open_end:
        normal += "\n"
    with collector_paused():
        try:
            source = parse(normal)
            try:
                result = emit(source, order, width=width, open_end=open_end)
                if verify and result != original:
                    _verify(original, source, result, order=order, width=width,
                            original_data=original_data)
            finally:
                # Freed now, while the collector sleeps: woken with millions of objects
                # about, its first pass would walk them all (seconds on a 15 MB file).
                source.release()
                del source
        except (SourceError, DuplicateKeyError) as exc:
            raise FormatError(str(exc)) from exc
        except YAMLError as exc:  # normally caught earlier by dmtool's loader
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise FormatError(
                f"the formatter's YAML parser cannot read this file ({problem})") from exc
    return result




def _verify(original: str, before: Source, after: str, *, order: KeyOrder, width: int,
            original_data: Any) -> None:
    data = _load(original) if original_data is None else original_data
    if data is _UNLOADABLE:
        raise FormatError("dmtool cannot load this file; run 'dmtool check' on it first")
    if not _same(data, _load(after)):
        raise FormatError("formatting would change the data (a dmtool bug; please report it)")
    reparsed = parse(after)
    try:
        if comments(before) != comments(reparsed):
            raise FormatError("formatting would lose a comment (a dmtool bug; please report it)")
        if emit(reparsed, order, width=width) != after:
            raise FormatError(
                "formatting is not stable on this file (a dmtool bug; please report it)")
    finally:
        reparsed.release()


_UNLOADABLE = object()


def _load(text: str) -> Any:
    """The data exactly as `dmtool check` reads it."""
    loaded = load_text(text)
    return _UNLOADABLE if loaded.document is None else loaded.document.data


def _same(a: Any, b: Any) -> bool:
    """Equal data with equal types (so `1`, `1.0` and `true` are told apart), key order
    aside. JSON text tells those apart and is written in C: fast on a 15 MB file."""
    return _json(a) == _json(b)


def _json(data: Any) -> str:
    # The loader marks numbers JSON cannot carry (NaN, overflowing ones) with a sentinel;
    # the formatter keeps their spelling, so naming the sentinel is enough here.
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=repr)


def comments(source: Source) -> Counter[str]:
    """Every comment fragment of a parsed file (as found by the formatter's own scanner)."""
    found: Counter[str] = Counter()
    every = [*source.header, *source.trailer, *source.eol.values()]
    for coll in source.colls:
        every.extend(coll.trailing or ())
        for item in coll.items:
            every.extend(item.leading or ())
    for comment in every:
        if comment:
            found.update(_COMMENT_SPLIT.split(comment))
    return found

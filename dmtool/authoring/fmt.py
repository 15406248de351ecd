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

`format_text` re-reads its output and refuses (FormatError) unless the data, every
comment and a second formatting pass come out the same, so a bug can never lose content.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ruamel.yaml.error import YAMLError

from dmtool.authoring._emit import emit
from dmtool.authoring._source import Source, SourceError, parse
from dmtool.authoring.keyorder import KeyOrder
from dmtool.loading import load_text

WIDTH = 100
_COMMENT_SPLIT = re.compile(r"\s+(?=#)")


class FormatError(Exception):
    """The file cannot be formatted safely; it is left as it is."""


def format_text(text: str, *, order: KeyOrder, width: int = WIDTH, verify: bool = True) -> str:
    """The canonical layout of one YAML document; raises FormatError if that is not safe."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):  # as dmtool's loader does: a last line of blanks is content
        text += "\n"
    try:
        source = parse(text)
        result = emit(source, order, width=width)
        if verify:
            _verify(source, result, order=order, width=width)
    except SourceError as exc:
        raise FormatError(str(exc)) from exc
    except YAMLError as exc:  # normally caught earlier by dmtool's loader
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FormatError(f"the formatter's YAML parser cannot read this file ({problem})") from exc
    return result


def _verify(before: Source, after: str, *, order: KeyOrder, width: int) -> None:
    original = _load(before.text)
    if original is _UNLOADABLE:
        raise FormatError("dmtool cannot load this file; run 'dmtool check' on it first")
    if not _same(original, _load(after)):
        raise FormatError("formatting would change the data (a dmtool bug; please report it)")
    reparsed = parse(after)
    if comments(before) != comments(reparsed):
        raise FormatError("formatting would lose a comment (a dmtool bug; please report it)")
    if emit(reparsed, order, width=width) != after:
        raise FormatError("formatting is not stable on this file (a dmtool bug; please report it)")


_UNLOADABLE = object()


def _load(text: str) -> Any:
    """The data exactly as `dmtool check` reads it."""
    loaded = load_text(text)
    return _UNLOADABLE if loaded.document is None else loaded.document.data


def _same(a: Any, b: Any) -> bool:
    """Equal data with equal types (so `1`, `1.0` and `true` are told apart)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def comments(source: Source) -> Counter[str]:
    """Every comment fragment of a parsed file (as found by the formatter's own scanner)."""
    found: Counter[str] = Counter()
    every = [*source.header, *source.trailer, *source.eol.values()]
    for coll in source.colls.values():
        every.extend(coll.trailing)
        for item in coll.items:
            every.extend(item.leading)
    for comment in every:
        if comment:
            found.update(_COMMENT_SPLIT.split(comment))
    return found

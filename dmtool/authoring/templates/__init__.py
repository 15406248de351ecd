"""Scaffolding templates as Python data: YAML text with `<<name>>` holes and `# TODO:` notes.

Templates are plain strings (not files) so they ship with the package however it is
installed. `<<name>>` holes cannot clash with YAML's own braces or with the `$schema` of
the modeline; `fill` refuses a template whose holes are not all filled. A value given as
`Text` is authored text (a name, a title) and is written as a YAML string, quoted where
YAML needs it (`Foo #bar`, `a: b`, a newline...); other values are YAML source (ids,
numbers, lists). A text hole must stand for a whole value. The modeline is
added by the scaffolder, which knows where the file goes, and every file is passed
through the formatter, so templates need not be laid out perfectly.
"""

from __future__ import annotations

import re

from dmtool.authoring._scalars import string_text

_HOLE = re.compile(r"<<([a-z0-9_]+)>>")


class Text(str):
    """Authored text for a template hole: written as a YAML string, never as YAML source."""


class TemplateError(Exception):
    """A template names a hole no value was given for (a bug in dmtool)."""


def fill(template: str, **values: object) -> str:
    """`template` with every `<<name>>` replaced by `values[name]`."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise TemplateError(f"no value for <<{name}>>")
        value = values[name]
        # Flow rules are the stricter ones, so the spelling is right inside [...] too.
        return string_text(value, flow=True) if isinstance(value, Text) else str(value)

    filled = _HOLE.sub(replace, template)
    if "<<" in filled and "<<" not in "".join(map(str, values.values())):
        raise TemplateError("a '<<' is left over: a hole with a name fill cannot read")
    return filled


def indent(text: str, spaces: int) -> str:
    """`text` with every non-empty line indented by `spaces` (for nested blocks)."""
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else line for line in text.splitlines())

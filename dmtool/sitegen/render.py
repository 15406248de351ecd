"""Any content document as a readable page: prose, tables, lists; effects and conditions in
words (found through the schemas, wherever they sit); references as links to their pages.

Kind-specific pages (storybooks, chapters, cards) put their important parts first and hand
the rest to `Renderer.sections`, so a field added to a schema later still shows up, in words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dmtool.model.describe import flat
from dmtool.model.describe.locate import Found, locate
from dmtool.model.describe.names import chapter_names
from dmtool.model.describe.outline import CONDITION_VOCABULARIES, describe_value
from dmtool.model.describe.text import Described
from dmtool.model.describe.words import Names
from dmtool.sitegen.markdown import inline_prose, label, link_entries, plain, prose, table
from dmtool.sitegen.words import Writer

Parts = tuple[str | int, ...]
# Keys shown at the top of every page (heading, source line), never as their own section.
HEAD_KEYS = ("kind", "id", "title", "name", "source")
# Prose keys that open a page, in this order, before the other sections.
LEAD_KEYS = ("introduction", "description", "summary", "convention", "flavor", "text")
_SIMPLE = (str, int, float, bool, type(None))
_WORDLIKE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)+$")


def title_of(data: Mapping[str, Any]) -> str:
    """The human title of a document: its title, else its name, else its id."""
    for key in ("title", "name", "id"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return "untitled"


def words_of(value: Any) -> str:
    """An enumerated value as words: 'kept-out' -> 'kept out', True -> 'yes'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    text = str(value)
    return text.replace("_", " ").replace("-", " ") if _WORDLIKE.match(text) else text


@dataclass
class Renderer:
    """Renders one document's fields, knowing where its effects, conditions and references
    are (`found`, `refs`: by path)."""

    writer: Writer
    names: Names
    found: dict[Parts, Found] = field(default_factory=dict)
    refs: dict[Parts, tuple[tuple[str, ...], str]] = field(default_factory=dict)

    @classmethod
    def for_document(cls, data: Mapping[str, Any], *, writer: Writer, names: Names,
                     schemas: Any, walker: Any) -> Renderer:
        kind = str(data.get("kind"))
        found = {f.parts: f for f in locate(schemas, kind, data)}
        refs = ({r.path: (r.kinds, r.value) for r in walker.references(kind, data)}
                if kind in schemas.kinds else {})
        return cls(writer, chapter_names(data, names), found, refs)

    # -- vocabulary ---------------------------------------------------------------------
    def described(self, parts: Parts) -> tuple[Described, ...] | None:
        found = self.found.get(parts)
        if found is None or found.vocabulary in CONDITION_VOCABULARIES:
            return None
        return describe_value(found.vocabulary, found.value, self.names)  # type: ignore[return-value]

    def condition(self, parts: Parts) -> str | None:
        """The condition at `parts` as a Markdown clause, or None if none is there."""
        found = self.found.get(parts)
        if found is None or found.vocabulary not in CONDITION_VOCABULARIES:
            return None
        return self.writer.phrase(describe_value(found.vocabulary, found.value,  # type: ignore[arg-type]
                                                 self.names))

    def effects_block(self, parts: Parts) -> str | None:
        described = self.described(parts)
        if described is None:
            return None
        lines = self.writer.block().effects(described)
        return "\n".join(lines) if lines else "Nothing happens."

    # -- generic fields -----------------------------------------------------------------
    def sections(self, data: Mapping[str, Any], parts: Parts = (), *,
                 skip: Iterable[str] = (), level: int = 2) -> list[str]:
        """Blocks for the fields not in `skip`: lead prose first, then a section per field."""
        skipped = set(skip)
        blocks: list[str] = []
        for key in LEAD_KEYS:
            if key not in skipped and isinstance(data.get(key), str):
                blocks.append(link_entries(prose(data[key]), self._entry_url))
                skipped.add(key)
        for key, value in data.items():
            if key in skipped:
                continue
            blocks.append(f"{'#' * level} {label(str(key))}")
            blocks.append(self.block((*parts, key), value))
        return blocks

    def block(self, parts: Parts, value: Any) -> str:
        """One field's value as a Markdown block (a paragraph, a table or a list)."""
        effects = self.effects_block(parts)
        if effects is not None:
            return effects
        condition = self.condition(parts)
        if condition is not None:
            return "When " + condition + "."
        if isinstance(value, str) and parts and parts not in self.refs:
            return link_entries(prose(value), self._entry_url)
        if isinstance(value, _SIMPLE):
            return self.cell(parts, value)
        if isinstance(value, list) and all(isinstance(v, _SIMPLE) for v in value):
            return ", ".join(self.cell((*parts, i), v) for i, v in enumerate(value)) or "*none*"
        if isinstance(value, list) and self._tabular(parts, value):
            return self.record_table(parts, value)
        return "\n".join(self.bullets(parts, value, indent=0)) or "*none*"

    def record_table(self, parts: Parts, records: list[dict[str, Any]]) -> str:
        columns: list[str] = []
        for record in records:
            columns += [k for k in record if k not in columns]
        rows = [[self.cell((*parts, i, c), r.get(c)) if c in r else "" for c in columns]
                for i, r in enumerate(records)]
        return table([label(c) for c in columns], rows)

    def cell(self, parts: Parts, value: Any) -> str:
        """A value squeezed into one table cell or list line."""
        described = self.described(parts)
        if described is not None:
            return self.writer.phrase(flat(described)) or "nothing happens"
        condition = self.condition(parts)
        if condition is not None:
            return "when " + condition
        ref = self.refs.get(parts)
        if ref is not None:
            return self._reference(ref[0], ref[1])
        if isinstance(value, list):
            return ", ".join(self.cell((*parts, i), v) for i, v in enumerate(value))
        if isinstance(value, dict):
            return "; ".join(f"{label(str(k))}: {self.cell((*parts, k), v)}"
                             for k, v in value.items())
        if isinstance(value, str) and ("\n" in value.strip() or len(value) > 60):
            return link_entries(inline_prose(value), self._entry_url)
        return plain(words_of(value))

    def _entry_url(self, number: int) -> str | None:
        """Where "entry N" in this document's prose links: its wanderer's storybook."""
        return self.writer.links.to("entry", number)

    def bullets(self, parts: Parts, value: Any, *, indent: int) -> list[str]:
        """Nested data as nested Markdown lists (Python-Markdown nests by four spaces)."""
        pad = " " * indent
        lines: list[str] = []
        if isinstance(value, dict):
            for key, item in value.items():
                here = (*parts, key)
                effects = self.described(here)
                if effects is not None:
                    lines.append(f"{pad}- **{label(str(key))}:**")
                    lines += self.writer.block().effects(effects, indent + 4)
                elif self._flat(here, item):
                    lines.append(f"{pad}- **{label(str(key))}:** {self.cell(here, item)}")
                else:
                    lines.append(f"{pad}- **{label(str(key))}:**")
                    lines += self.bullets(here, item, indent=indent + 4)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                here = (*parts, index)
                if isinstance(item, dict) and item and all(
                        self._flat((*here, k), v) for k, v in item.items()):
                    lines.append(pad + "- " + "; ".join(
                        f"**{label(str(k))}:** {self.cell((*here, k), v)}" for k, v in item.items()))
                elif isinstance(item, dict) and item:
                    # A bare '-' is no list item to Python-Markdown: the record would run on
                    # as one paragraph. Its name (or its number) heads the item instead.
                    lines.append(f"{pad}- **{self._record_name(item, index)}**")
                    lines += self.bullets(here, item, indent=indent + 4)
                else:
                    lines.append(f"{pad}- {self.cell(here, item)}")
        else:
            lines.append(f"{pad}- {self.cell(parts, value)}")
        return lines

    @staticmethod
    def _record_name(record: Mapping[str, Any], index: int) -> str:
        for key in ("name", "title", "id"):
            if isinstance(record.get(key), (str, int)) and str(record[key]).strip():
                return plain(words_of(record[key]))
        return f"{index + 1}."

    def _reference(self, kinds: tuple[str, ...], value: str) -> str:
        for kind in kinds:
            url = self.writer.links.to(kind, value)
            if url is not None:
                return f"[{plain(self.names(kind, value) or words_of(value))}]({url})"
        title = next((self.names(k, value) for k in kinds if self.names(k, value)), None)
        return plain(title or words_of(value))

    def _flat(self, parts: Parts, value: Any) -> bool:
        """Whether a value fits on its label's line (conditions do; effect lists do not)."""
        if parts in self.found:
            return self.described(parts) is None
        if parts in self.refs or isinstance(value, _SIMPLE):
            return True
        return isinstance(value, list) and all(isinstance(v, _SIMPLE) for v in value)

    def _tabular(self, parts: Parts, value: list[Any]) -> bool:
        """Lists of mappings whose fields are short enough to read as table rows."""
        if not value or not all(isinstance(v, dict) for v in value):
            return False
        for index, record in enumerate(value):
            for key, item in record.items():
                here = (*parts, index, key)
                if here in self.found:
                    continue
                if isinstance(item, dict) or (isinstance(item, list) and not all(
                        isinstance(v, _SIMPLE) for v in item)):
                    return False
                if isinstance(item, str) and len(item) > 200:
                    return False
        return True


def head(data: Mapping[str, Any], *, title: str | None = None, lead: str = "") -> str:
    """The page heading and a line saying what the document is and where it comes from."""
    lines = [f"# {plain(title or title_of(data))}", ""]
    facts = [f"*{label(str(data.get('kind', 'document')))}*"]
    source = data.get("source")
    if isinstance(source, dict):
        facts.append("source: " + ", ".join(plain(words_of(v)) for v in source.values()))
    if lead:
        facts.append(lead)
    lines.append(" · ".join(facts))
    return "\n".join(lines)

"""Described effects and conditions as Markdown: escaped words, references as links, branches
as nested lists. Glossary terms are linked once per block, so a paragraph is not a sea of
links."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dmtool.model.describe import Described, Phrase, Ref, capitalise
from dmtool.model.describe.text import lower_first
from dmtool.sitegen.links import Links
from dmtool.sitegen.markdown import plain

# Extra words after an effect's own (e.g. a test's pass chance), from its raw mapping.
Note = Callable[[Any], str]


@dataclass
class Writer:
    """Renders phrases for one page; `terms` remembers the glossary terms linked in the
    current block (call `block()` to start a new one)."""

    links: Links
    note: Note | None = None
    terms: set[str] = field(default_factory=set)

    def block(self) -> Writer:
        self.terms = set()
        return self

    def phrase(self, words: Phrase) -> str:
        out = []
        for segment in words:
            if isinstance(segment, Ref):
                out.append(self._ref(segment))
            else:
                out.append(plain_keep_space(segment))
        return "".join(out)

    def sentence(self, words: Phrase) -> str:
        text = self.phrase(capitalise(words)).rstrip()
        return text if text.endswith((".", ":", "?", "!")) else text + "."

    def effects(self, described: Iterable[Described], indent: int = 0) -> list[str]:
        """A Markdown list: one item per effect, its sides as nested items."""
        pad = " " * indent
        lines: list[str] = []
        for effect in described:
            words = effect.clause()
            extra = self.note(effect.source) if self.note and effect.source is not None else ""
            if words:
                lines.append(f"{pad}- {self.sentence(words)}{extra}")
            sub = indent + 4 if words else indent
            for side in effect.sides:
                label = self.phrase(capitalise(side.label))
                inner = list(side.effects)
                if len(inner) == 1 and not inner[0].sides and inner[0].clause():
                    only = inner[0]
                    note = self.note(only.source) if self.note and only.source is not None else ""
                    text = self.sentence(lower_first(only.clause()))
                    lines.append(f"{' ' * sub}- **{label}:** {text}{note}")
                elif not inner:
                    lines.append(f"{' ' * sub}- **{label}:** nothing happens.")
                else:
                    lines.append(f"{' ' * sub}- **{label}:**")
                    lines += self.effects(inner, sub + 4)
        return lines

    def _ref(self, ref: Ref) -> str:
        text = plain_keep_space(ref.text)
        if ref.kind == "term":
            if ref.target in self.terms:
                return text
            self.terms.add(str(ref.target))
        url = self.links.url(ref)
        if url is None:
            return text
        css = "{ .dmtool-term }" if ref.kind == "term" else ""
        return f"[{text}]({url}){css}"


def plain_keep_space(text: str) -> str:
    """`plain` collapses spaces at the ends; inside a sentence they matter."""
    lead = " " if text[:1].isspace() else ""
    tail = " " if text[-1:].isspace() and text.strip() else ""
    return lead + plain(text) + tail if text.strip() else (" " if text else "")

"""Edits authors make to a storybook in dmtool's layout, for the tests that load edited
books as the language server does (test_lsp_outline_index, test_facts_after_edit)."""

from __future__ import annotations

import re

_BLOCK_END = re.compile(r"\n(?=[^ \n#])")


def entry_starts(text: str) -> list[int]:
    """Where each entry's first line starts, and where the entries end."""
    at = text.index("\nentries:\n") + len("\nentries:\n")
    end = _BLOCK_END.search(text, at)
    stop = end.start() + 1 if end is not None else len(text)
    starts = []
    while at >= 0:
        starts.append(at)
        found = text.find("\n  - ", at, stop)
        at = found + 1 if found >= 0 else -1
    return [*starts, stop]


def edit(text: str, kind: str, where: float) -> str:
    """One edit an author makes, at the entry `where` of the way down the book (the text
    as it was for an edit of effects in an entry that has none to edit)."""
    starts = entry_starts(text)
    index = min(int(where * (len(starts) - 1)), len(starts) - 2)
    start, end = starts[index], starts[index + 1]
    entry = text[start:end]
    if kind == "title":
        at = text.index("title: ", start) + len("title: ")
        return text[:at] + "Lit " + text[at:]
    if kind == "comment line":
        at = text.index("\n", start) + 1
        return text[:at] + "    # said aloud, twice\n" + text[at:]
    if kind == "blank lines after":
        return text[:end] + "\n\n  # between entries\n" + text[end:]
    if kind == "deleted":
        return text[:start] + text[end:]
    if kind == "copied":
        number = int(entry.split("\n", 1)[0].split(":")[1])
        return text[:end] + entry.replace(f"entry: {number}", f"entry: {number + 90000}", 1) + text[end:]
    if kind == "kind":
        return text[:start] + entry.replace("kind: exploration", "kind: finale", 1) + text[end:]
    if kind == "emoji":
        at = text.index("title: ", start) + len("title: ")
        return text[:at] + "\U0001f56f " + text[at:]
    if kind == "ending title":  # outside the entries: the whole text is read again
        at = text.index("title: ", text.index("\nendings:")) + len("title: ")
        return text[:at] + "The " + text[at:]
    if kind == "goto":
        if "goto: " not in entry:
            return text
        at = text.index("goto: ", start) + len("goto: ")
        return text[:at] + "9" + text[at:]  # names an entry no book has
    if kind in ("goto added", "coda awarded"):
        if "    effects:\n" not in entry:
            return text
        at = text.index("    effects:\n", start) + len("    effects:\n")
        added = "goto: 1" if kind == "goto added" else "gain_coda: the-wheel-turned"
        return text[:at] + f"      - {added}\n" + text[at:]
    raise AssertionError(kind)

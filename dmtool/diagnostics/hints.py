"""'Did you mean' for entry numbers and ids, by the story rather than by the spelling.

An author who writes `goto: 332` where no 332 exists most likely meant a neighbour of
the entry they were writing (331, in the same encounter or ending), not a number that
merely shares digits (433, another ending's finale). So a missing entry number is matched
first against numerically close entries of the same block, then against entries one digit
edit away (a slip of a key: 171 for 172), the nearest of those first. A misspelt id is
matched against the ids and against the titles the ids stand for ("The Sluice Key").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping

# How far (in entry numbers) a neighbour in the same block may be to count as close.
NEAR = 10


def entry_hint(number: object, entries: Collection[int], block: Collection[int] = (),
               unlinked: Collection[int] = ()) -> str | None:
    """'did you mean entry N?' for a link to a missing entry, or None when nothing is close."""
    found = closest_entry(number, entries, block, unlinked)
    return None if found is None else f"did you mean entry {found}?"


def closest_entry(number: object, entries: Collection[int], block: Collection[int] = (),
                  unlinked: Collection[int] = ()) -> int | None:
    """The entry an author most likely meant by `number`; see the module docstring.

    Within the block, an entry nothing links to comes first: a mistyped link is very
    often the only way into the entry it meant.
    """
    if not isinstance(number, int) or isinstance(number, bool):
        return None
    near = [n for n in block if n != number and n in entries and abs(n - number) <= NEAR]
    if near:
        return min(near, key=lambda n: (n not in unlinked, abs(n - number), n))
    typed = str(number)
    slips = [n for n in entries if n != number and _one_edit(typed, str(n))]
    if slips:
        return min(slips, key=lambda n: (abs(n - number), n))
    return None


def _one_edit(a: str, b: str) -> bool:
    """Whether `b` is `a` with one digit changed, added, removed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def id_hint(value: str, ids: Iterable[str], titles: Mapping[str, str] | None = None) -> str | None:
    """'did you mean ID?' for a reference to no id, matching ids and also what they are called."""
    found = closest_id(value, ids, titles or {})
    return None if found is None else f"did you mean '{found}'?"


def closest_id(value: str, ids: Iterable[str], titles: Mapping[str, str]) -> str | None:
    known = sorted(set(ids))
    if not known:
        return None
    # Imported here, not at the top: only a finding's hint needs it, and a clean one-file
    # check (P3) then never imports it (~2.7 M instructions; tests/test_one_file_imports.py).
    import difflib

    close = difflib.get_close_matches(value, known, n=1, cutoff=0.6)
    wanted = slug(value)
    by_title = {slug(title): doc_id for doc_id, title in titles.items() if doc_id in set(known)}
    if wanted in by_title:
        return by_title[wanted]
    if close:
        return close[0]
    near_title = difflib.get_close_matches(wanted, sorted(by_title), n=1, cutoff=0.75)
    return by_title[near_title[0]] if near_title else None


def slug(text: str) -> str:
    """A title as an id would spell it: 'Maren's Shawl' -> 'marens-shawl'."""
    text = text.lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")

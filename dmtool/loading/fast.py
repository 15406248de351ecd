"""The fast path: a plain file's data from yaml-rs, a YAML 1.2 parser written in Rust.

libyaml's events become Python objects one by one, which is most of what loading costs;
yaml-rs builds the data in Rust, several times faster. It is used only where it cannot
change an answer, and everything else takes the libyaml path (document.py), which also
gives positions and every diagnostic:
- a screen of the text (screen.py) sends away anything a rule of the libyaml path looks
  at, or that yaml-rs reads differently or too leniently;
- yaml-rs must parse the text (it refuses duplicate keys itself);
- the data must be what the libyaml path builds: mapping keys text or integers (made
  text), no number JSON cannot hold, at most MAX_DEPTH levels deep (a walk over the
  containers and numbers, never the text, checks it).
tests/test_loading_fast.py proves the two paths give the same data and the same
refusals over content/, tests/cases/, the YAML test suite and generated documents.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from gc import get_referents
from itertools import chain, compress, repeat
from operator import is_
from typing import Any

from dmtool.loading.builder import MAX_DEPTH
from dmtool.loading.screen import needs_libyaml

try:
    import yaml_rs
except ImportError:  # pragma: no cover - yaml-rs is a dependency; without it, libyaml only
    yaml_rs = None

ENABLED = yaml_rs is not None
# Larger texts take the libyaml path: yaml-rs holds its own tree of the whole document
# while it builds the Python data, and builds every key as a new string, so its peak
# memory is about twice the libyaml path's (measured on a 53 MB storybook: 550 MB
# against 330 MB); for a file this large memory matters more than speed.
LARGEST = 4 * 1024 * 1024
# An integer this long is beyond what the libyaml path resolves the same way: one at least
# this large, either way from zero (a comparison costs less than the bit length).
_MAX_INT_BITS = 10_000
_TOO_LARGE = 1 << _MAX_INT_BITS
# What the walk looks at: containers, and numbers (which may be infinite or too long).
_LOOKED_AT = frozenset((dict, list, float, int))
_CONTAINERS = frozenset((dict, list))


def fast_data(text: str) -> tuple[bool, Any]:
    """(True, data) when yaml-rs reads `text` exactly as the libyaml path would; else
    (False, None), and the caller takes the libyaml path."""
    if not ENABLED or len(text) > LARGEST or needs_libyaml(text):
        return False, None
    try:
        data = yaml_rs.loads(text, parse_datetime=False)
    except Exception:
        return False, None
    if data is None or data.__class__ not in (dict, list):
        return False, None  # empty files and bare scalars: rare, and the libyaml path's
    return _plain(data)


def parsed_part(part: str, *, depth: int) -> Any:
    """What yaml-rs reads `part` as, walked as fast_data walks a whole text's data, with
    its top node `depth` levels down in the whole (1: the top); None when yaml-rs refuses
    it or the walk would (splice.py parses the edited entries of a book this way)."""
    try:
        data = yaml_rs.loads(part, parse_datetime=False)
    except Exception:
        return None
    if data.__class__ not in (dict, list):
        return None
    return _plain(data, depth)[1]


def _plain(data: Any, top: int = 1) -> tuple[bool, Any]:
    """Check the data as the libyaml path would build it, turning integer keys into text.

    Level by level (the depth is the number of levels), with C-level iteration only
    (hot path: this walk sees every node of every file). A level's children are what the
    garbage collector's traversal of its containers visits (gc.get_referents: a list's
    items, and a mapping's values; also its keys when one of them is not text, since
    only a mapping whose keys are all text keeps the compact form that leaves them out),
    so a count tells whether every key is text: one call, where gathering the values
    and joining the keys took two passes over every node. Only then are the keys looked
    at one by one (integer keys become text). The classes of the children are gathered
    as a set, and only a class that needs a closer look (a float, an int) gets one, and
    the containers become the next level. Text, the bulk of the data, is never
    inspected. A container or number MAX_DEPTH levels down refuses the data, as the
    libyaml path refuses it (`top`: the level `data` itself is at).
    """
    containers: list[Any] = [data]
    for depth in range(top, MAX_DEPTH + 1):
        children = get_referents(*containers)
        if len(children) != sum(map(len, containers)):
            # A mapping's keys are among its referents: some key is not text.
            dicts = [node for node in containers if node.__class__ is dict]
            if not _keys_are_text(dicts):
                return False, None
            children = list(chain(chain.from_iterable(map(dict.values, dicts)),
                                  chain.from_iterable(node for node in containers
                                                      if node.__class__ is list)))
        classes = list(map(type, children))
        present = set(classes)
        if depth == MAX_DEPTH:
            return (False, None) if present & _LOOKED_AT else (True, data)
        if float in present and not all(map(math.isfinite, _of(float, children, classes))):
            return False, None
        if int in present:
            ints = list(_of(int, children, classes))
            if max(ints) >= _TOO_LARGE or min(ints) <= -_TOO_LARGE:
                return False, None
        if dict not in present and list not in present:
            return True, data
        containers = list(compress(children, map(_CONTAINERS.__contains__, classes)))
    raise AssertionError("unreachable: the loop returns at MAX_DEPTH")


def _of(cls: type, items: list[Any], classes: list[type]) -> Iterator[Any]:
    """The items whose class is exactly `cls` (`classes` holds each item's class)."""
    return compress(items, map(is_, classes, repeat(cls)))


def _keys_are_text(dicts: list[dict[Any, Any]]) -> bool:
    """Whether every key is text, once integer keys are rewritten as text (in place)."""
    try:
        # Joining text checks each key's class in C; it fails at the first key that is not
        # text (yaml-rs builds no subclass of str).
        "".join(chain.from_iterable(dicts))
    except TypeError:
        pass
    else:
        return True
    return all(all(key.__class__ is str for key in mapping) or _text_keys(mapping)
               for mapping in dicts)


def _text_keys(mapping: dict[Any, Any]) -> bool:
    """Rewrite integer keys as text in place (`4: x` means the key "4"); False when a key
    is of another kind or two keys become the same text."""
    if not all(key.__class__ in (str, int) for key in mapping):
        return False
    items = [(str(key), value) for key, value in mapping.items()]
    if len({key for key, _ in items}) != len(items):
        return False
    mapping.clear()
    mapping.update(items)
    return True

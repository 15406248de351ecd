"""Expectations: dotted paths into the state view, partial comparison, readable differences.

How values compare (the scenario schema and the README say the same): a mapping matches
partially (every expected key, compared the same way; `{}` means empty); a list matches a
list of the same length item by item, in order, unless it is written `{any_order: [...]}`,
which matches a list of the same length whose items can be paired with the expected ones in
some order (each expected item matches a different actual item, partially); anything else
matches an equal value (true and 1 differ). `events` are found in the log in the order
written, or in any order when written `{any_order: [...]}`; other events may come between.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

MISSING: Any = object()
RESERVED = ("events", "absent_events")
ANY_ORDER = "any_order"


@dataclass
class Mismatch:
    """One expectation that failed: which key, and the text that explains it."""

    key: str
    code: str  # DM409, DM413, DM419 or DM423
    message: str


def lookup(view: Any, dotted: str) -> tuple[Any, str | None]:
    """(value, None) or (MISSING, the part of the path that failed)."""
    here = view
    walked: list[str] = []
    for part in dotted.split("."):
        if isinstance(here, dict) and part in here:
            here = here[part]
        elif isinstance(here, list) and part.lstrip("-").isdigit() and -len(here) <= int(
                part) < len(here):
            here = here[int(part)]
        else:
            return MISSING, ".".join(walked + [part])
        walked.append(part)
    return here, None


def unordered(expected: Any) -> list[Any] | None:
    """The items of an `{any_order: [...]}` expectation, else None."""
    if isinstance(expected, dict) and set(expected) == {ANY_ORDER}:
        items = expected[ANY_ORDER]
        return items if isinstance(items, list) else None
    return None


def pairing(patterns: list[Any], items: list[Any]) -> dict[int, int]:
    """The most patterns that can each be matched by a different item: pattern index ->
    item index (augmenting paths; the lists are short)."""
    owner: dict[int, int] = {}

    def place(p: int, seen: set[int]) -> bool:
        for i, item in enumerate(items):
            if i not in seen and matches(patterns[p], item):
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = p
                    return True
        return False

    for p in range(len(patterns)):
        place(p, set())
    return {p: i for i, p in owner.items()}


def matches(expected: Any, actual: Any) -> bool:
    """Mappings compare partially (every expected key matches; {} means empty); lists and
    scalars exactly; `{any_order: [...]}` as a list in any order (see the module's docstring)."""
    items = unordered(expected)
    if items is not None:
        return (isinstance(actual, list) and len(items) == len(actual)
                and len(pairing(items, actual)) == len(items))
    if isinstance(expected, dict):
        if not expected:  # {} means empty, not "anything"
            return actual == {}
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(matches(e, a) for e, a in zip(expected, actual)))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def diff_text(expected: Any, actual: Any) -> str:
    """A short 'expected/actual' line, or a unified diff for larger structures."""
    left, right = show(expected), show(actual)
    if len(left) + len(right) < 100:
        return f"expected {left}, got {right}"
    if isinstance(expected, dict) and isinstance(actual, dict):
        actual = {k: actual.get(k, MISSING) for k in expected} | {
            k: v for k, v in actual.items() if k not in expected}
    a = json.dumps(expected, indent=2, sort_keys=True, default=lambda _: "<missing>")
    b = json.dumps(actual, indent=2, sort_keys=True, default=lambda _: "<missing>")
    lines = difflib.unified_diff(a.splitlines(), b.splitlines(), "expected", "actual",
                                 lineterm="", n=2)
    return "\n".join(lines)


def check_state(view: dict[str, Any], expected: dict[str, Any]) -> list[Mismatch]:
    out: list[Mismatch] = []
    for key, want in expected.items():
        if key in RESERVED:
            continue
        got, failed = lookup(view, key)
        if got is MISSING:
            out.append(Mismatch(key, "DM413", _no_path(view, key, failed or key)))
        elif not matches(want, got):
            lines = [_difference(path, e, a) for path, e, a in differences(key, want, got)]
            out.append(Mismatch(key, "DM409", "\n".join(lines)))
    return out


def _difference(path: str, expected: Any, actual: Any) -> str:
    items = unordered(expected)
    if items is not None:
        return f"{path}: expected {show(items)} in any order, got {show(actual)}"
    return f"{path}: {diff_text(expected, actual)}"


def differences(path: str, expected: Any, actual: Any) -> list[tuple[str, Any, Any]]:
    """The innermost paths where a partial mapping expectation differs from the state."""
    if isinstance(expected, dict) and expected and isinstance(actual, dict) and (
            unordered(expected) is None):
        out: list[tuple[str, Any, Any]] = []
        for k, v in expected.items():
            if k not in actual:
                out.append((f"{path}.{k}", v, "<missing>"))
            elif not matches(v, actual[k]):
                out.extend(differences(f"{path}.{k}", v, actual[k]))
        return out
    return [(path, expected, actual)]


def _no_path(view: dict[str, Any], key: str, failed: str) -> str:
    parent_path, _, last = failed.rpartition(".")
    parent, _ = lookup(view, parent_path) if parent_path else (view, None)
    options = [str(k) for k in parent] if isinstance(parent, dict) else []
    close = difflib.get_close_matches(last, options, n=1)
    hint = f" Did you mean '{(parent_path + '.' if parent_path else '') + close[0]}'?" if close \
        else (f" It has: {', '.join(options[:12])}." if options else "")
    inside = f" (in '{key}')" if failed != key else ""
    return f"The state has no value at '{failed}'{inside}.{hint}"


def check_events(log: list[dict[str, Any]], expected: dict[str, Any]) -> list[Mismatch]:
    out: list[Mismatch] = []
    wanted = expected.get("events", [])
    items = unordered(wanted)
    if items is not None:
        found = pairing(items, log)
        for i, pattern in enumerate(items):
            if i not in found:
                out.append(Mismatch("events", "DM419", f"missing event {show(pattern)} (in any "
                                    f"order){_logged(log, pattern)}."))
    else:
        position = 0
        for pattern in wanted if isinstance(wanted, list) else []:
            hit = next((i for i in range(position, len(log)) if matches(pattern, log[i])), None)
            if hit is None:
                earlier = " (it appears only before an earlier expected event)" if any(
                    matches(pattern, e) for e in log[:position]) else ""
                out.append(Mismatch("events", "DM419", f"missing event {show(pattern)}{earlier}"
                                    f"{_logged(log, pattern)}."))
                continue
            position = hit + 1
    for pattern in expected.get("absent_events", []):
        hits = [e for e in log if matches(pattern, e)]
        if hits:
            out.append(Mismatch("absent_events", "DM423", f"event {show(pattern)} must not "
                                f"happen, but the log has {show(hits[0])}."))
    return out


def _logged(log: list[dict[str, Any]], pattern: Any) -> str:
    """What the log holds instead: events of the kind asked for, or every kind it has."""
    kind = pattern.get("event") if isinstance(pattern, dict) else None
    same = [e for e in log if e.get("event") == kind]
    if same:
        return "; logged: " + ", ".join(show(e) for e in same[:3])
    counts: dict[str, int] = {}
    for event in log:
        counts[str(event.get("event"))] = counts.get(str(event.get("event")), 0) + 1
    listed = ", ".join(f"{k} ({n})" for k, n in sorted(counts.items()))
    return f"; no '{kind}' event was logged (the log has: {listed or 'nothing'})"

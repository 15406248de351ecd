"""One iterative pass over YAML parse events that builds plain JSON data and positions.

The parser's events are consumed directly instead of composing a node tree: a node
tree costs a Python object per node plus a second walk, while the events are already
in hand. Because the pass sees every anchor, alias and tag before anything is built,
an alias bomb is refused after a few events and never expanded. The pass keeps its own
explicit stack, so no input can reach Python's recursion limit.

Two modes share the loop. The fast mode (`positions=False`) builds only data and gives
up with `NeedsPositions` at the first problem; the caller then runs the positions mode,
which builds the position index and turns every problem into a located diagnostic.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.loading.positions import PositionTree
from dmtool.loading.scalars import UNREPRESENTABLE, resolve_plain
from dmtool.loading.syntax import syntax_diagnostic

# Deepest nesting of mappings and sequences accepted. Real content needs about ten.
MAX_DEPTH = 64
# A file with this many problems is not worth reading further; the rest is noise.
MAX_PROBLEMS = 50

_CORE_PREFIX = "tag:yaml.org,2002:"
# Strings up to this length are shared between equal values (a word: an entry's kind, a
# die face, an ending's name); longer ones, prose, seldom repeat.
_SHARED_LENGTH = 16
# Plain scalars starting like `-` or `- x` may be libyaml leniencies (strict.py, S5).
_INDICATORS = frozenset("-?:")
_INDICATOR_ENDS = frozenset(("", " ", "\t", ",", "[", "]", "{", "}"))
_NO_KEY: Any = object()  # the current mapping waits for a key
_SKIP_KEY: Any = object()  # the current key was refused: drop the value that follows


class NeedsPositions(Exception):
    """Raised in fast mode at the first problem: rerun with positions to report it."""


class _TooMany(Exception):
    """Raised once a file has MAX_PROBLEMS diagnostics: stop reading it."""


class _ParseFailed(Exception):
    """The parser raised; the original exception is the __cause__."""


@dataclass(slots=True)
class BuildResult:
    """What one pass produced. `data` is meaningful only when `diagnostics` is empty."""

    display: str = ""
    data: Any = None
    positions: PositionTree | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    empty: bool = False
    # Something strict.py must look at more closely (a multi-line flow node, S2, or a
    # plain scalar starting with an indicator, S5).
    needs_strict: bool = False
    # The parser itself refused the text (as opposed to a rule of dmtool's).
    parse_failed: bool = False


def build(text: str, *, display: str, positions: bool, pure: bool = False) -> BuildResult:
    """Parse `text` (one YAML document) into JSON data; see the module docstring.

    `pure` reads with ruamel.yaml's pure Python parser instead of libyaml (see
    document.py: it reads the YAML 1.2 flow forms libyaml refuses).
    """
    result = BuildResult(display=display)
    problems = result.diagnostics

    def report(code: str, mark: Any, message: str, **extra: Any) -> None:
        if not positions:
            raise NeedsPositions
        problems.append(
            diagnose(code, Location(display, mark.line + 1, mark.column + 1), message, **extra)
        )
        if len(problems) >= MAX_PROBLEMS:
            raise _TooMany

    # The pass allocates hundreds of thousands of containers and no cycles: the cyclic
    # collector would only rescan the growing heap again and again (measured: it doubles
    # the time of the positions pass on a 5 MB file). Paused here, restored after.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _walk(event_source(text, pure=pure), result, report, positions=positions)
    except _TooMany:
        pass
    except _ParseFailed as failed:
        if not positions:
            raise NeedsPositions from failed.__cause__
        result.parse_failed = True
        problems.append(syntax_diagnostic(failed.__cause__, text, display))
    finally:
        if collecting:
            gc.enable()
    return result


def _walk(
    get_event: Callable[[], Any], result: BuildResult, report: Callable[..., None], *,
    positions: bool,
) -> None:
    """The event loop proper; kept flat and local-variable heavy because it is the hot path."""
    from ruamel.yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
    )

    # Frames of the enclosing containers: (container, key, key position, own position,
    # start event). In positions mode a container's position is (line, column, members)
    # and `members` is filled as the container is; in fast mode positions are all None.
    stack: list[tuple[Any, Any, Any, Any, Any]] = []
    opened: Any = None  # the start event of `top`
    top: Any = None  # the container being filled; None at the top level
    here: Any = None  # top's position
    key: Any = _NO_KEY
    key_position: Any = None
    documents = 0
    # One object per distinct key, short string and integer: a large storybook repeats
    # the same dozen keys hundreds of thousands of times (a third of its memory), and
    # its kinds, dice and entry numbers (each written as `entry:` and as `goto:`) often.
    shared: dict[Any, Any] = {}
    value: Any
    pos: Any = None
    while True:
        try:
            event = get_event()
        except Exception as exc:
            raise _ParseFailed from exc
        if event is None:
            break
        cls = event.__class__
        if cls is ScalarEvent:
            value = event.value
            style = event.style
            # `ctag` is the raw slot behind the `tag` property: cheaper in this loop.
            if event.ctag is not None or event.anchor is not None:
                _refuse_properties(event, report)
            elif not style:
                if value[:1] in _INDICATORS and value[1:2] in _INDICATOR_ENDS:
                    result.needs_strict = True  # maybe `[-]`; strict.py decides (S5)
                value = resolve_plain(value)
                if value is UNREPRESENTABLE:
                    report("DM012", event.start_mark, _unrepresentable(event.value),
                           hint=f"Write '{event.value}' in quotes if it is meant as text.")
                    value = _SKIP_KEY  # already reported; refused again as a key otherwise
            elif (style == '"' or style == "'") and (
                event.start_mark.line != event.end_mark.line
            ):
                result.needs_strict = True  # strict.py checks its indentation (S2)
            if value.__class__ is int or (value.__class__ is str
                                          and len(value) <= _SHARED_LENGTH):
                value = shared.setdefault(value, value)  # never a bool: 1 == True
            if positions:
                mark = event.start_mark
                pos = (mark.line, mark.column)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if event.ctag is not None or event.anchor is not None:
                _refuse_properties(event, report)
            if len(stack) >= MAX_DEPTH:
                report("DM004", event.start_mark,
                       f"Mappings and lists nest more than {MAX_DEPTH} levels deep here; "
                       "flatten the structure.")
                break
            stack.append((top, key, key_position, here, opened))
            opened = event
            key = _NO_KEY
            top = {} if cls is MappingStartEvent else []
            if positions:
                mark = event.start_mark
                here = (mark.line, mark.column, {} if cls is MappingStartEvent else [])
            continue
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            if opened.flow_style and opened.start_mark.line != event.end_mark.line:
                result.needs_strict = True  # strict.py checks its indentation (S2)
            # A list grown by appends keeps spare room; its copy is exactly its size (a
            # large storybook's hundreds of thousands of short effect lists: 6 MB).
            value = top[:] if cls is SequenceEndEvent else top
            pos = here
            top, key, key_position, here, opened = stack.pop()
        elif cls is AliasEvent:
            report("DM003", event.start_mark,
                   f"The alias '*{event.anchor}' repeats an anchored node; content files may "
                   "not use anchors or aliases. Write the value out in full.")
            value = _SKIP_KEY  # already reported; refused again as a key otherwise
            if positions:
                mark = event.start_mark
                pos = (mark.line, mark.column)
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                report("DM005", event.start_mark,
                       "A second YAML document starts here; each content file holds exactly "
                       "one document. Move it to a file of its own.")
                break
            continue
        else:  # stream start and end, document end
            continue
        # Attach the finished node `value` (at `pos`) to the container `top`.
        if top is None:
            result.data = value
            result.positions = pos
            result.empty = cls is ScalarEvent and value is None and not event.value
        elif top.__class__ is list:
            top.append(value)
            if positions:
                here[2].append(pos)
        elif key is _NO_KEY:
            key = value
            key_position = pos
            if key.__class__ is str:
                key = shared.setdefault(key, key)
            elif key is not _SKIP_KEY:
                key = _member_name(value, pos, report, event)
            if key is not _SKIP_KEY and key in top:
                if not positions:
                    raise NeedsPositions
                _refuse_duplicate(key, pos, here, report, event, result)
                key = _SKIP_KEY
        else:
            if key is not _SKIP_KEY:
                top[key] = value
                if positions:
                    here[2][key] = (key_position, pos)
            key = _NO_KEY
    if documents == 0:
        result.empty = True


def event_source(text: str, *, pure: bool = False) -> Callable[[], Any]:
    """A function returning the next parse event (None at the end).

    The C parser of ruamel.yaml.clib (libyaml) is the one dmtool reads with. The pure
    Python parser of ruamel.yaml stands in where the C extension is missing (PyPy);
    tests/test_loading_differential.py shows both give the same data for our content.
    """
    if not pure:
        try:
            from _ruamel_yaml import CParser
        except ImportError:  # pragma: no cover - only without ruamel.yaml.clib
            pass
        else:
            return CParser(text).get_event  # type: ignore[no-any-return]
    from ruamel.yaml import YAML

    events = YAML(typ="safe", pure=True).parse(text)
    return lambda: next(events, None)


def _refuse_properties(event: Any, report: Callable[..., None]) -> None:
    if event.anchor is not None:
        report("DM003", event.start_mark,
               f"The anchor '&{event.anchor}' marks a node for reuse; content files may not "
               "use anchors or aliases. Remove the anchor and write repeated values out.")
    if event.tag is not None:
        tag = event.tag
        if tag.startswith(_CORE_PREFIX):
            tag = "!!" + tag[len(_CORE_PREFIX):]  # shown as written, e.g. !!str
        report("DM011", event.start_mark,
               f"The explicit tag '{tag}' is not allowed; content is plain data. "
               "Remove the tag (quote the value if it must stay text).")


def _unrepresentable(text: str) -> str:
    return (f"'{text}' reads as a number JSON cannot hold (not a number, infinite, or far "
            "too large); write an ordinary number or quote it.")


def _member_name(value: Any, pos: Any, report: Callable[..., None], event: Any) -> Any:
    """The string key for a non-string key node, or _SKIP_KEY after refusing it."""
    if value.__class__ is int:
        # JSON keys are strings: `4: Penitent Sorrow` means the key "4", as json.dumps does.
        return str(value)
    mark = event.start_mark
    if isinstance(value, dict | list):
        message = ("A mapping or list is used as a mapping key; JSON keys are strings. "
                   "Use a plain text key.")
        hint = None
    else:
        shown = "null" if value is None else repr(value).lower()
        message = (f"The mapping key reads as {shown}, not text; JSON keys are strings. "
                   "Quote the key.")
        hint = "Write the key in quotes, for example \"true\": ..."
    report("DM012", _KeyMark(pos, mark), message, hint=hint)
    return _SKIP_KEY


def _refuse_duplicate(
    key: str, pos: Any, here: Any, report: Callable[..., None], event: Any, result: BuildResult
) -> None:
    first = here[2][key][0]
    report("DM002", _KeyMark(pos, event.start_mark),
           f"The key '{key}' appears twice in this mapping; YAML would silently keep only one "
           "value. Remove or rename one of them.",
           related=(Location(result.display, first[0] + 1, first[1] + 1),))


class _KeyMark:
    """A mark at a key's start: a container key's own position, not its end event's."""

    def __init__(self, pos: Any, mark: Any) -> None:
        if pos is not None:
            self.line, self.column = pos[0], pos[1]
        else:
            self.line, self.column = mark.line, mark.column

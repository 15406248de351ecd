"""Turn jsonschema errors into located, readable diagnostics (DM101-DM107)."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument

# Objects whose keys are a vocabulary (one key per item): a wrong key is an unknown word.
# A vocabulary is recognised by a word only it contains.
_VOCABULARIES = (("goto", "DM105", "effect"), ("has_coda", "DM107", "condition"))

_JSON_TYPES = {
    dict: "a mapping",
    list: "a list",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A 'did you mean' hint for the closest choice, if any is close enough."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _describe(value: Any) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(path: tuple[Any, ...]) -> str:
    """A path as an author reads it: entries[3].effects[0].goto."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the document"


def _is_property_name_error(error: Any) -> bool:
    schema_path = list(error.schema_path)
    return len(schema_path) >= 2 and schema_path[-2] == "propertyNames"


def _vocabulary(allowed: list[Any]) -> tuple[str, str]:
    """(code, noun) for a key outside a vocabulary: effects, conditions, or plain properties."""
    for marker, code, noun in _VOCABULARIES:
        if marker in allowed:
            return code, noun
    return "DM102", "property"


def _leaves(errors: Iterable[Any]) -> Iterator[Any]:
    """Descend into oneOf/anyOf contexts and keep the most specific errors."""
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            deepest = max(len(e.absolute_path) for e in error.context)
            if deepest > 0 and deepest >= len(error.absolute_path):
                yield from _leaves(e for e in error.context if len(e.absolute_path) == deepest)
                continue
        yield error


def schema_diagnostics(document: SourceDocument, errors: Iterable[Any]) -> list[Diagnostic]:
    """One clear diagnostic per problem, located at the key or value concerned."""
    found: list[Diagnostic] = []
    vocabulary_objects: set[tuple[Any, ...]] = set()
    pending = list(_leaves(errors))
    # Vocabulary errors first, so the same unknown key is not reported twice.
    pending.sort(key=lambda e: 0 if _is_property_name_error(e) else 1)
    for error in pending:
        path = tuple(error.absolute_path)
        if _is_property_name_error(error):
            found.extend(_unknown_word(document, error, path))
            vocabulary_objects.add(path)
        elif error.validator == "additionalProperties":
            if path not in vocabulary_objects:
                found.extend(_unknown_properties(document, error, path))
        else:
            found.append(_single(document, error, path))
    return found


def _unknown_word(document: SourceDocument, error: Any, path: tuple[Any, ...]) -> list[Diagnostic]:
    allowed = list(error.validator_value) if error.validator == "enum" else []
    code, noun = _vocabulary(allowed)
    word = str(error.instance)
    return [
        diagnose(
            code,
            document.locate(path + (word,), key=True),
            f"unknown {noun} '{word}' at {_where(path)}",
            hint=did_you_mean(word, allowed),
        )
    ]


def _unknown_properties(
    document: SourceDocument, error: Any, path: tuple[Any, ...]
) -> list[Diagnostic]:
    schema = error.schema
    known = list(schema.get("properties", {}))
    extras = [k for k in error.instance if k not in schema.get("properties", {})]
    return [
        diagnose(
            "DM102",
            document.locate(path + (key,), key=True),
            f"unknown property '{key}' in {_where(path)}",
            hint=did_you_mean(str(key), known),
        )
        for key in extras
    ]


def _single(document: SourceDocument, error: Any, path: tuple[Any, ...]) -> Diagnostic:
    validator = error.validator
    value = error.instance
    where = _where(path)
    if validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return diagnose(
            "DM103",
            document.locate(path),
            f"{where} must be {_article(expected)}, not {_describe(value)} ({_short(value)})",
        )
    if validator == "required":
        missing = [p for p in error.validator_value if isinstance(value, dict) and p not in value]
        names = ", ".join(f"'{m}'" for m in missing)
        return diagnose(
            "DM104",
            document.locate(path, key=True),
            f"{where} is missing the required propert{'ies' if len(missing) > 1 else 'y'} {names}",
        )
    if validator in ("enum", "const"):
        allowed = error.validator_value if validator == "enum" else [error.validator_value]
        shown = ", ".join(_short(a) for a in allowed[:12])
        return diagnose(
            "DM106",
            document.locate(path),
            f"{where} is {_short(value)}, but must be one of: {shown}",
            hint=did_you_mean(str(value), [str(a) for a in allowed]),
        )
    if validator == "not":
        # A 'not' schema says what must not appear; its description says why in words.
        reason = error.schema.get("description") if isinstance(error.schema, dict) else None
        return diagnose("DM106", document.locate(path, key=True),
                        f"{where}: {reason or 'this combination is not allowed'}")
    if validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                     "minItems", "maxItems", "minLength", "maxLength", "minProperties",
                     "maxProperties"):
        return diagnose("DM106", document.locate(path), f"{where}: {_plain(error.message)}")
    return diagnose("DM101", document.locate(path), f"{where}: {_plain(error.message)}")


def _article(type_name: str) -> str:
    names = {"object": "a mapping", "array": "a list", "integer": "an integer"}
    return names.get(type_name, f"a {type_name}")


def _plain(message: str) -> str:
    """jsonschema's own message, shortened: long instance dumps make unreadable lines."""
    first = message.splitlines()[0]
    return first if len(first) <= 160 else first[:157] + "..."

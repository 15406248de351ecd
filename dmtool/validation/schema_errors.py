"""Turn jsonschema errors into located, readable diagnostics (DM101-DM107)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.diagnostics.subjects import subject, where
from dmtool.loading import SourceDocument
from dmtool.validation.as_meant import Move
from dmtool.validation.schemas import SchemaSet

if TYPE_CHECKING:
    from dmtool.validation.key_placement import KeyPlacement

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
    # Imported here, not at the top: only a finding's hint needs it, and a clean one-file
    # check (P3) then never imports it (~2.7 M instructions; tests/test_one_file_imports.py).
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _describe(value: Any) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    """A scalar as a message quotes it (strings in single quotes, cut at 40 characters)."""
    if isinstance(value, (dict, list)):
        return _describe(value)
    text = f"'{value}'" if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:36] + "...'" if isinstance(value, str) else text[:37] + "..."


def _where(document: SourceDocument, path: tuple[Any, ...]) -> str:
    """A place as its author reads it: "'goto' in entry 12" (the pointer stays in the location)."""
    return where(document.data, path)


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
    """Descend into oneOf/anyOf contexts and keep the most specific errors.

    A choice between single required keys ("exactly one action") stays one error; in other
    choices, alternatives of a type the value does not have are set aside when another
    alternative fits its type (a mapping is not judged as the list it was not meant to be).
    """
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            if _key_choice(error) is not None:
                yield error
                continue
            context = _fitting(error)
            deepest = max(len(e.absolute_path) for e in context)
            if deepest > 0 and deepest >= len(error.absolute_path):
                yield from _leaves(e for e in context if len(e.absolute_path) == deepest)
                continue
        yield error


def _key_choice(error: Any) -> list[str] | None:
    """The keys of a oneOf whose alternatives each require one key, else None."""
    if error.validator != "oneOf" or not isinstance(error.instance, dict):
        return None
    keys = []
    for alternative in error.validator_value:
        if not isinstance(alternative, dict) or set(alternative) - {"required", "description"}:
            return None
        required = alternative.get("required")
        if not isinstance(required, list) or len(required) != 1:
            return None
        keys.append(required[0])
    return keys


def _fitting(error: Any) -> list[Any]:
    """The errors of the alternatives whose type the value has (all, if none or all fit)."""
    own = len(error.absolute_path)
    branches: dict[Any, list[Any]] = {}
    for inner in error.context:
        branch = inner.relative_schema_path[0] if inner.relative_schema_path else None
        branches.setdefault(branch, []).append(inner)
    misfits = {
        branch
        for branch, inner in branches.items()
        if any(e.validator == "type" and len(e.absolute_path) == own for e in inner)
    }
    if not misfits or len(misfits) == len(branches):
        return list(error.context)
    return [e for branch, inner in branches.items() if branch not in misfits for e in inner]


def schema_diagnostics(
    document: SourceDocument, errors: Iterable[Any], *, schemas: SchemaSet | None = None,
    kind: str | None = None,
) -> list[Diagnostic]:
    """One clear diagnostic per problem, located at the key or value concerned.

    With the document's schemas and kind, an unknown key that is a misplaced or misspelt
    required key is one diagnostic (DM102 with a hint), not also a "missing" one.
    """
    return explain_schema_errors(document, errors, schemas=schemas, kind=kind)[0]


def explain_schema_errors(
    document: SourceDocument, errors: Iterable[Any], *, schemas: SchemaSet | None = None,
    kind: str | None = None,
) -> tuple[list[Diagnostic], list[Move]]:
    """schema_diagnostics, plus where each misplaced or misspelt key was meant to be.

    A move is (path of the key as written, path of its mapping, intended name); applied
    with key_placement.moved they give the document as its author meant it, as far as
    the misplaced keys go (what other files are judged against).
    """
    pending = list(_leaves(errors))
    if not pending:
        return [], []
    # Imported here, not above: only a document that fails its schema needs it, and a
    # clean one-file check (P3) would pay 1% of its time to load it.
    from dmtool.validation.key_placement import KeyPlacement

    found: list[Diagnostic] = []
    moves: list[Move] = []
    vocabulary_objects: set[tuple[Any, ...]] = set()
    # Vocabulary errors first, so the same unknown key is not reported twice.
    pending.sort(key=lambda e: 0 if _is_property_name_error(e) else 1)
    required = [e for e in pending if e.validator == "required"]
    placement = KeyPlacement(document.data, {tuple(e.absolute_path): _missing(e) for e in required},
                             schemas, kind)
    accounted: set[tuple[tuple[Any, ...], str]] = set()
    choices: list[Any] = []
    for error in pending:
        path = tuple(error.absolute_path)
        if _is_property_name_error(error):
            found.extend(_unknown_word(document, error, path))
            vocabulary_objects.add(path)
        elif error.validator == "additionalProperties":
            if path not in vocabulary_objects:
                found.extend(_unknown_properties(document, error, path, placement, accounted,
                                                 moves))
            vocabulary_objects.add(path)
        elif _key_choice(error) is not None:
            choices.append(error)
        elif error.validator != "required":
            found.append(_single(document, error, path))
    for error in choices:
        path = tuple(error.absolute_path)
        if path not in vocabulary_objects:  # an unknown key there is the mistake, said once
            found.append(_one_key(document, error, path))
    for error in required:
        path = tuple(error.absolute_path)
        missing = [name for name in _missing(error) if (path, name) not in accounted]
        if missing:
            found.append(_missing_properties(document, path, missing))
    return found, moves


def _one_key(document: SourceDocument, error: Any, path: tuple[Any, ...]) -> Diagnostic:
    """A mapping that must name exactly one of some keys names none, or several."""
    keys = _key_choice(error) or []
    present = [k for k in error.instance if k in keys]  # as written
    listed = ", ".join(keys)
    place = _where(document, path)
    if not present:
        return diagnose("DM104", document.locate(path, key=True),
                        f"{place} must name exactly one of: {listed}; it names none")
    named = ", ".join(f"'{k}'" for k in present[:-1]) + f" and '{present[-1]}'"
    return diagnose("DM101", document.locate(path + (present[1],), key=True),
                    f"{place} must name exactly one of: {listed}; it names {named}")


def _missing(error: Any) -> list[str]:
    value = error.instance
    return [p for p in error.validator_value if isinstance(value, dict) and p not in value]


def _unknown_word(document: SourceDocument, error: Any, path: tuple[Any, ...]) -> list[Diagnostic]:
    allowed = list(error.validator_value) if error.validator == "enum" else []
    code, noun = _vocabulary(allowed)
    word = str(error.instance)
    return [
        diagnose(
            code,
            document.locate(path + (word,), key=True),
            f"unknown {noun} '{word}' in {subject(document.data, path)}",
            hint=did_you_mean(word, allowed),
        )
    ]


def _unknown_properties(
    document: SourceDocument, error: Any, path: tuple[Any, ...], placement: KeyPlacement,
    accounted: set[tuple[tuple[Any, ...], str]], moves: list[Move],
) -> list[Diagnostic]:
    properties = error.schema.get("properties", {})
    found: list[Diagnostic] = []
    for key in error.instance:
        if key in properties:
            continue
        verdict = placement.explain(path, str(key), list(properties))
        if verdict.meant is not None:
            moves.append(((*path, key), *verdict.meant))
            if verdict.fills_gap:
                accounted.add(verdict.meant)
        found.append(diagnose(
            "DM102", document.locate(path + (key,), key=True),
            f"unknown property '{key}' in {_where(document, path)}", hint=verdict.hint))
    return found


def _missing_properties(document: SourceDocument, path: tuple[Any, ...],
                        missing: list[str]) -> Diagnostic:
    names = ", ".join(f"'{m}'" for m in missing)
    return diagnose(
        "DM104",
        document.locate(path, key=True),
        f"{_where(document, path)} is missing the required propert"
        f"{'ies' if len(missing) > 1 else 'y'} {names}",
    )


def _single(document: SourceDocument, error: Any, path: tuple[Any, ...]) -> Diagnostic:
    validator = error.validator
    value = error.instance
    place = _where(document, path)
    if validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return diagnose(
            "DM103",
            document.locate(path),
            f"{place} must be {_article(expected)}, not {_described(value)}",
        )
    if validator in ("enum", "const"):
        allowed = error.validator_value if validator == "enum" else [error.validator_value]
        shown = ", ".join(_short(a) for a in allowed[:12]) + (", ..." if len(allowed) > 12 else "")
        return diagnose(
            "DM106",
            document.locate(path),
            f"{place} is {_described(value)}, but must be one of: {shown}",
            hint=did_you_mean(str(value), [str(a) for a in allowed]),
        )
    if validator == "not":
        # A 'not' schema says what must not appear; its description says why in words.
        reason = error.schema.get("description") if isinstance(error.schema, dict) else None
        return diagnose("DM106", document.locate(path, key=True),
                        f"{place}: {reason or 'this combination is not allowed'}")
    bound = _bound(validator, error.validator_value, value)
    if bound is not None:
        return diagnose("DM106", document.locate(path), f"{place} {bound}")
    return diagnose("DM101", document.locate(path), f"{place} {_broken_rule(error)}")


# Range keywords: (what is measured, word for the limit).
_BOUNDS = {
    "minimum": ("", "at least"), "maximum": ("", "at most"),
    "exclusiveMinimum": ("", "more than"), "exclusiveMaximum": ("", "less than"),
    "minItems": ("item", "at least"), "maxItems": ("item", "at most"),
    "minLength": ("character", "at least"), "maxLength": ("character", "at most"),
    "minProperties": ("key", "at least"), "maxProperties": ("key", "at most"),
}


def _bound(validator: str, limit: Any, value: Any) -> str | None:
    """"is 0, but must be at least 1" / "has 3 items, but must have at least 4"."""
    known = _BOUNDS.get(validator)
    if known is None:
        return None
    unit, word = known
    if not unit:
        return f"is {_short(value)}, but must be {word} {limit}"
    size = len(value) if isinstance(value, (list, str, dict)) else 0
    return f"has {_count(size, unit)}, but must have {word} {_count(limit, unit)}"


def _broken_rule(error: Any) -> str:
    """The rule a value breaks, in words: the schema's own description when it has one."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "pattern":
        return f"is {_described(error.instance)}, which does not match the pattern {error.validator_value}"
    if error.validator == "uniqueItems":
        return "lists the same item more than once; keep one of each"
    description = schema.get("description")
    if isinstance(description, str):
        return f"breaks the rule '{error.validator}' here: {description.rstrip('.')}"
    return f"breaks the schema's rule '{error.validator}'"


def _count(amount: Any, unit: str) -> str:
    return f"{amount} {unit}" if amount == 1 else f"{amount} {unit}s"


def _described(value: Any) -> str:
    """A value as a message shows it: scalars as written, containers by what they are."""
    if isinstance(value, (dict, list)):
        return _describe(value)
    return f"{_describe(value)} ({_short(value)})" if value is not None else "null"


def _article(type_name: str) -> str:
    names = {"object": "a mapping", "array": "a list", "integer": "an integer"}
    return names.get(type_name, f"a {type_name}")

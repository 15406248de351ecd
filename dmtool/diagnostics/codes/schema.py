"""Diagnostic codes of the schema stage (DM1xx): a document against its kind's schema."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM101", "schema-violation", "Value does not match the schema", E,
             "A value breaks a rule of its kind's schema that no more specific code covers "
             "(a pattern, a length, a uniqueness constraint...).",
             "kind: coda\nid: Not Kebab Case\n"),
    CodeInfo("DM102", "unknown-property", "Unknown property", E,
             "The mapping has a key its schema does not define. It is usually a misspelling.",
             "kind: coda\nid: x\ntitel: The Voice Below\n"),
    CodeInfo("DM103", "wrong-type", "Wrong type", E,
             "The value has the wrong type (for example a string where a number is needed).",
             "kind: wanderer\nmax_health: six\n"),
    CodeInfo("DM104", "missing-property", "Missing required property", E,
             "A property the kind requires is absent.", "kind: coda\nid: x\n"),
    CodeInfo("DM105", "unknown-effect", "Unknown effect", E,
             "An effect names no effect of the vocabulary. Effects are single-key mappings such "
             "as '- goto: 12' or '- lose_health: 1'.", "effects:\n  - gotoo: 12\n"),
    CodeInfo("DM106", "bad-value", "Value not allowed", E,
             "The value is not one of those allowed here, or lies outside the allowed range.",
             "colour: pink\n"),
    CodeInfo("DM107", "unknown-condition", "Unknown condition", E,
             "A condition names no condition of the vocabulary.",
             "when: {has_kodah: x}\n"),
)

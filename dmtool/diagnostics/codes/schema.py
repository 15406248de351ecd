"""Diagnostic codes of the schema stage (DM1xx): a document against its kind's schema."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM101", "schema-violation", "Value does not match the schema", E,
             "A value breaks a rule of its kind's schema that no more specific code covers "
             "(a pattern, a length, a uniqueness constraint...).",
             'id: Not Kebab Case\n',
             fixed='id: not-kebab-case\n'),
    CodeInfo("DM102", "unknown-property", "Unknown property", E,
             "The mapping has a key its schema does not define. It is usually a misspelling.",
             'efects: []\n',
             fixed='effects: []\n'),
    CodeInfo("DM103", "wrong-type", "Wrong type", E,
             "The value has the wrong type (for example a string where a number is needed).",
             'icons: red\n',
             fixed='icons: [red]\n'),
    CodeInfo("DM104", "missing-property", "Missing required property", E,
             "A property the kind requires is absent.", 'id: no-text\nicons: [red]\n',
                                                        fixed='id: no-text\nicons: [red]\ntext: Teeth in the wallpaper.\n'),
    CodeInfo("DM105", "unknown-effect", "Unknown effect", E,
             "An effect names no effect of the vocabulary. Effects are single-key mappings such "
             "as '- goto: 12' or '- lose_health: 1'.", '  - gotoo: 12\n',
                                                       fixed='  - goto: 12\n'),
    CodeInfo("DM106", "bad-value", "Value not allowed", E,
             "The value is not one of those allowed here, or lies outside the allowed range.",
             'icons: [red, pink]\n',
             fixed='icons: [red, purple]\n'),
    CodeInfo("DM107", "unknown-condition", "Unknown condition", E,
             "A condition names no condition of the vocabulary.",
             '      when: {has_kodah: the-old-song}\n',
             fixed='      when: {has_coda: the-old-song}\n'),
)

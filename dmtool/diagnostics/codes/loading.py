"""Diagnostic codes of the loading stage (DM0xx): reading files and YAML safely."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM001", "yaml-syntax", "YAML syntax error", E,
             "The file is not well-formed YAML, so nothing in it can be checked until this is "
             "fixed. The position is where the parser gave up, which can be a little after the "
             "real mistake (an unclosed bracket or quote, a tab used for indentation, a "
             "value with ': ' in it that needs quotes). dmtool reads YAML 1.2 with libyaml, "
             "which also refuses a few exotic forms the spec allows, such as tabs between "
             "tokens; plain block-style YAML is never affected.",
             'title: The voice: below the stair\n',
             fixed='title: "The voice: below the stair"\n'),
    CodeInfo("DM002", "duplicate-key", "Duplicate key", E,
             "A mapping names the same key twice. YAML loaders silently keep one of the two "
             "values, so dmtool refuses the file instead of guessing which one you meant. "
             "The diagnostic points at the second key and relates the first. A number key "
             "and the same number in quotes (4 and '4') count as the same key.",
             'title: The Voice Below\ntitle: The Voice Beneath\n',
             fixed='title: The Voice Below\n'),
    CodeInfo("DM003", "alias-or-anchor", "Anchors and aliases are not allowed", E,
             "Content files may not use YAML anchors (&a) or aliases (*a). They make files "
             "hard to read, hide what a card says, and allow 'billion laughs' expansion bombs; "
             "dmtool refuses them as soon as it meets them, without expanding anything.",
             'id: &voice the-voice-below\ntitle: *voice\n',
             fixed='id: the-voice-below\ntitle: The Voice Below\n'),
    CodeInfo("DM004", "too-deep", "Nesting too deep", E,
             "The document nests mappings and lists more than 64 levels deep, or deeper "
             "than the max-nesting setting when the project sets a lower limit (the "
             "document's top mapping is the first level). Real content needs about ten to "
             "fifteen; the limit protects dmtool and every other tool that reads the file. "
             "The position is the mapping or list that goes one level too deep.",
             'notes: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[deep]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n',
             fixed='notes: [deep]\n'),
    CodeInfo("DM005", "several-documents", "Several documents in one file", E,
             "Each content file holds exactly one YAML document. Move everything after the "
             "second '---' to a file of its own.",
             'id: the-voice-below\n---\nkind: coda\nid: the-voice-beyond\n',
             fixed='id: the-voice-below\n'),
    CodeInfo("DM006", "empty-file", "Empty file", E,
             "The file has no YAML document: it is empty, holds only comments, or only a "
             "'---' line. Add the content or delete the file.",
             '# This coda was never written.\n',
             fixed='# This coda was never written.\nkind: coda\nid: the-voice-below\n'),
    CodeInfo("DM007", "not-utf8", "File is not UTF-8", E,
             "Content files must be UTF-8 encoded; a UTF-8 byte order mark is tolerated. "
             "Files saved as UTF-16, UTF-32 or a legacy encoding such as Latin-1 are refused "
             "at the first byte that is not UTF-8.",
             "(a file saved in Latin-1: 'Café' is the bytes 43 61 66 e9)",
             fixed="(the same file saved as UTF-8: 'Café' is 43 61 66 c3 a9)"),
    CodeInfo("DM008", "nul-byte", "NUL byte in file", E,
             "The file contains a NUL byte, which no text file should; it is binary, "
             "corrupted, or UTF-16 without a byte order mark.", '(a NUL byte, 0x00, in the middle of a line)',
                                                                fixed='(the same line without it)'),
    CodeInfo("DM009", "file-too-large", "File too large", E,
             "The file is larger than the size limit for one content file (64 MiB unless "
             "the max-file-size setting says otherwise). The size is checked before the file "
             "is read. Split the file, or raise max-file-size if it is meant to be this large.",
             '(a file over the max-file-size setting)',
             fixed="(the file split in two, or max-file-size raised in dmtool.toml)"),
    CodeInfo("DM010", "unreadable-path", "Path cannot be read", E,
             "A path given or found cannot be read: it does not exist, is a dangling symbolic "
             "link or a link loop, is not a regular file (a directory given as a file, a "
             "pipe, a device), or permission is denied.", '(a symbolic link to a file that does not exist)',
                                                          fixed='(the link pointing at the file, or removed)'),
    CodeInfo("DM011", "tag-not-allowed", "Explicit YAML tags are not allowed", E,
             "Content is plain data: strings, numbers, booleans, null, lists and mappings. "
             "Explicit tags such as !!str, !!binary or !custom are refused; quote a value "
             "to make it text.",
             'title: !!str The Voice Below\n',
             fixed='title: The Voice Below\n'),
    CodeInfo("DM012", "unsupported-value", "Value cannot be represented as JSON", E,
             "A key or value has no JSON equivalent: a mapping or list used as a key, a key "
             "that reads as null, a boolean or a fractional number, or a number that is NaN, "
             "infinite or too large. Whole-number keys such as 4: are fine and read as the "
             "text '4', as in JSON.", 'odds: .nan\n',
                                      fixed='odds: 0.5\n'),
    CodeInfo("DM020", "unsupported-yaml", "YAML the parser cannot read faithfully", E,
             "The YAML 1.2 spec allows this construct, but dmtool's parser (libyaml) would "
             "read it into different data, so dmtool refuses it rather than guess: '?' written "
             "directly before text inside [...] or {...} (quote the text), and the invisible "
             "characters U+0085, U+2028 and U+2029, which the parser takes for line breaks "
             "(replace them with a plain line break or a space).",
             '  labels: {?4: Penitent Sorrow}\n',
             fixed='  labels: {"?4": Penitent Sorrow}\n'),
    CodeInfo("DM013", "top-not-mapping", "Document is not a mapping", E,
             "A content document must be a mapping that starts with 'kind:' and 'id:'.",
             '- kind: devour-card\n- id: a-list\n',
             fixed='kind: devour-card\nid: a-list\n'),
    CodeInfo("DM014", "missing-kind", "No 'kind' key", E,
             "Every content document says what it is with a 'kind:' key; without it dmtool "
             "cannot choose a schema.", 'id: no-kind-here\n',
                                        fixed='kind: devour-card\nid: no-kind-here\n'),
    CodeInfo("DM015", "unknown-kind", "Unknown kind", E,
             "The 'kind:' value names no content kind dmtool knows.",
             'kind: devour-crad\n',
             fixed='kind: devour-card\n'),
    CodeInfo("DM016", "modeline-mismatch", "Schema modeline does not match the kind", E,
             "The '# yaml-language-server: $schema=...' comment points at a schema for a "
             "different kind than the document's 'kind:', so the editor checks it against "
             "the wrong rules.",
             '# yaml-language-server: $schema=../../../schemas/coda.schema.json\nkind: devour-card\n',
             fixed='# yaml-language-server: $schema=../../../schemas/devour-card.schema.json\nkind: devour-card\n'),
    CodeInfo("DM017", "missing-modeline", "No schema modeline", W,
             "Content files carry a '# yaml-language-server: $schema=...' comment so editors "
             "check them while you type.", 'kind: devour-card\nid: no-modeline\n',
                                           fixed='# yaml-language-server: $schema=../../../schemas/devour-card.schema.json\nkind: devour-card\nid: no-modeline\n'),
    CodeInfo("DM018", "modeline-unresolved", "Schema modeline points nowhere", W,
             "The modeline's $schema path does not lead to a dmtool schema file.",
             '# yaml-language-server: $schema=../schemas/devour-card.schema.json\n',
             fixed='# yaml-language-server: $schema=../../../schemas/devour-card.schema.json\n'),
    CodeInfo("DM019", "no-content-files", "No content files found", W,
             "The paths given contain no YAML files to check, or every one of them is "
             "excluded by the configuration's 'exclude' patterns; with --strict the run fails.",
             '(a folder with no YAML file in it)',
             fixed='(the folder holding the content files, e.g. content/)'),
    CodeInfo("DM021", "suppression-without-reason", "Suppression without a reason", W,
             "A '# dmtool: ignore[CODES]' comment (or a per-file ignore in the configuration) "
             "says which findings to silence but not why. It still silences them; write the "
             "reason after the brackets (or as the entry's 'reason'), so the next reader knows "
             "whether it still holds.",
             '# dmtool: ignore-file[DM017]\n',
             fixed='# dmtool: ignore-file[DM017] written by a script that adds no modeline\n'),
    CodeInfo("DM022", "unused-suppression", "Suppression that silences nothing", W,
             "A suppression comment or per-file ignore names a code that nothing reports there "
             "(any more), or a code dmtool does not have, or no code at all. Remove it, or fix "
             "the code: a stale suppression would silently hide the next real finding.",
             'id: well-kept  # dmtool: ignore[DM202] this id was once referenced by a draft\n',
             fixed='id: well-kept\n'),
)

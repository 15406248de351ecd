"""Diagnostic codes of the loading stage (DM0xx): reading files and YAML safely."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM001", "yaml-syntax", "YAML syntax error", E,
             "The file is not well-formed YAML; nothing in it can be checked until this is fixed.",
             "title: [unclosed\n"),
    CodeInfo("DM002", "duplicate-key", "Duplicate key", E,
             "A mapping names the same key twice. YAML loaders silently keep one of the two "
             "values, so dmtool refuses the file instead of guessing which one you meant.",
             "title: A\ntitle: B\n"),
    CodeInfo("DM003", "alias-or-anchor", "Anchors and aliases are not allowed", E,
             "Content files may not use YAML anchors (&a) or aliases (*a). They make files "
             "hard to read, hide what a card says, and allow 'billion laughs' expansion bombs.",
             "a: &x [1, 2]\nb: *x\n"),
    CodeInfo("DM004", "too-deep", "Nesting too deep", E,
             "The document nests mappings and sequences deeper than the limit. Real content "
             "never needs it; the limit protects every tool that reads the file.",
             "a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"),
    CodeInfo("DM005", "several-documents", "Several documents in one file", E,
             "Each content file holds exactly one YAML document. Split the file at each '---'.",
             "kind: coda\n---\nkind: coda\n"),
    CodeInfo("DM006", "empty-file", "Empty file", E,
             "The file has no YAML document (it is empty or holds only comments).",
             "# nothing here\n"),
    CodeInfo("DM007", "not-utf8", "File is not UTF-8", E,
             "Content files must be UTF-8 encoded (a UTF-8 byte order mark is tolerated).",
             "(bytes 0xff 0xfe ...)"),
    CodeInfo("DM008", "nul-byte", "NUL byte in file", E,
             "The file contains a NUL byte, which no text file should; it is probably binary "
             "or corrupted.", "(a 0x00 byte)"),
    CodeInfo("DM009", "file-too-large", "File too large", E,
             "The file is larger than the size limit for one content file. Split it.",
             "(a 64 MiB file)"),
    CodeInfo("DM010", "unreadable-path", "Path cannot be read", E,
             "A path given or found cannot be read: it does not exist, is not a regular file, "
             "is not readable, or is a symbolic link loop.", "(a dangling symlink)"),
    CodeInfo("DM011", "tag-not-allowed", "Explicit YAML tags are not allowed", E,
             "Content is plain data: strings, numbers, booleans, null, lists and mappings. "
             "Explicit tags such as !!python/object or !custom are refused.",
             "title: !!binary aGVsbG8=\n"),
    CodeInfo("DM012", "unsupported-value", "Value cannot be represented as JSON", E,
             "A key or value has no JSON equivalent (for example a non-string mapping key, "
             "a complex key, or a NaN/infinite number).", "? [a, b]\n: c\n"),
    CodeInfo("DM020", "unsupported-yaml", "YAML the parser cannot read faithfully", E,
             "The YAML 1.2 spec allows this construct, but dmtool's parser (libyaml) would "
             "read it into different data, so dmtool refuses it rather than guess. Quoting "
             "the text always works.",
             "labels: {?first: 1}\n"),
    CodeInfo("DM013", "top-not-mapping", "Document is not a mapping", E,
             "A content document must be a mapping that starts with 'kind:' and 'id:'.",
             "- just\n- a list\n"),
    CodeInfo("DM014", "missing-kind", "No 'kind' key", E,
             "Every content document says what it is with a 'kind:' key; without it dmtool "
             "cannot choose a schema.", "id: lonely\ntitle: Lonely\n"),
    CodeInfo("DM015", "unknown-kind", "Unknown kind", E,
             "The 'kind:' value names no content kind dmtool knows.",
             "kind: wandrer\nid: mara\n"),
    CodeInfo("DM016", "modeline-mismatch", "Schema modeline does not match the kind", E,
             "The '# yaml-language-server: $schema=...' comment points at a schema for a "
             "different kind than the document's 'kind:', so the editor checks it against "
             "the wrong rules.",
             "# yaml-language-server: $schema=../../schemas/coda.schema.json\nkind: wanderer\n"),
    CodeInfo("DM017", "missing-modeline", "No schema modeline", W,
             "Content files carry a '# yaml-language-server: $schema=...' comment so editors "
             "check them while you type.", "kind: coda\nid: the-voice-below\n"),
    CodeInfo("DM018", "modeline-unresolved", "Schema modeline points nowhere", W,
             "The modeline's $schema path does not lead to a dmtool schema file.",
             "# yaml-language-server: $schema=../nowhere.json\n"),
    CodeInfo("DM019", "no-content-files", "No content files found", W,
             "The paths given contain no YAML files to check.", "(an empty folder)"),
)

"""The floor of performance.md: parse storybooks with yaml-rs, validate them with jsonschema-rs.

Usage: python bench/floor.py SCHEMAS_DIR STORYBOOK... (prints how many are invalid)
"""

import json
import sys
from pathlib import Path

import jsonschema_rs
import yaml_rs

schemas, files = Path(sys.argv[1]), sys.argv[2:]
base = "https://schemas.dmtool.invalid/"
registry = jsonschema_rs.Registry([(base + p.name, json.loads(p.read_text(encoding="utf-8")))
                                   for p in schemas.glob("*.schema.json")])
storybook = json.loads((schemas / "storybook.schema.json").read_text(encoding="utf-8"))
validator = jsonschema_rs.validator_for(storybook, registry=registry,
                                        base_uri=base + "storybook.schema.json")
invalid = sum(not validator.is_valid(yaml_rs.loads(Path(name).read_text(encoding="utf-8"),
                                                   parse_datetime=False)) for name in files)
print(f"{len(files)} storybooks, {invalid} invalid")

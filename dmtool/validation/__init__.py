"""Checking content: schema validation, cross-file references and domain rules."""

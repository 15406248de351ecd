"""Benchmarks for `make bench` (not part of the package)."""

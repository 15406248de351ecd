"""Fatal user errors (bad flags, unusable configuration); caught once in the CLI."""

from __future__ import annotations


class DmtoolError(Exception):
    """A problem that stops a command before it can report on content (exit code 2)."""


class UsageError(DmtoolError):
    """A flag, argument or configuration value that cannot be used."""


class ConfigError(DmtoolError):
    """A dmtool configuration file that cannot be read or is malformed."""

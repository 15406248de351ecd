"""Turning checked content, storybook analyses and the diagnostic catalogue into a MkDocs site."""

from __future__ import annotations

from dmtool.sitegen.commands import SiteOptions, SiteResult, run_site

__all__ = ["SiteOptions", "SiteResult", "run_site"]

"""Links from a diagnostic's code to its explanation: the site's reference page when the
editor configures the site's address, else the `dmtool explain` text as a local page."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from dmtool import __version__
from dmtool.commands.explain import explain_code
from dmtool.diagnostics.catalogue import catalogue
from dmtool.errors import DmtoolError
from dmtool.lsp.convert import uri_of
from dmtool.writing import write_report

# Where the site's diagnostics reference lives (dmtool.sitegen.reference.DIAGNOSTICS_PAGE).
SITE_PAGE = "reference/diagnostics/"


class ExplainLinks:
    """One link per code; local explanation pages are written once per server and version."""

    def __init__(self, site_url: str | None = None, folder: Path | None = None) -> None:
        self.site_url = site_url.rstrip("/") + "/" if site_url else None
        user = getattr(os, "getuid", lambda: "user")()
        self.folder = folder or Path(tempfile.gettempdir()) / f"dmtool-explain-{__version__}-{user}"
        self._written: dict[str, str] = {}

    def link(self, code: str) -> str | None:
        if code not in catalogue():
            return None
        if self.site_url:
            return f"{self.site_url}{SITE_PAGE}#{code.lower()}"
        known = self._written.get(code)
        if known is None:
            text = explain_code(code)
            if text is None:
                return None
            page = self.folder / f"{code}.md"
            try:
                if not page.is_file() or page.read_text(encoding="utf-8") != _page(code, text):
                    write_report(page, _page(code, text))
            except (OSError, DmtoolError):
                return None  # no page, no link: the diagnostic still shows its code
            known = self._written[code] = uri_of(page)
        return known


def _page(code: str, text: str) -> str:
    return f"<!-- dmtool explain {code} -->\n" + text

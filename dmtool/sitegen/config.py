"""The MkDocs configuration of the site: mkdocs-material, served and opened from disk alike.

Nothing is loaded from another host: no web fonts (`font: false`), the offline plugin's
iframe-worker shim vendored under assets/vendor, and no analytics or repository widgets.
Strict mode turns any warning (a broken link or anchor) into a failed build.
"""

from __future__ import annotations

from typing import Any

from dmtool.sitegen.pages import Nav

SITE_NAME = "Dawn of Madness and Deep Madness"
ASSETS = "assets/dmtool"
SHIM = f"{ASSETS}/vendor/iframe-worker-shim.js"
PAN_ZOOM = f"{ASSETS}/vendor/svg-pan-zoom.min.js"
SCRIPT = f"{ASSETS}/dmtool.js"
READER = (f"{ASSETS}/dmtool-reader.js", f"{ASSETS}/dmtool-reader-ui.js")
STYLE = f"{ASSETS}/dmtool.css"
HOOKS = "hooks.py"

_PALETTE = [
    {"media": "(prefers-color-scheme: light)", "scheme": "default", "primary": "blue grey",
     "accent": "deep orange",
     "toggle": {"icon": "material/weather-night", "name": "Switch to dark mode"}},
    {"media": "(prefers-color-scheme: dark)", "scheme": "slate", "primary": "blue grey",
     "accent": "deep orange",
     "toggle": {"icon": "material/weather-sunny", "name": "Switch to light mode"}},
]


def mkdocs_config(nav: Nav) -> dict[str, Any]:
    """The whole configuration (written as JSON, which is YAML, so every string is quoted)."""
    return {
        "site_name": SITE_NAME,
        "docs_dir": "docs",
        "strict": True,
        # File URLs (page.html, not page/) so the built folder can be browsed from disk.
        "use_directory_urls": False,
        "theme": {
            "name": "material",
            "font": False,
            "palette": _PALETTE,
            "features": ["navigation.tabs", "navigation.sections", "navigation.top",
                         "navigation.footer", "search.highlight", "toc.follow"],
        },
        "extra": {"polyfills": [SHIM], "generator": False},
        "extra_css": [STYLE],
        "extra_javascript": [PAN_ZOOM, SCRIPT, *READER],
        "nav": nav,
        "hooks": [HOOKS],
        "plugins": ["search", "offline"],
        "validation": {"nav": {"omitted_files": "warn", "not_found": "warn"},
                       "links": {"not_found": "warn", "anchors": "warn",
                                 "absolute_links": "warn", "unrecognized_links": "warn"}},
        "markdown_extensions": [
            {"toc": {"permalink": True, "toc_depth": 3}},
            # Column alignment as an attribute: the sanitiser keeps no style attributes.
            {"tables": {"use_align_attribute": True}},
            "admonition",
            "attr_list",
            "def_list",
            "pymdownx.details",
            {"pymdownx.highlight": {"use_pygments": True, "anchor_linenums": False}},
            "pymdownx.superfences",
        ],
    }

"""The home page, the hand-written guides from docs/, and the diagnostics reference built
from the same catalogue `dmtool explain` reads."""

from __future__ import annotations

from pathlib import Path

from dmtool.diagnostics import catalogue
from dmtool.sitegen.markdown import code_block, plain, table
from dmtool.sitegen.pages import Page

DIAGNOSTICS_PAGE = "reference/diagnostics.md"
STAGES = {"0": "Loading", "1": "Schemas", "2": "References and domain rules", "3": "Story graph",
          "4": "Scenarios and engine", "5": "Site"}
_LANDING = """# Dawn of Madness and Deep Madness content

This site is built by `dmtool site` from the YAML files under `content/`. Every page is
generated, so it always matches the content that `dmtool check` validated.
"""


def guide_pages(docs_dir: Path | None) -> tuple[list[Page], str | None]:
    """The project's own Markdown pages (trusted text, copied as written) and the home page.

    Only `*.md` files directly in docs/ are taken; index.md becomes the home page.
    """
    if docs_dir is None or not docs_dir.is_dir():
        return [], None
    pages: list[Page] = []
    home: str | None = None
    for path in sorted(docs_dir.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if path.name == "index.md":
            home = text
        else:
            pages.append(Page(path.name, text))
    return pages, home


def home_page(home: str | None, *, sections: list[tuple[str, str]]) -> Page:
    """docs/index.md (or a short landing text) followed by links into the generated parts."""
    links = "\n".join(f"- [{title}]({path})" for title, path in sections)
    text = (home or _LANDING).rstrip() + "\n\n## Browse the content\n\n" + links + "\n"
    return Page("index.md", text)


def diagnostics_page() -> Page:
    """Every catalogued code: an index table, then title, severity, description, example."""
    codes = catalogue()
    rows = [[f"[{code}](#{code.lower()})", info.severity.value, plain(info.title)]
            for code, info in codes.items()]
    blocks = ["# Diagnostics reference",
              ("Every problem dmtool reports carries one of these codes. `dmtool explain CODE` "
              "prints the same text in a terminal."),
              table(["Code", "Default severity", "Title"], rows)]
    stage = None
    for code, info in codes.items():
        if code[2] != stage:
            stage = code[2]
            blocks.append(f"## {STAGES.get(stage, 'Other')} ({code[:3]}xx)")
        blocks += [
            f'<div id="{code.lower()}"></div>',
            f"### {code} {plain(info.name)}",
            f"**{plain(info.title)}** · default severity: *{info.severity.value}*",
            plain(info.description),
            "Example:",
            code_block(info.example),
        ]
    return Page(DIAGNOSTICS_PAGE, "\n\n".join(blocks) + "\n")

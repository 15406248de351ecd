"""The home page, the hand-written guides from docs/, and the diagnostics reference built
from the same catalogue `dmtool explain` reads."""

from __future__ import annotations

from pathlib import Path

from dmtool.diagnostics import CodeInfo, catalogue
from dmtool.sitegen.markdown import code_block, plain, table
from dmtool.sitegen.pages import Page

DIAGNOSTICS_PAGE = "reference/diagnostics.md"
STAGES = {"0": "Loading", "1": "Schemas", "2": "References and domain rules", "3": "Story graph",
          "4": "Scenarios and engine", "5": "Site"}
_LANDING = """# Dawn of Madness and Deep Madness content

This site is built by `dmtool site` from the YAML files under `content/`. Every page is
generated, so it always matches the content that `dmtool check` validated.
"""
_OFFLINE = """!!! tip "Reading this site without a server"
    The whole site works when its folder is opened from disk (`index.html` in a browser),
    search included; the branch pictures are drawn into the pages, so nothing is fetched
    from anywhere."""


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


def home_page(home: str | None, *, sections: list[tuple[str, str]], errors: int = 0) -> Page:
    """docs/index.md (or a short landing text), links into the generated parts, and a note on
    reading the site from disk; a warning when it was built from content with errors."""
    links = "\n".join(f"- [{title}]({path})" for title, path in sections)
    text = (home or _LANDING).rstrip() + "\n\n"
    if errors:
        text += (f'!!! danger "Built from content with {errors} error'
                 f'{"s" if errors != 1 else ""}"\n    `dmtool site --allow-errors` built this '
                 "site although `dmtool check` found errors; documents with errors are left "
                 "out. Run `dmtool check` to see them.\n\n")
    text += "## Browse the content\n\n" + links + "\n\n" + _OFFLINE + "\n"
    return Page("index.md", text)


def diagnostics_page() -> Page:
    """Every catalogued code: an index table, then what it means, an example that produces it
    and its fixed version."""
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
        blocks += [f"### {code} {plain(info.name)} {{#{code.lower()}}}",
                   f"**{plain(info.title)}** · default severity: *{info.severity.value}*",
                   plain(info.description)]
        blocks += example_blocks(info)
    return Page(DIAGNOSTICS_PAGE, "\n\n".join(blocks) + "\n")


def example_blocks(info: CodeInfo) -> list[str]:
    """What produces the code and its fixed version, as `dmtool explain` shows them (both
    written in the code's case folder and checked by tests/test_explain.py)."""
    blocks = ["What produces it:", _snippet(info.example)]
    if info.fixed is None:
        return blocks
    fixed = _snippet(info.fixed) if info.fixed.strip() else "Delete those lines."
    return [*blocks, "The fixed version:", fixed]


def _snippet(text: str) -> str:
    """Text as written in a file, or (in parentheses) a situation described in words."""
    if text.startswith("(") and text.rstrip().endswith(")"):
        return f"*{plain(text.strip()[1:-1])}*"
    return code_block(text)

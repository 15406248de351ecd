"""Diagnostic codes of the site stage (DM5xx): authored prose that the site cannot show as written."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo(
        "DM501",
        "raw-html-in-prose",
        "Raw HTML in prose is shown as text",
        W,
        "Authored prose is Markdown without raw HTML. The site escapes every angle bracket, "
        "so a tag such as <b> or <img> appears on the page as the literal characters rather "
        "than as markup. Write the words plainly, or use Markdown emphasis (*word*).",
        '  The bell rings <b>once</b> under the water, and the sound <img src=x onerror=alert(1)>\n',
        fixed='  The bell rings *once* under the water, and the sound\n',
    ),
    CodeInfo(
        "DM502",
        "link-in-prose",
        "Link or image in prose is shown as text",
        W,
        "The site never turns authored text into links or images, because an address in "
        "content could point anywhere (a javascript: address runs code in the reader's "
        "browser). Markdown links, images, autolinks and link definitions are shown as "
        "the literal characters. Name the place in words instead.",
        'text: The map shows [the old road](javascript:alert(1)), long since under the reservoir.\n',
        fixed='text: The map shows the old road, long since under the reservoir.\n',
    ),
    CodeInfo(
        "DM503",
        "markdown-block-in-prose",
        "Markdown block syntax in prose is shown as text",
        W,
        "A line of prose that starts as a Markdown block would change the page around it: "
        "'# words' becomes a heading inside an entry, '!!! danger' an empty warning box, "
        "': words' under a line a definition. The site shows such lines as ordinary "
        "sentences, with the mark as a literal character. Start the line with words, or "
        "move the mark inside the sentence.",
        "text: |\n  # The nave\n  Water stands to the pews, and the hymn boards float.\n",
        fixed="text: |\n  The nave. Water stands to the pews, and the hymn boards float.\n",
    ),
)

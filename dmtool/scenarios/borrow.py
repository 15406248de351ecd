"""Borrowing a card's definition from authored content ('from: <id>'), and the problem a
fixture's setup raises when the engine cannot start from it."""

from __future__ import annotations

from typing import Any

from dmtool.model.content_index import ContentIndex

Parts = tuple[Any, ...]


class SetupProblem(Exception):
    """A setup the engine cannot start from; `code` is the DM4xx code, `where` the path."""

    def __init__(self, code: str, message: str, where: Parts) -> None:
        super().__init__(message)
        self.code, self.message, self.where = code, message, where


def borrow(content: ContentIndex, kind: str, body: dict[str, Any], where: Parts,
            kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The body, on top of the content document it names with 'from' (if any)."""
    body = dict(body)
    source = body.pop("from", None)
    if source is None:
        return body
    for k in kinds or (kind,):
        found = content.get(k, source)
        if found is not None:
            merged = {key: v for key, v in found.items() if key not in ("id",)}
            merged.update(body)
            return merged
    raise SetupProblem("DM414", f"No {' or '.join(kinds or (kind,))} with id '{source}' was "
                       f"found in {content.root}; fix the id or define the card inline.",
                       where + ("from",))

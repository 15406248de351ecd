"""`dmtool explain`: the catalogue entry of a code, as text: the problem and its fix."""

from __future__ import annotations

from dmtool.diagnostics import catalogue


def explain_code(code: str) -> str | None:
    info = catalogue().get(code.strip().upper())
    if info is None:
        return None
    text = (
        f"{info.code} ({info.name}): {info.title}\n"
        f"Default severity: {info.severity.value}\n\n"
        f"{info.description}\n\n"
        f"Example:\n{_block(info.example)}\n"
    )
    if info.fixed is not None:
        fixed = _block(info.fixed) if info.fixed.strip() else "    (delete those lines)"
        text += f"\nFixed:\n{fixed}\n"
    return text


def _block(snippet: str) -> str:
    return "\n".join("    " + line for line in snippet.rstrip("\n").splitlines())


def explain_all() -> str:
    return "\n".join(
        f"{info.code}  {info.severity.value:<7}  {info.title}" for info in catalogue().values()
    )

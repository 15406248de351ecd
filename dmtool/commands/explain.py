"""`dmtool explain`: the catalogue entry of a code, as text."""

from __future__ import annotations

from dmtool.diagnostics import catalogue


def explain_code(code: str) -> str | None:
    info = catalogue().get(code.strip().upper())
    if info is None:
        return None
    example = "\n".join("    " + line for line in info.example.rstrip("\n").splitlines())
    return (
        f"{info.code} ({info.name}): {info.title}\n"
        f"Default severity: {info.severity.value}\n\n"
        f"{info.description}\n\n"
        f"Example:\n{example}\n"
    )


def explain_all() -> str:
    return "\n".join(
        f"{info.code}  {info.severity.value:<7}  {info.title}" for info in catalogue().values()
    )

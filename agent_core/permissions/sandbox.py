"""Layer 2: file access stays inside the project root and the configured extra directories."""

from __future__ import annotations

from pathlib import Path

from agent_core.permissions.actions import Action


def sandbox_denial(actions: list[Action], project_root: Path) -> str | None:
    """The reason the first out-of-sandbox path is refused, or None when all are inside."""
    for action in actions:
        for target in action.reads + action.writes:
            if target.root is not None:
                continue
            shown = str(target.path)
            if target.raw not in (shown, str(target.lexical)) and target.lexical != target.path:
                shown = f"{target.raw} -> {shown}"
            return f"path is outside the project: {shown} (project root is {project_root})"
    return None

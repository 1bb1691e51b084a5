"""Layer 2: file access stays inside the project root and the configured extra directories."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agent_core.permissions.actions import Action
from agent_core.permissions.paths import is_inside


def sandbox_denial(
    actions: list[Action], project_root: Path, read_dirs: Sequence[Path] = ()
) -> str | None:
    """The reason the first out-of-sandbox path is refused, or None when all are inside.

    ``read_dirs`` may be read (not written) although they are outside the project.
    """
    for action in actions:
        readable = [t for t in action.reads if any(is_inside(t.path, d) for d in read_dirs)]
        for target in action.reads + action.writes:
            if target.root is not None or target in readable:
                continue
            shown = str(target.path)
            if target.raw not in (shown, str(target.lexical)) and target.lexical != target.path:
                shown = f"{target.raw} -> {shown}"
            return f"path is outside the project: {shown} (project root is {project_root})"
    return None

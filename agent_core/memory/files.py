"""File memory: MEWCODE.md (and AGENTS.md / CLAUDE.md) loaded into the environment block.

Order: the user's ``MEWCODE_HOME/MEWCODE.md``, then the project's ``MEWCODE.md``,
``AGENTS.md`` and ``CLAUDE.md``, then ``MEWCODE.local.md`` (this machine only).
Each file is cut at ``per_file`` characters and the whole at ``total``, with a marker.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_FILES = ("MEWCODE.md", "AGENTS.md", "CLAUDE.md", "MEWCODE.local.md")
CUT = "\n[... cut: the file is longer than the memory budget]"


def memory_files(home: Path, project: Path) -> list[Path]:
    """The memory files that exist, in load order."""
    candidates = [home / "MEWCODE.md", *(project / name for name in PROJECT_FILES)]
    return [p for p in candidates if p.is_file()]


def load_memory(home: Path, project: Path, *, per_file: int = 6_000, total: int = 16_000) -> str:
    """One text block with each memory file under a heading; empty when there is none."""
    parts: list[str] = []
    used = 0
    for path in memory_files(home, project):
        try:
            text = path.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue
        if not text:
            continue
        room = min(per_file, total - used)
        if room <= 0:
            break
        if len(text) > room:
            text = text[:room] + CUT
        used += min(len(text), room)
        label = "user memory" if path.parent == home else f"project memory: {path.name}"
        parts.append(f'<memory source="{label}">\n{text}\n</memory>')
    return "\n".join(parts)

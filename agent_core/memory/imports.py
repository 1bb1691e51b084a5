"""``@path`` imports inside memory files, as Claude Code reads them: pure text and path logic.

An import is ``@`` at the start of a line or after white space, outside inline code
spans and fenced code blocks. Its path is relative to the importing file, or ``~/``
(the user's home) or absolute. It is read only where ``ImportBounds`` allows: inside
a readable root (the project, additional directories, ``~/.claude``) and outside
every hidden path (credentials, MEWCODE_HOME, Read deny rules), both as written and
where its symbolic links lead.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

MAX_DEPTH = 5  # Claude Code follows imports five hops deep
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1", re.DOTALL)
_IMPORT = re.compile(r"(?:^|(?<=\s))@([^\s`]+)")
_TRAILING = ".,;:!?)]}'\""


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks and inline code spans."""
    kept: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
        elif fence is not None:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
        else:
            kept.append(line)
    return _CODE_SPAN.sub(" ", "\n".join(kept))


def import_paths(text: str) -> list[str]:
    """The paths ``text`` imports, in order, each once."""
    found: list[str] = []
    for match in _IMPORT.finditer(_prose(text)):
        raw = match.group(1).rstrip(_TRAILING)
        if raw and raw not in found:
            found.append(raw)
    return found


def resolve_import(raw: str, importer: Path, user_home: Path) -> Path:
    """Where ``@raw`` in ``importer`` points, lexically (symlinks not followed)."""
    if raw == "~" or raw.startswith("~/"):
        target = user_home / raw[2:]
    else:
        target = importer.parent / raw
    return Path(os.path.normpath(target))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


@dataclass(frozen=True)
class ImportBounds:
    """Where an import may be read: real, absolute paths."""

    readable: tuple[str, ...]
    hidden: tuple[str, ...]

    def refusal(self, lexical: Path, real: Path) -> str | None:
        """Why this file may not be read (None: it may)."""
        for candidate in dict.fromkeys([str(lexical), str(real)]):
            if any(_inside(candidate, h) for h in self.hidden):
                return "a hidden path (credentials, MewCode's own files or a Read deny rule)"
        if not any(_inside(str(real), r) for r in self.readable):
            return "outside the project, its additional directories and ~/.claude"
        return None

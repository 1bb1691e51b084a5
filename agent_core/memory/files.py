"""File memory: MEWCODE.md and the CLAUDE.md family, loaded into the environment block.

Order: the user's ``MEWCODE_HOME/MEWCODE.md`` and ``~/.claude/CLAUDE.md``; then, in
each folder from the project root down to the start folder, ``MEWCODE.md``,
``AGENTS.md``, ``CLAUDE.md``, ``.claude/CLAUDE.md``, then this machine's
``CLAUDE.local.md`` and ``MEWCODE.local.md``. Each file's ``@path`` imports follow it
(imports.py). Each file is cut at ``per_file`` characters and the whole at ``total``.
A file is read only where it resolves inside the allowed area, and opened with no
symbolic link on the way (a link swapped in after the check fails the open).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.memory.imports import (
    MAX_DEPTH,
    ImportBounds,
    import_paths,
    resolve_import,
)

if TYPE_CHECKING:
    from agent_core.config.paths import MewcodePaths

FOLDER_FILES = (
    "MEWCODE.md",
    "AGENTS.md",
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "CLAUDE.local.md",
    "MEWCODE.local.md",
)
CUT = "\n[... cut: the file is longer than the memory budget]"
_READ_LIMIT = 1_000_000  # bytes read of any one file: the budgets cut far below this


@dataclass(frozen=True)
class MemoryReach:
    """Where memory files are looked for, and where their imports may lead."""

    mewcode_home: Path
    user_home: Path
    project: Path  # the project root
    start: Path  # the folder the session started in (the root or below it)
    bounds: ImportBounds


@dataclass(frozen=True)
class MemoryFile:
    """One loaded file: where it is, how the model sees it named, its text."""

    path: Path
    label: str
    text: str
    imported_by: Path | None = None


@dataclass
class LoadedMemory:
    """The files in load order, and what was skipped and why (for /memory)."""

    files: list[MemoryFile] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def memory_reach(
    mewcode_home: Path,
    user_home: Path,
    project: Path,
    start: Path,
    readable: Iterable[Path],
    hidden: Iterable[str],
) -> MemoryReach:
    """A reach with ``~/.claude`` readable and MEWCODE_HOME hidden, all paths resolved."""
    roots = [*readable, user_home / ".claude"]
    secret = [*hidden, str(mewcode_home)]
    bounds = ImportBounds(
        readable=tuple(dict.fromkeys(os.path.realpath(r) for r in roots)),
        hidden=tuple(dict.fromkeys(os.path.realpath(h) for h in secret)),
    )
    return MemoryReach(mewcode_home, user_home, project, start, bounds)


def _folders(reach: MemoryReach) -> list[Path]:
    """The project root, then each folder down to the start folder."""
    start, root = reach.start.resolve(), reach.project.resolve()
    if not start.is_relative_to(root):
        return [root]
    chain = [start, *(p for p in start.parents if p.is_relative_to(root))]
    return list(reversed(chain))


def _read(path: Path) -> str | None:
    """The text of ``path`` (a real, symlink-free path), opened with no link on the way."""
    from agent_core.tools.nofollow import open_no_symlinks

    try:
        fd = open_no_symlinks(str(path), os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            data = fh.read(_READ_LIMIT)
    except (OSError, ValueError):
        return None
    return data.decode("utf-8", errors="replace").strip()


class _Loader:
    def __init__(self, reach: MemoryReach) -> None:
        self.reach = reach
        self.out = LoadedMemory()
        self.seen: set[Path] = set()

    def _shown(self, path: Path) -> str:
        for base, prefix in ((self.reach.project, ""), (self.reach.user_home, "~/")):
            if path.is_relative_to(base):
                return prefix + str(path.relative_to(base))
        return str(path)

    def top(self, path: Path, label: str, *, scope: str = "project") -> None:
        """A file MewCode looks for. ``scope``: "own" (MEWCODE_HOME's, hidden from commands
        but ours), "user" (the user's, which may link anywhere but into a hidden path),
        "project" (must stay inside the allowed area)."""
        if not os.path.lexists(path):
            return
        real = Path(os.path.realpath(path))
        bounds = self.reach.bounds
        if scope == "user":
            bounds = ImportBounds(readable=("/",), hidden=bounds.hidden)
        why = None if scope == "own" else bounds.refusal(path, real)
        if why is not None:
            self.out.notices.append(f"{self._shown(path)}: not read: it leads to {why}")
            return
        self._add(real, label, None, 0)

    def _add(self, real: Path, label: str, importer: Path | None, depth: int) -> None:
        if real in self.seen:
            return  # loaded already: a cycle, or imported twice
        self.seen.add(real)
        text = _read(real)
        if not text:
            return
        self.out.files.append(MemoryFile(real, label, text, importer))
        for raw in import_paths(text):
            self._import(raw, real, depth + 1)

    def _import(self, raw: str, importer: Path, depth: int) -> None:
        where = f"{self._shown(importer)}: @{raw}"
        lexical = resolve_import(raw, importer, self.reach.user_home)
        if not os.path.lexists(lexical):
            return  # "@alice" is likely a person, not a file
        if depth > MAX_DEPTH:
            self.out.notices.append(f"{where} not imported: imports go {MAX_DEPTH} levels deep")
            return
        real = Path(os.path.realpath(lexical))
        if (why := self.reach.bounds.refusal(lexical, real)) is not None:
            self.out.notices.append(f"{where} not imported: {why}")
            return
        if real.is_file():
            label = f"imported: {self._shown(real)} (from {self._shown(importer)})"
            self._add(real, label, importer, depth)


def collect_memory(reach: MemoryReach) -> LoadedMemory:
    """Every memory file that loads, imports included, in order, with what was skipped."""
    loader = _Loader(reach)
    loader.top(reach.mewcode_home / "MEWCODE.md", "user memory", scope="own")
    claude = reach.user_home / ".claude" / "CLAUDE.md"
    loader.top(claude, "user memory: ~/.claude/CLAUDE.md", scope="user")
    for folder in _folders(reach):
        for name in FOLDER_FILES:
            path = folder / name
            loader.top(path, f"project memory: {path.relative_to(reach.project.resolve())}")
    return loader.out


def memory_files(reach: MemoryReach) -> list[Path]:
    """The memory files that load, imports included, in load order."""
    return [f.path for f in collect_memory(reach).files]


def render_memory(loaded: LoadedMemory, *, per_file: int = 6_000, total: int = 16_000) -> str:
    """One text block with each memory file under a heading; empty when there is none."""
    parts: list[str] = []
    used = 0
    for file in loaded.files:
        room = min(per_file, total - used)
        if room <= 0:
            break
        text = file.text
        if len(text) > room:
            text = text[:room] + CUT
        used += min(len(text), room)
        parts.append(f'<memory source="{file.label}">\n{text}\n</memory>')
    return "\n".join(parts)


def load_memory(reach: MemoryReach, *, per_file: int = 6_000, total: int = 16_000) -> str:
    """The memory block for ``reach``: collect_memory then render_memory."""
    return render_memory(collect_memory(reach), per_file=per_file, total=total)


def session_reach(
    paths: MewcodePaths,
    start: Path,
    additional_dirs: Iterable[str],
    hidden: Iterable[str],
    user_home: Path | None = None,
) -> MemoryReach:
    """The reach of one session: its sandbox roots readable, the default credentials and
    ``hidden`` (the session policy's hidden paths, Read deny rules among them) not."""
    from agent_core.permissions.paths import sandbox_roots
    from agent_core.sandbox.policy import secret_paths

    home = user_home if user_home is not None else Path.home()
    roots = sandbox_roots(paths.project, [Path(d) for d in additional_dirs], home)
    secret = [*secret_paths(str(home)), *hidden]
    return memory_reach(paths.home, home, paths.project, start, roots, secret)

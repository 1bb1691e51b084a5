"""Path resolution for the sandbox: ``~``, ``..``, symlinks (dangling too) and letter case."""

from __future__ import annotations

import functools
import os
from pathlib import Path, PurePosixPath
from typing import NamedTuple

# Writes here ask in every mode: they change how git, the shell or MewCode itself behave.
PROTECTED_NAMES = frozenset({
    ".git", ".mewcode", ".mcp.json", ".ssh", ".gnupg", ".vscode", ".idea",
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
    ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".gitconfig", ".gitmodules",
    ".git-credentials", ".netrc", ".npmrc", ".pypirc", ".envrc",
})  # fmt: skip


class ResolvedPath(NamedTuple):
    """A path as written and as the filesystem would reach it."""

    raw: str
    path: Path  # absolute, symlinks followed (dangling ones too)
    lexical: Path  # absolute, `~` and `..` applied, symlinks not followed
    root: Path | None  # the sandbox root holding it; None when outside every root


def expand_home(raw: str, home: Path) -> str:
    """Expand ``~``, ``~/x``, ``$HOME`` and ``${HOME}``; ``~user`` becomes /home/user."""
    for var in ("${HOME}", "$HOME"):
        if raw == var or raw.startswith(var + "/"):
            return str(home) + raw[len(var) :]
    if raw == "~" or raw.startswith("~/"):
        return str(home) + raw[1:]
    if raw.startswith("~"):
        return "/home/" + raw[1:]
    return raw


@functools.lru_cache(maxsize=128)
def case_insensitive(root: str) -> bool:
    """Whether the filesystem holding ``root`` ignores letter case (checked once per root)."""
    probe = Path(root)
    while not any(c.isalpha() for c in probe.name) and probe.parent != probe:
        probe = probe.parent
    swapped = str(probe.parent / probe.name.swapcase())
    if swapped == str(probe):
        return False
    try:
        return os.path.samefile(probe, swapped)
    except OSError:
        return False


def is_inside(path: Path, root: Path) -> bool:
    """Component-wise containment (``/repo-evil`` is not inside ``/repo``), case-aware."""
    if case_insensitive(str(root)):
        return PurePosixPath(str(path).casefold()).is_relative_to(str(root).casefold())
    return path.is_relative_to(root)


def real(path: Path) -> Path:
    """Follow every symlink, including a dangling last link and symlinked parents."""
    return Path(os.path.realpath(path))


def sandbox_roots(project_root: Path, additional_dirs: list[Path], home: Path) -> list[Path]:
    """The resolved directories file access is confined to."""
    roots = [real(project_root)]
    for extra in additional_dirs:
        text = expand_home(str(extra), home)
        roots.append(real(project_root / text))
    return roots


def resolve(raw: str, base: Path, home: Path, roots: list[Path]) -> ResolvedPath:
    """Resolve ``raw`` (relative to ``base``) and find the sandbox root that holds it."""
    absolute = base / expand_home(raw, home)
    lexical = Path(os.path.normpath(absolute))
    try:
        resolved = real(absolute)
    except (ValueError, OSError):  # NUL bytes, loops the OS refuses: treat as outside
        return ResolvedPath(raw, lexical, lexical, None)
    root = next((r for r in roots if is_inside(resolved, r)), None)
    return ResolvedPath(raw, resolved, lexical, root)


def protected_name(target: ResolvedPath) -> str | None:
    """The protected component (``.git``, ``.bashrc``...) a path goes through, if any."""
    if target.root is None:
        return None
    try:
        parts = target.path.relative_to(target.root).parts
    except ValueError:
        parts = (
            PurePosixPath(str(target.path).casefold())
            .relative_to(str(target.root).casefold())
            .parts
        )
    for part in parts:
        if part.casefold() in PROTECTED_NAMES:
            return part
    return None


def display(target: ResolvedPath, project_root: Path) -> str:
    """A short form for messages and rules: relative inside the project, else absolute."""
    try:
        return target.path.relative_to(real(project_root)).as_posix() or "."
    except ValueError:
        return str(target.path)

"""Path resolution for the sandbox: ``~``, ``..``, symlinks (dangling too), letter case
and kernel magic links.

A path is followed component by component the way the kernel follows it, so a
``..`` after a symlink climbs from the link's target, not from its name.
Paths the kernel resolves through a process's own state (``/dev/fd/...``,
``/proc/self/root/...``) cannot be known before the command runs.
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import NamedTuple

# Moved to their own modules; rules.py and agent_core.sandbox still import them from here.
from agent_core.permissions.git_aliases import git_aliases as git_aliases
from agent_core.permissions.tree_walk import TreeTooLarge as TreeTooLarge
from agent_core.permissions.tree_walk import walk_tree as walk_tree

# Writes here ask in every mode: they change how git, the shell or MewCode itself behave.
PROTECTED_NAMES = frozenset({
    ".git", ".mewcode", ".claude", ".mcp.json", ".husky", ".ssh", ".gnupg", ".vscode", ".idea",
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
    ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".gitconfig", ".gitmodules",
    ".git-credentials", ".netrc", ".npmrc", ".pypirc", ".envrc",
    ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml",
})  # fmt: skip

# /proc/<pid>/<name>: links the kernel resolves through that process's fds, root and cwd.
_PROC_LINKS = frozenset({"fd", "fdinfo", "root", "cwd", "exe", "map_files", "task", "ns"})
_MAX_LINKS = 40  # the kernel's own limit on symlinks in one lookup


class ResolvedPath(NamedTuple):
    """A path as written and as the filesystem would reach it."""

    raw: str
    path: Path  # absolute, symlinks followed (dangling ones too)
    lexical: Path  # absolute, `~` and `..` applied, symlinks not followed
    root: Path | None  # the sandbox root holding it; None when outside every root
    logical: Path | None = None  # the lexical form with its symlinks followed, when it differs
    magic: str | None = None  # why the kernel may reach somewhere else ("network": /dev/tcp)


class KernelPath(NamedTuple):
    """Where a path goes once the kernel follows it, or why that cannot be known."""

    path: str
    magic: str | None  # "network", or the reason the kernel would resolve it elsewhere


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


def magic_reason(parts: list[str], more: bool) -> str | None:
    """Why the kernel resolves ``/parts...`` through process state (None: it does not)."""
    if parts[:1] == ["dev"] and len(parts) >= 2:
        if parts[1] in ("tcp", "udp") and (more or len(parts) > 2):
            return "network"
        if parts[1] in ("fd", "stdin", "stdout", "stderr") and (more or len(parts) > 2):
            return f"/dev/{parts[1]} is resolved through the running process's file descriptors"
    if parts[:1] == ["proc"] and len(parts) >= 2:
        pid = parts[1]
        if pid in ("self", "thread-self") and (more or len(parts) > 2):
            return f"/proc/{pid} is the running process, not this check"
        if pid.isdigit() and len(parts) >= 3 and parts[2] in _PROC_LINKS:
            return f"/proc/{pid}/{parts[2]} is resolved through another process"
    return None


def follow(absolute: str) -> KernelPath:
    """Follow an absolute path as the kernel does: symlinks first, then ``..`` from the target."""
    done: list[str] = []
    pending = [p for p in reversed(absolute.split("/")) if p not in ("", ".")]
    links = 0
    while pending:
        part = pending.pop()
        if part == "..":
            if done:
                done.pop()
            continue
        done.append(part)
        if why := magic_reason(done, bool(pending)):
            return KernelPath("/" + "/".join(done + pending[::-1]), why)
        here = "/" + "/".join(done)
        try:
            is_link = stat.S_ISLNK(os.lstat(here).st_mode)
        except (OSError, ValueError):
            continue  # missing (or unreadable): the rest is taken as written
        if not is_link:
            continue
        links += 1
        if links > _MAX_LINKS:
            pending.clear()  # a loop: the kernel fails the lookup, keep it where it is
            continue
        try:
            target = os.readlink(here)
        except OSError:
            continue
        done.pop()
        if target.startswith("/"):
            done.clear()
        pending.extend(p for p in reversed(target.split("/")) if p not in ("", "."))
    return KernelPath("/" + "/".join(done), None)


def root_of(path: Path, roots: list[Path]) -> Path | None:
    """The sandbox root that holds ``path``, or None."""
    return next((r for r in roots if is_inside(path, r)), None)


def resolve(raw: str, base: Path, home: Path, roots: list[Path]) -> ResolvedPath:
    """Resolve ``raw`` (relative to ``base``) and find the sandbox root that holds it.

    The kernel's view (symlinks, then ``..``) and the shell's logical view (``..`` first,
    as ``cd`` does) are both taken; when they disagree about the root, the stricter wins.
    A path through kernel magic links (``/dev/fd/..``, ``/proc/self/root/..``) keeps its
    lexical form, says why in ``magic`` and is outside every root: no check can confine it.
    """
    absolute = os.path.join(str(base), expand_home(raw, home))
    if "\0" in absolute:  # NUL bytes: no such path can be opened; treat it as outside
        lexical = Path(os.path.normpath(absolute.replace("\0", "")))
        return ResolvedPath(raw, lexical, lexical, None)
    lexical = Path(os.path.normpath(absolute))
    physical = follow(absolute)
    logical = physical
    if physical.magic is None and ".." in absolute.split("/"):
        logical = follow(str(lexical))
    if magic := physical.magic or logical.magic:
        return ResolvedPath(raw, Path(absolute), lexical, None, magic=magic)
    kernel, shell = Path(physical.path), Path(logical.path)
    root = root_of(kernel, roots)
    if shell == kernel:
        return ResolvedPath(raw, kernel, lexical, root)
    other = root_of(shell, roots)
    if other is None and root is not None:
        return ResolvedPath(raw, shell, lexical, None, kernel)
    return ResolvedPath(raw, kernel, lexical, root if other is not None else None, shell)


def protected_name(target: ResolvedPath, extra: Sequence[Path] = ()) -> str | None:
    """The protected component (``.git``, ``.bashrc``...) a path goes through, if any;
    ``extra`` are more protected directories (the ``core.hooksPath`` one)."""
    if target.root is None:
        return None
    for directory in extra:
        if target.path != target.root and is_inside(target.path, directory):
            return directory.name or str(directory)
    try:
        parts = target.path.relative_to(target.root).parts
    except ValueError:
        try:
            parts = (
                PurePosixPath(str(target.path).casefold())
                .relative_to(str(target.root).casefold())
                .parts
            )
        except ValueError:
            return None
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

"""The git directories inside a project besides its own: nested repositories, submodules.

Each one's hooks and config are code the user's git runs later, outside any sandbox,
so the sandbox keeps them read-only like the project's own (policy.py). They are found
when the session opens, by a capped walk; one a command creates later is dealt with by
the guard (guarded_files.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from agent_core.sandbox.policy import SandboxPolicy

WALK_LIMIT = 20_000  # entries read; past it the walk stops with what it found
MAX_GIT_DIRS = 64  # mounts per command stay cheap
_POINTER_BYTES = 4096  # a `.git` file holds one "gitdir: PATH" line


def gitdir_pointer(dot_git_file: Path) -> Path | None:
    """Where a ``.git`` file (a submodule's or a linked worktree's) points, or None."""
    try:
        with open(dot_git_file, "rb") as fh:
            head = fh.read(_POINTER_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8", "replace").strip()
    if not text.startswith("gitdir:"):
        return None
    target = Path(text.removeprefix("gitdir:").strip())
    if not target.is_absolute():
        target = dot_git_file.parent / target
    return Path(os.path.realpath(target))


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() or (path / "config").is_file()


def _entries(top: Path, budget: list[int]):
    """(path, is_dir) of every entry under ``top``, not descending into ``.git``
    directories or symlinks, until the shared ``budget`` of entries is spent."""
    stack = [top]
    while stack and budget[0] > 0:
        try:
            with os.scandir(stack.pop()) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            budget[0] -= 1
            if budget[0] <= 0:
                return
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            yield Path(entry.path), is_dir
            if is_dir and entry.name != ".git":
                stack.append(Path(entry.path))


def _modules(git_dir: Path, found: dict[str, None], budget: list[int]) -> None:
    """Submodule git directories kept under ``.git/modules`` (nested ones too)."""
    modules = git_dir / "modules"
    if not modules.is_dir():
        return
    for path, is_dir in _entries(modules, budget):
        if is_dir and _is_git_dir(path) and len(found) < MAX_GIT_DIRS:
            found[str(path)] = None


def nested_git_dirs(project: Path, limit: int = WALK_LIMIT) -> list[str]:
    """Resolved git directories below ``project`` other than ``project/.git`` itself."""
    project = Path(os.path.realpath(project))
    found: dict[str, None] = {}
    budget = [limit]
    _modules(project / ".git", found, budget)
    for path, is_dir in _entries(project, budget):
        if len(found) >= MAX_GIT_DIRS:
            break
        if path.name != ".git" or path.parent == project:
            continue
        if is_dir:
            found[str(path)] = None
            _modules(path, found, budget)
        elif (target := gitdir_pointer(path)) is not None and target.is_dir():
            found[str(target)] = None
    own = str(project / ".git")
    return [d for d in found if d != own][:MAX_GIT_DIRS]


def work_tree_top(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` holding a ``.git`` (git's work tree root)."""
    for candidate in [folder, *folder.parents]:
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


class RepoConfigFacts(NamedTuple):
    """What the project repository's config makes the user's git run from the work tree."""

    hooks_dirs: list[Path]  # core.hooksPath, resolved as git does
    included_files: list[Path]  # config files it includes (include.path, includeIf)


def repo_config_facts(project: Path, policy: SandboxPolicy) -> RepoConfigFacts:
    """core.hooksPath and the included config files of the project's repository, read by
    MewCode's contained git (relative values are relative to the work tree root); nothing
    where git cannot run there (then the user's git cannot either, or commands run
    unconfined anyway)."""
    from agent_core.git.contained import GitUnavailable, run_git_sync

    top = work_tree_top(Path(os.path.realpath(project)))
    if top is None:
        return RepoConfigFacts([], [])
    try:
        done = run_git_sync(["config", "--list", "--show-origin", "--includes", "-z"], top, policy)
    except GitUnavailable:
        return RepoConfigFacts([], [])
    if not done.ok:
        return RepoConfigFacts([], [])
    fields = done.stdout.split(b"\0")
    hooks: list[Path] = []
    included: list[Path] = []
    own = os.path.realpath(top / ".git" / "config")
    for origin, entry in zip(fields[::2], fields[1::2], strict=False):
        kind, _, where = os.fsdecode(origin).partition(":")
        key, _, value = os.fsdecode(entry).partition("\n")
        if kind == "file" and where:
            file = Path(os.path.realpath(top / where))
            if str(file) != own and file not in included:
                included.append(file)
        if key.lower() == "core.hookspath" and value and kind != "command":
            text = os.path.expanduser(value) if value.startswith("~/") else value
            hooks.append(Path(os.path.realpath(top / text)))
    return RepoConfigFacts(list(dict.fromkeys(hooks)), included)


def module_git_dirs(git_dir: Path, limit: int = 2_000) -> list[str]:
    """The git directories under ``git_dir/modules`` (submodules', nested ones too): a git
    directory is not entered but for its own ``modules``; at most ``limit`` folders read."""
    found: list[str] = []
    stack = [git_dir / "modules"]
    seen = 0
    while stack and seen < limit:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = [e for e in it if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for entry in entries:
            seen += 1
            path = Path(entry.path)
            if _is_git_dir(path):
                found.append(str(path))
                stack.append(path / "modules")
            else:
                stack.append(path)  # a submodule named a/b sits in modules/a/b
    return found

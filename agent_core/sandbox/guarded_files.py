"""What a command changed of the files that start programs, where the sandbox could not
stop it, is found and undone when the command ends.

bubblewrap keeps protected paths read-only, existing or not, with a few exceptions:
a path whose parent did not exist when the command started (``.git/hooks`` before
``git init``), and ``.git/commondir`` / ``.git/config.worktree`` (a stand-in would
break the user's own git meanwhile). Landlock cannot keep any path inside a writable
root read-only. For those, the guard looks at each protected path before a command
and again after it:

- what git runs by itself (hooks, a ``core.hooksPath`` directory, ``.git/config``,
  ``commondir``) is put back as it was; a new repository keeps what ``git init`` or
  ``git clone`` write (config keys known to run nothing, ``*.sample`` hooks), and
  anything else is moved out;
- the rest (``.mcp.json``, ``.claude/``, ``.vscode/``...) is reported: MewCode's own
  trust check (config/program_trust.py) already holds back programs from a changed file.

Nothing is lost: whatever is moved out or replaced goes to the session's quarantine
folder, and every finding is one line for the user and the model.
"""

from __future__ import annotations

import logging
import os
import stat
import weakref
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from agent_core import own_writes
from agent_core.sandbox.backend import Confinement
from agent_core.sandbox.git_config_safety import unsafe_keys
from agent_core.sandbox.policy import Protected, SandboxPolicy, protected_in_git_dir
from agent_core.sandbox.quarantine import move_to_quarantine
from agent_core.tools.nofollow import open_parent_dir

log = logging.getLogger("mewcode.sandbox")
T = TypeVar("T")

MAX_ENTRIES = 400  # per protected directory
# Configs of repositories created during the session already found safe, by path: what
# lstat said then (a git run per repository per command would add up).
_SAFE_CONFIGS: dict[str, tuple[int, int, int, int]] = {}
os.register_at_fork(after_in_child=_SAFE_CONFIGS.clear)
MAX_SAVED_BYTES = 256 * 1024  # content kept to put a file back
_READ_NOFOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class Seen:
    """One path as the guard saw it."""

    kind: str | None  # "file", "dir", "link", "other"; None: absent
    ident: tuple[int, int, int, int] = (0, 0, 0, 0)  # mode, size, mtime_ns, inode
    data: bytes | None = None  # a file's content, when small enough to put back
    target: str | None = None  # a symlink's


def _link_on_the_way(path: str) -> bool:
    """Whether a folder on the way to ``path`` is not what the policy resolved: a symlink
    (or something that cannot be resolved) swapped in. The policy's paths are real."""
    parent = os.path.dirname(path)
    try:
        return os.path.realpath(parent) != parent
    except OSError:  # realpath's readlink raced a swap
        return True


def _seen(path: str) -> Seen:
    if _link_on_the_way(path):
        return Seen("via-link")  # never followed: the guard runs outside the sandbox
    try:
        info = os.lstat(path)
    except OSError:
        return Seen(None)
    ident = (info.st_mode, info.st_size, info.st_mtime_ns, info.st_ino)
    if stat.S_ISLNK(info.st_mode):
        try:
            return Seen("link", ident, target=os.readlink(path))
        except OSError:
            return Seen("link", ident)
    if stat.S_ISDIR(info.st_mode):
        return Seen("dir", ident)
    if not stat.S_ISREG(info.st_mode):
        return Seen("other", ident)
    data = None
    if info.st_size <= MAX_SAVED_BYTES:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as fh:
                data = fh.read(MAX_SAVED_BYTES + 1)
        except OSError:
            data = None
    return Seen("file", ident, data)


def _expand(entry: Protected) -> dict[str, Seen]:
    """The path and, for a directory, what is in it (bounded)."""
    found = {entry.path: _seen(entry.path)}
    if found[entry.path].kind != "dir":
        return found
    stack = [entry.path]
    while stack and len(found) < MAX_ENTRIES:
        try:
            with os.scandir(stack.pop()) as it:
                names = [e.path for e in it]
        except OSError:
            continue
        for path in names:
            found[path] = seen = _seen(path)
            if seen.kind == "dir":
                stack.append(path)
    return found


class Snapshot:
    """The watched protected paths before one command, and each root's ``.git``."""

    def __init__(
        self, watched: list[Protected], states: dict[str, Seen], dot_git: dict[str, Seen]
    ) -> None:
        self.watched = watched
        self.states = states
        self.dot_git = dot_git

    def refresh(self, path: str) -> None:
        """MewCode itself wrote ``path``: what is there now is the new "before"."""
        for entry in self.watched:
            if _inside(path, entry.path) or _inside(entry.path, path):
                for old in [p for p in self.states if _inside(p, path)]:
                    del self.states[old]
                top = path if _inside(path, entry.path) else entry.path
                self.states.update(_expand(Protected(top, entry.kind)))


def work_roots(policy: SandboxPolicy) -> list[str]:
    """The project and extra directories: the roots whose settings files are protected."""
    return [os.path.dirname(e.path) for e in policy.protected if e.path.endswith("/.mcp.json")]


class FileGuard:
    """Snapshots the protected paths the backend cannot keep, and undoes what changed."""

    def __init__(
        self,
        policy: SandboxPolicy,
        kernel_keeps: bool,
        quarantine: Path | None,
    ) -> None:
        self.policy = policy
        self.kernel_keeps = kernel_keeps
        self.quarantine = quarantine
        self._checked_git_dirs: set[str] = set()  # resolved; set by each nested scan

    def snapshot(self, stand_ins: Collection[str] = ()) -> Snapshot:
        """The watched paths now; ``stand_ins``: those the backend covers this launch."""
        watched = list(dict.fromkeys(self.policy.protected))
        if self.kernel_keeps:
            watched = [e for e in watched if not (os.path.lexists(e.path) or e.path in stand_ins)]
        states: dict[str, Seen] = {}
        for entry in watched:
            states.update(_expand(entry))
        dot_git = {root: _seen(os.path.join(root, ".git")) for root in work_roots(self.policy)}
        return Snapshot(watched, states, dot_git)

    def check(self, before: Snapshot, *, nested: bool = True) -> list[str]:
        """Undo or report what changed since ``before``; one line per finding.

        ``nested``: also look for git repositories the command created below the roots.
        """
        findings = self._dot_git(before)
        for entry in before.watched:
            now = _expand(entry)
            old = {p: s for p, s in before.states.items() if _inside(p, entry.path)}
            changed = sorted(
                (p for p in {*old, *now} if old.get(p, Seen(None)) != now.get(p, Seen(None))),
                key=len,
            )
            if not changed:
                continue
            if entry.put_back:
                findings += self._put_back(entry, old, now, changed)
            else:
                shown = ", ".join(changed[:3]) + (" …" if len(changed) > 3 else "")
                findings.append(
                    f"a command changed {shown}, which starts programs; the sandbox could not "
                    "keep it read-only here: review the change (MewCode will not run programs "
                    "from it until you trust it again)"
                )
        if nested:
            findings += self._nested_repositories()
        return findings

    def _dot_git(self, before: Snapshot) -> list[str]:
        """A ``.git`` file (a pointer to another git directory) where there was none, or a
        ``.git`` directory replaced by something else."""
        findings = []
        for root, old in before.dot_git.items():
            path = os.path.join(root, ".git")
            new = _seen(path)
            if new.kind in (None, "dir") or new == old:
                continue
            if old.kind is None:
                moved = self._move_out(path)
                findings.append(
                    f"a command created {path}, which points git at another directory's "
                    f"config and hooks: moved out to {moved}"
                )
            else:
                findings.append(
                    f"a command replaced {path}: git in this folder now reads config and hooks "
                    "a command chose; check it before you run git here"
                )
        return findings

    def _nested_repositories(self) -> list[str]:
        """Repositories below the roots that nobody checked: their config and hooks hold
        only what is known to run nothing, or that part is moved out."""
        from agent_core.sandbox.git_dirs import module_git_dirs
        from agent_core.sandbox.repo_scan import scanner_for

        known = {os.path.dirname(e.path) for e in self.policy.protected}
        roots = work_roots(self.policy)
        findings: list[str] = []
        found: set[str] = set()
        for root in roots:
            scanner = scanner_for(root)
            found |= scanner.scan() | set(module_git_dirs(Path(root) / ".git"))
            if not scanner.complete and not scanner.told:
                scanner.told = True
                findings.append(
                    f"{root} has more than {scanner.limit} folders: repositories a command "
                    "creates in the rest are not checked; look before you run git there"
                )
        # A `.git` file may point outside the roots (a linked worktree's git directory):
        # a command cannot have written there, and moving it would break the user's worktree.
        found = {g for g in found if any(_inside(g, root) for root in roots)}
        self._checked_git_dirs = {_real(g) for g in known | found}
        for git_dir in sorted(found - known):
            for part in protected_in_git_dir(git_dir):
                findings += self._new_git_part(part, _expand(part))
        return findings

    def _put_back(
        self, entry: Protected, old: dict[str, Seen], now: dict[str, Seen], changed: list[str]
    ) -> list[str]:
        findings: list[str] = []
        if old.get(entry.path, Seen(None)).kind is None and _in_git_dir(entry.path):
            # A new git directory part (git init, clone): what is known to run nothing stays.
            return self._new_git_part(entry, now)
        for path in changed:
            before, after = old.get(path, Seen(None)), now.get(path, Seen(None))
            if after.kind == "via-link":
                findings.append(
                    f"a command replaced a folder on the way to {path} with a link: not put "
                    "back (MewCode does not follow it); check that folder before you run git"
                )
                break
            if not os.path.lexists(path) and after.kind is not None:
                continue  # went with a parent moved out already
            moved = self._move_out(path) if after.kind is not None else None
            restored = self._restore(path, before)
            findings.append(_put_back_line(path, before, moved, restored))
        return findings

    def _new_git_part(self, entry: Protected, now: dict[str, Seen]) -> list[str]:
        name = os.path.basename(entry.path)
        findings: list[str] = []
        if name in ("config", "config.worktree") and now.get(entry.path, Seen(None)).kind:
            seen = now[entry.path]
            if seen.kind == "file" and _SAFE_CONFIGS.get(entry.path) == seen.ident:
                return findings
            bad = unsafe_keys(Path(entry.path), self.policy) if seen.kind == "file" else None
            if bad == []:
                _SAFE_CONFIGS[entry.path] = seen.ident
            else:
                moved = self._move_out(entry.path)
                what = ", ".join(bad[:4]) if bad else "it cannot be read as a git config"
                findings.append(
                    f"a command wrote {entry.path} with settings that make git run programs "
                    f"({what}): moved out to {moved}"
                )
        elif name == "hooks" and now.get(entry.path, Seen(None)).kind not in (None, "dir"):
            moved = self._move_out(entry.path)
            findings.append(
                f"a command made {entry.path} something other than a folder (a link?), so git "
                f"would run hooks from elsewhere: moved out to {moved}"
            )
        elif name == "hooks":
            for path, seen in sorted(now.items()):
                if path == entry.path or seen.kind is None or path.endswith(".sample"):
                    continue
                if not os.path.lexists(path):
                    continue
                if seen.kind == "dir" and all(
                    p.endswith(".sample") or p == path for p in now if _inside(p, path)
                ):
                    continue
                moved = self._move_out(path)
                findings.append(
                    f"a command created the git hook {path}, which git would run outside the "
                    f"sandbox: moved out to {moved}"
                )
        elif name == "commondir" and self._common_dir_is_checked(entry.path):
            pass  # a linked worktree's: git reads config and hooks a check covers
        elif now.get(entry.path, Seen(None)).kind is not None:  # commondir, config.worktree
            moved = self._move_out(entry.path)
            findings.append(
                f"a command created {entry.path}, which redirects git's config and hooks: "
                f"moved out to {moved}"
            )
        return findings

    def _common_dir_is_checked(self, path: str) -> bool:
        """A ``commondir`` naming a git directory this guard checks (the project's, or one
        it found below the roots), as ``git worktree add`` writes: its config and hooks are
        held to the same rules, so it redirects git nowhere unchecked."""
        try:  # no symlink on the way to it either: the guard runs outside the sandbox
            folder, name = open_parent_dir(path)
        except (OSError, ValueError):
            return False
        try:
            fd = os.open(name, _READ_NOFOLLOW, dir_fd=folder)
        except OSError:
            return False
        finally:
            os.close(folder)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return False
            text = handle.read(4097)
        target = text.decode("utf-8", "replace").strip()
        if len(text) > 4096 or not target or "\0" in target:
            return False
        common = os.path.normpath(os.path.join(os.path.dirname(path), target))
        # No link on the way: git must reach the very folder that was checked.
        return _real(common) == common and common in self._checked_git_dirs

    def _move_out(self, path: str) -> str | None:
        """Move ``path`` into the quarantine folder; where it went, or None if it could not."""
        return move_to_quarantine(path, self.quarantine)

    def _restore(self, path: str, before: Seen) -> bool:
        """Put back a file or link as it was; directories are made again, empty."""
        if before.kind is None:
            return True
        try:
            folder, name = open_parent_dir(path)
        except (OSError, ValueError):
            return False
        try:
            if before.kind == "file" and before.data is not None:
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
                fd = os.open(name, flags, 0o600, dir_fd=folder)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(before.data)
                    os.fchmod(fh.fileno(), stat.S_IMODE(before.ident[0]))
                return True
            if before.kind == "link" and before.target is not None:
                os.symlink(before.target, name, dir_fd=folder)
                return True
            if before.kind == "dir":
                os.mkdir(name, 0o755, dir_fd=folder)
                return True
        except OSError:
            return False
        finally:
            os.close(folder)
        return False


def _put_back_line(path: str, before: Seen, moved: str | None, restored: bool) -> str:
    if before.kind is None:
        what = f"moved out to {moved}" if moved else "could not be moved out"
        return f"a command created {path}, which would start programs outside the sandbox: {what}"
    back = "put back as it was" if restored else "could NOT be put back"
    where = f"; the command's version is in {moved}" if moved else ""
    return f"a command changed {path}, which starts programs outside the sandbox: {back}{where}"


def _in_git_dir(path: str) -> bool:
    return os.path.basename(os.path.dirname(path)) == ".git" or "/.git/modules/" in path


def _real(path: str) -> str:
    return os.path.realpath(path)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


# Launches whose command runs now, so MewCode's own writes update their "before".
_LIVE: weakref.WeakSet[GuardedConfinement] = weakref.WeakSet()
# Per session (its quarantine folder): the guard and what it saw after its last check, for
# one more check at exit, once every leftover is gone (final_checks).
_LAST_GOOD: dict[str, tuple[FileGuard, Snapshot]] = {}
# What final_checks found at exit, for the front end to print (nobody is left to tell).
EXIT_FINDINGS: list[str] = []
os.register_at_fork(after_in_child=_LAST_GOOD.clear)


def final_checks() -> list[str]:
    """At exit, once leftovers that outlived their command were killed (Landlock: no PID
    namespace): what changed since each session's last check is undone or reported once
    more. Only then: a change between turns is otherwise the user's own."""
    findings: list[str] = []
    for key, (guard, after) in list(_LAST_GOOD.items()):
        del _LAST_GOOD[key]
        try:
            findings += guard.check(after, nested=True)
        except Exception as exc:
            log.exception("the last protected-files check failed")
            findings.append(f"MewCode could not check the files that start programs: {exc}")
    return findings


def _own_write(path: str) -> None:
    for launch in list(_LIVE):
        if launch._before is not None:
            launch._before.refresh(path)
    for _, after in list(_LAST_GOOD.values()):
        after.refresh(path)


own_writes.listen(_own_write)


class GuardedConfinement(Confinement):
    """A backend's launch with the guard around it: snapshot now, check when it ends."""

    def __init__(self, inner: Confinement, guard: FileGuard) -> None:
        super().__init__(inner.argv, inner.env)
        self._inner = inner
        self._guard = guard
        self._before: Snapshot | None = guard.snapshot(set(inner.stand_ins))
        _LIVE.add(self)

    def spawn(self, start: Callable[[], T]) -> T:
        return self._inner.spawn(start)

    def started(self, pid: int) -> None:
        self._inner.started(pid)

    def ended(self) -> None:
        self._inner.ended()
        _LIVE.discard(self)
        before, self._before = self._before, None
        if before is None:
            return
        try:
            self.findings = self._guard.check(before)
            key = self._guard.policy.quarantine or ""
            _LAST_GOOD[key] = (self._guard, self._guard.snapshot())
        except Exception as exc:  # never let a check break the command's end
            log.exception("the protected-files check failed")
            self.findings = [f"MewCode could not check the files that start programs: {exc}"]

    def abandon(self) -> None:
        _LIVE.discard(self)
        self._before = None
        self._inner.abandon()

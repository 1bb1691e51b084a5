"""Finding the git repositories below a root, again after each command, cheaply.

A command may create a repository anywhere in the project (``git init sub``); its
hooks and config are then code the user's own git runs. The first scan walks the
tree; later ones stat each known directory and read only those whose listing
changed (a new entry changes a directory's ctime), so a scan after a command costs
a stat per directory rather than a read of the whole tree.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from agent_core.sandbox.git_dirs import gitdir_pointer

WALK_LIMIT = 50_000  # directories remembered per root; past it the rest is not watched
_FRESH_NS = 100_000_000


class RepoScanner:
    """The directories (with their ctimes) and git directories found under one root."""

    def __init__(self, root: str, limit: int = WALK_LIMIT, fresh_ns: int = _FRESH_NS) -> None:
        self.root = root
        self.limit = limit
        self._fresh_ns = fresh_ns
        self._dirs: dict[str, int] = {}
        self.git_dirs: set[str] = set()
        self.complete = True  # False once the limit cut a walk short
        self.told = False  # the user was told it is incomplete
        self._lock = threading.Lock()

    def scan(self) -> set[str]:
        """Every git directory below the root now (the root's own ``.git`` excluded)."""
        with self._lock:
            if not self._dirs:
                self._walk(self.root)
            else:
                for directory, stamp in list(self._dirs.items()):
                    try:
                        now = os.stat(directory).st_ctime_ns
                    except OSError:
                        self._forget(directory)
                        continue
                    if now != stamp:
                        self._read(directory)
            return set(self.git_dirs)

    def _forget(self, directory: str) -> None:
        prefix = directory.rstrip("/") + "/"
        for known in [d for d in self._dirs if d == directory or d.startswith(prefix)]:
            del self._dirs[known]
        self.git_dirs = {g for g in self.git_dirs if not (g.startswith(prefix))}

    def _walk(self, top: str) -> None:
        stack = [top]
        while stack:
            stack.extend(self._read(stack.pop()))

    def _read(self, directory: str) -> list[str]:
        """List one directory: remember it, note its git entries; its new subdirectories."""
        try:
            # ctime, not mtime: a command can set a folder's mtime back (os.utime), never
            # its ctime, which any change of the listing (or of the times) moves on.
            stamp = os.stat(directory).st_ctime_ns
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError:
            return []
        known = directory in self._dirs
        if not known and len(self._dirs) >= self.limit:
            self.complete = False
            return []
        # Inode times tick coarsely (a few ms): a listing read within a tick of its last
        # change may miss an entry made in the same tick, so it is read again next time.
        self._dirs[directory] = 0 if time.time_ns() - stamp < self._fresh_ns else stamp
        fresh: list[str] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if entry.name == ".git":
                if directory == self.root:
                    continue
                if is_dir:
                    self.git_dirs.add(entry.path)
                elif (target := gitdir_pointer(Path(entry.path))) is not None:
                    self.git_dirs.add(str(target))
                continue
            if is_dir and entry.path not in self._dirs:
                fresh.append(entry.path)
        if known:  # a changed directory: walk what is new in it
            for path in fresh:
                self._walk(path)
            return []
        return fresh


_SCANNERS: dict[str, RepoScanner] = {}
_LOCK = threading.Lock()
os.register_at_fork(after_in_child=_SCANNERS.clear)


def scanner_for(root: str) -> RepoScanner:
    """The process's scanner for ``root`` (made on first use)."""
    with _LOCK:
        found = _SCANNERS.get(root)
        if found is None:
            found = _SCANNERS[root] = RepoScanner(root)
        return found

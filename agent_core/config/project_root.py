"""Which folder is the project: the one place that decides it.

Walking up from the start folder (never running git): the nearest folder holding
``.git`` (a folder, or a worktree's file); else the nearest holding ``.mewcode`` or
``.claude``; else the start folder itself. HOME and the folders above it never count:
``~/.claude`` and ``~/.mewcode`` are the user's own settings, not a project's, and a
dotfiles repository at HOME would make the whole home the project. Nor does the folder
whose ``.mewcode`` is MEWCODE_HOME. A marker someone else owns does not count either
(as git refuses a repository another user owns): a ``/tmp/.git`` planted by a stranger
must not make all of /tmp the project, writable by the session.
"""

from __future__ import annotations

import os
from pathlib import Path

GIT_MARKER = ".git"
PROJECT_MARKERS = (".mewcode", ".claude")


def _exists(path: Path) -> bool:
    """Whether ``path`` is there and the user owns it."""
    try:
        return os.lstat(path).st_uid == os.geteuid()
    except OSError:
        return False


def _candidates(start: Path, home: Path) -> list[Path]:
    """``start`` and its parents, stopping before HOME when ``start`` is below it."""
    chain = [start, *start.parents]
    if start.is_relative_to(home):
        return [p for p in chain if p != home and p.is_relative_to(home)]
    return [p for p in chain if not home.is_relative_to(p)]


def find_project_root(start: Path, home: Path, mewcode_home: Path) -> Path:
    """The project root for a session started in ``start`` (absolute, resolved)."""
    start, home = start.resolve(), home.resolve()
    mew_owner = mewcode_home.resolve().parent if mewcode_home.name == ".mewcode" else None
    chain = _candidates(start, home)
    for folder in chain:
        if _exists(folder / GIT_MARKER):
            return folder
    for folder in chain:
        markers = [m for m in PROJECT_MARKERS if _exists(folder / m)]
        if folder == mew_owner:
            markers = [m for m in markers if m != ".mewcode"]
        if markers:
            return folder
    return start

"""Durable file writes (temp file + fsync + rename, parent fsynced) and private files.

Everything MewCode keeps under ``MEWCODE_HOME`` is private: files 0600 in 0700
directories. The modes are given at creation and checked on every open for
writing, so a file left looser by an older version is tightened the next time
it is written. Never through ``os.umask``: that is process-wide.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from agent_core import own_writes

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


def fsync_dir(path: Path, *, dir_fd: int | None = None) -> None:
    """fsync a folder (its new entries last); relative to ``dir_fd`` when given."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def ensure_dir(path: Path) -> None:
    """Create a directory (and parents), fsyncing each new parent entry."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        p = p.parent
    path.mkdir(parents=True, exist_ok=True)
    for d in reversed(missing):
        fsync_dir(d.parent)


def private_dir(path: Path, *, root: Path | None = None) -> Path:
    """Create ``path`` (and missing parents) as 0700 directories, fsynced; return it.

    ``path`` itself is tightened to 0700 if it was looser, and so is every
    directory from ``root`` (e.g. MEWCODE_HOME) down to it.
    """
    missing = []
    p = path
    while not p.is_dir():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, PRIVATE_DIR)
        except FileExistsError:
            pass  # made by another process meanwhile
        fsync_dir(d.parent)
    tighten = [path]
    if root is not None and path.is_relative_to(root):
        p = path
        while p != root:
            p = p.parent
            tighten.append(p)
    for d in tighten:
        _tighten(d, PRIVATE_DIR)
    return path


def open_private(path: Path, flags: int) -> int:
    """``os.open`` a file for writing as 0600 (created so, or tightened); symlinks refused.

    ``O_CREAT`` is implied. The parent directory must exist (see ``private_dir``).
    """
    fd = os.open(path, flags | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) & ~PRIVATE_FILE:
            os.fchmod(fd, PRIVATE_FILE)
    except OSError:
        os.close(fd)
        raise
    return fd


def atomic_write_text(path: Path, text: str, *, private: bool = False) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), private=private)


def atomic_write_bytes(path: Path, data: bytes, *, private: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically; ``private``: 0600 in 0700 new parents."""
    if private:
        private_dir(path.parent)
    else:
        ensure_dir(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if private:
        fd = open_private(tmp, os.O_WRONLY | os.O_TRUNC)
        fh = os.fdopen(fd, "wb")
    else:
        fh = open(tmp, "wb")  # noqa: SIM115 - closed by the with below
    with fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)
    own_writes.note(path)


def _tighten(path: Path, mode: int) -> None:
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) & ~mode:
        try:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
        except OSError:
            pass  # not ours (a shared parent): leave it

"""One writer per session: an advisory lock held while a process has a session open.

The lock is ``flock`` on a sidecar ``<id>.lock`` next to the session file,
taken without waiting. It goes away when the holder closes the session or
dies (the kernel drops it with the last descriptor), so a crash never leaves
a session locked. The file also says which process holds it, for the message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from agent_core.errors import MewCodeError
from agent_core.fsutil import open_private, private_dir


class SessionLocked(MewCodeError):
    """Another process has this session open for writing."""

    def __init__(self, session_id: str, pid: int | None) -> None:
        self.session_id = session_id
        self.pid = pid
        who = f"pid {pid}" if pid else "pid unknown"
        super().__init__(f"session {session_id} is in use by another mewcode ({who})")


def lock_path(session_path: Path) -> Path:
    """The sidecar lock file of a session file."""
    return session_path.with_suffix(".lock")


class SessionLock:
    """A held lock on one session; ``release`` (or process death) frees it."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, session_path: Path, session_id: str) -> SessionLock:
        """Take the session's lock now, or raise SessionLocked naming the holder."""
        path = lock_path(session_path)
        private_dir(path.parent)
        fd = open_private(path, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise SessionLocked(session_id, pid) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(fd, path)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let another process open the session (the file stays: unlinking it would race)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor drops the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        raw = os.pread(fd, 32, 0).strip()
        return int(raw) if raw else None
    except (OSError, ValueError):
        return None

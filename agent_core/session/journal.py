"""Durable append-only JSONL files: one write per line, fsync after each.

A crash can leave at most a torn last line. Readers report it; writers never
glue a new record onto it: the next append first ends the torn line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from agent_core.errors import MewCodeError
from agent_core.fsutil import fsync_dir, open_private, private_dir


class JournalWriteError(MewCodeError):
    """A record could not be written to disk (disk full, permissions...)."""


class AppendOnlyFile:
    """An open JSONL file that only ever grows, durably, one full line at a time.

    The file is private (0600, tightened if an older version left it looser)
    and so are the directories created for it (0700).
    """

    def __init__(self, path: Path, *, exclusive: bool = False) -> None:
        self.path = path
        created = not path.exists()
        flags = os.O_WRONLY | os.O_APPEND | (os.O_EXCL if exclusive else 0)
        try:
            private_dir(path.parent)
            self._fd: int | None = open_private(path, flags)
        except OSError as exc:
            raise JournalWriteError(f"cannot open {path}: {exc.strerror}") from None
        if created:
            # The new directory entry must survive a crash too.
            os.fsync(self._fd)
            fsync_dir(path.parent)
        self._needs_newline = _ends_without_newline(path)

    def append(self, line: bytes) -> None:
        """Write one newline-terminated line and fsync it before returning."""
        if self._fd is None:
            raise JournalWriteError(f"{self.path} is closed")
        data = (b"\n" + line) if self._needs_newline else line
        try:
            _write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as exc:
            # Part of the line may be on disk: start the next record on a fresh line.
            self._needs_newline = True
            raise JournalWriteError(f"cannot write {self.path}: {exc.strerror}") from None
        self._needs_newline = False

    def append_many(self, lines: list[bytes]) -> None:
        """Write several newline-terminated lines with one write and one fsync."""
        if lines:
            self.append(b"".join(lines))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> AppendOnlyFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _ends_without_newline(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell() == 0:
                return False
            fh.seek(-1, os.SEEK_END)
            return fh.read(1) != b"\n"
    except OSError:
        return False


def read_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """Yield (1-based line number, line without newline, complete) for each line.

    ``complete`` is False only for a last line with no trailing newline (a torn
    write). Blank lines are skipped.
    """
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            complete = raw.endswith(b"\n")
            line = raw.rstrip(b"\r\n")
            if line.strip():
                yield number, line, complete

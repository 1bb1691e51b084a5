"""A stdio MCP server's stderr, redacted on its way to ``MEWCODE_HOME/logs/mcp-<server>.log``.

The SDK hands the server a file for its stderr. Here that file is the write
end of a pipe: the event loop reads the other end through the redactor
(docs/security.md#secrets-at-rest, as for everything under MEWCODE_HOME) and appends to the log (0600,
moved to ``.log.1`` past LOG_ROTATE_BYTES when a run starts). A server may
print its own credentials; the values its configuration gives it in ``env``
are among those the redactor looks for.

The redactor holds back the last few KB until more follows (a secret split
between two writes is still caught), so the log is complete once the server
has exited and the pipe is drained: ``settled`` waits for that before the last
line is read back to say why a server died.
"""

from __future__ import annotations

import asyncio
import codecs
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from agent_core.fsutil import open_private, private_dir
from agent_core.session.redact import Redactor, StreamRedactor

LOG_ROTATE_BYTES = 1_000_000  # a chatty server's stderr log is rotated at a (re)start
READ_BYTES = 65_536
# After the server's exit, how long its last words may take to arrive: the launcher
# ends the server's group first, which takes up to its grace period (launcher.py).
SETTLE_TIMEOUT_S = 3.0


class StderrLog:
    """One run's stderr: a pipe for the server, copied redacted into the server's log."""

    def __init__(self, path: Path, home: Path, env: Mapping[str, str]) -> None:
        self.path = path
        self.home = home
        self.start = 0  # the log's size when this run began: its lines are after it
        self._redactor = Redactor(env)
        self._redacting: StreamRedactor | None = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
        self._writer: IO[str] | None = None
        self._read_fd = -1
        self._log_fd = -1
        self._loop: asyncio.AbstractEventLoop | None = None
        self._drained = asyncio.Event()

    def open(self) -> IO[str]:
        """The file the server writes to; from now on the loop copies what it writes."""
        private_dir(self.path.parent, root=self.home)
        _rotate(self.path)
        self._log_fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)
        self.start = os.fstat(self._log_fd).st_size
        self._read_fd, write_fd = os.pipe()
        os.set_blocking(self._read_fd, False)
        self._writer = os.fdopen(write_fd, "w", encoding="utf-8")
        self._redacting = self._redactor.stream()
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self._read_fd, self._copy)
        return self._writer

    def release_writer(self) -> None:
        """Close our copy of the write end (the server has its own): its exit is our EOF."""
        if self._writer is not None:
            self._writer.close()

    async def settled(self, timeout: float = SETTLE_TIMEOUT_S) -> None:
        """Until everything the server wrote is in the log (or ``timeout``, then what came)."""
        self.release_writer()
        if self._read_fd == -1:
            return
        try:
            await asyncio.wait_for(self._drained.wait(), timeout)
        except TimeoutError:  # a descendant still holds the pipe: flush what we have
            self._write(self._held_back())

    def close(self) -> None:
        """Stop copying; what was held back for the redactor is written out."""
        self.release_writer()
        if self._read_fd != -1:
            self._finish()

    def last_line(self) -> str:
        """The last non-empty line written in this run (call after ``settled``)."""
        try:
            with self.path.open("rb") as fh:
                fh.seek(self.start)
                tail = fh.read()[-4096:]
        except OSError:
            return ""
        lines = [line.strip() for line in tail.decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        return lines[-1][:300] if lines else ""

    # -- the copy -----------------------------------------------------------------------

    def _copy(self) -> None:
        try:
            chunk = os.read(self._read_fd, READ_BYTES)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._finish()
            return
        assert self._redacting is not None
        self._write(self._redacting.feed(self._decoder.decode(chunk)))

    def _finish(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._read_fd)
        os.close(self._read_fd)
        self._read_fd = -1
        self._write(self._held_back())
        os.close(self._log_fd)
        self._log_fd = -1
        self._drained.set()

    def _held_back(self) -> str:
        if self._redacting is None:
            return ""
        return self._redacting.feed(self._decoder.decode(b"", final=True)) + self._redacting.flush()

    def _write(self, text: str) -> None:
        if not text or self._log_fd == -1:
            return
        try:
            os.write(self._log_fd, text.encode("utf-8", "surrogateescape"))
        except OSError:
            pass  # disk full: the log stops short; the server goes on


def _rotate(log: Path) -> None:
    """Start a fresh log (keeping the last one as .1) once it passed LOG_ROTATE_BYTES."""
    try:
        if log.stat().st_size > LOG_ROTATE_BYTES:
            os.replace(log, log.with_name(log.name + ".1"))
    except OSError:
        pass  # no log yet, or it cannot be moved: appending goes on

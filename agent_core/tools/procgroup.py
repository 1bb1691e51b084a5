"""A shell command in its own process group: start it, stream its output, kill the whole group.

Exit is detected on its own (pidfd, else polling) rather than through asyncio's
subprocess wait, which also waits for the output pipe to close: a grandchild
left running in the background would otherwise hold a finished command open.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

from agent_core.tools.base import ToolError

KILL_GRACE_S = 1.0  # between SIGTERM and SIGKILL
CHUNK_BYTES = 65536
_POLL_S = 0.05


class GroupProcess:
    """`/bin/bash -c command` as a new session; stdout and stderr interleaved in one pipe."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        reader: asyncio.StreamReader,
        transport: asyncio.ReadTransport,
    ) -> None:
        self._popen = popen
        self._reader = reader
        self._transport = transport
        self._loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[None] = self._loop.create_future()
        self._pidfd: int | None = None
        self._poller: asyncio.Task[None] | None = None
        self._watch_exit()

    @classmethod
    async def start(
        cls, command: str, cwd: Path, env: dict[str, str] | None = None
    ) -> GroupProcess:
        """Start the command with stdin from /dev/null; raises ToolError if it cannot start."""
        if not cwd.is_dir():
            raise ToolError(f"working directory {cwd} does not exist")
        try:
            popen = subprocess.Popen(
                ["/bin/bash", "-c", command],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as exc:
            raise ToolError(f"cannot start /bin/bash: {exc.strerror or exc}") from None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=CHUNK_BYTES)
        assert popen.stdout is not None
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), popen.stdout
        )
        return cls(popen, reader, transport)

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once reaped (negative: killed by that signal)."""
        return self._popen.returncode

    @property
    def exited(self) -> bool:
        return self._exited.done()

    async def read(self) -> bytes:
        """The next chunk of output; b"" at end of output."""
        return await self._reader.read(CHUNK_BYTES)

    async def wait_exit(self) -> int:
        """Wait until the command itself exits (not its pipe) and return its status."""
        await asyncio.shield(self._exited)
        return self._popen.wait()

    async def kill_group(self, grace: float = KILL_GRACE_S) -> None:
        """SIGTERM the whole group, then SIGKILL it after a grace period."""
        self._signal(signal.SIGTERM)
        try:
            if not self._exited.done():
                await asyncio.wait_for(asyncio.shield(self._exited), grace)
        except TimeoutError:
            pass
        finally:
            # Also catches children that ignore SIGTERM or outlive the leader.
            self._signal(signal.SIGKILL)
        await self.wait_exit()

    def close(self) -> None:
        """Stop reading output (the exit watcher releases itself when the command exits)."""
        self._transport.close()

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self._popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _watch_exit(self) -> None:
        try:
            self._pidfd = os.pidfd_open(self._popen.pid)
        except (AttributeError, OSError):
            self._poller = self._loop.create_task(self._poll_exit())
            return
        self._loop.add_reader(self._pidfd, self._on_exit)

    def _on_exit(self) -> None:
        self._stop_watch()
        if not self._exited.done():
            self._exited.set_result(None)

    async def _poll_exit(self) -> None:
        while self._popen.poll() is None:
            await asyncio.sleep(_POLL_S)
        if not self._exited.done():
            self._exited.set_result(None)

    def _stop_watch(self) -> None:
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if self._poller is not None and self._poller is not asyncio.current_task():
            self._poller.cancel()

"""A shell command in its own process group: start it, stream its output, kill the whole group.

Exit is detected on its own (pidfd, else polling) rather than through asyncio's
subprocess wait, which also waits for the output pipe to close: a grandchild
left running in the background would otherwise hold a finished command open.

Given a SandboxPolicy, the command runs under the machine's OS sandbox backend
(agent_core.sandbox), and whatever it leaves running dies with it. Every live
GroupProcess is kept in a process-wide set so that ``kill_all_running`` can end
them all from a signal handler or at exit.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.sandbox.backend import Confinement
from agent_core.sandbox.launch import LaunchFailed, start_confined
from agent_core.tools.base import ToolError

if TYPE_CHECKING:
    from agent_core.sandbox.policy import SandboxPolicy

KILL_GRACE_S = 1.0  # between SIGTERM and SIGKILL
CHUNK_BYTES = 65536
_POLL_S = 0.05
EXIT_KILL_GRACE_S = 0.3  # kill_all_running: between SIGTERM and SIGKILL

_RUNNING: set[GroupProcess] = set()  # started and not yet seen to exit


class GroupProcess:
    """`/bin/bash -c command` as a new session; stdout and stderr interleaved in one pipe."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        reader: asyncio.StreamReader,
        transport: asyncio.ReadTransport,
        confinement: Confinement | None = None,
    ) -> None:
        self._popen = popen
        self._confinement = confinement or Confinement([], None)
        self._ended = False
        self._reader = reader
        self._transport = transport
        self._loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[None] = self._loop.create_future()
        self._pidfd: int | None = None
        self._poller: asyncio.Task[None] | None = None
        _RUNNING.add(self)
        self._watch_exit()

    @classmethod
    async def start(
        cls,
        command: str,
        cwd: Path,
        env: dict[str, str] | None = None,
        sandbox: SandboxPolicy | None = None,
    ) -> GroupProcess:
        """Start the command with stdin from /dev/null; raises ToolError if it cannot start.

        With a policy, the command runs confined by the machine's sandbox backend
        (unconfined when there is none: the runtime warns about that); with None it
        runs unconfined. Call this from the event loop's thread and keep that thread
        alive: bubblewrap and Landlock kill the command when the thread that started
        it exits.
        """
        if not cwd.is_dir():
            raise ToolError(f"working directory {cwd} does not exist")
        try:
            popen, confinement = start_confined(
                ["/bin/bash", "-c", command],
                cwd,
                env,
                sandbox,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
        except LaunchFailed as exc:
            raise ToolError(str(exc)) from None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=CHUNK_BYTES)
        assert popen.stdout is not None
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), popen.stdout
        )
        return cls(popen, reader, transport, confinement)

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

    @property
    def guard_findings(self) -> list[str]:
        """What the sandbox's guard undid or found once the command ended (one line each)."""
        return list(self._confinement.findings)

    async def read(self) -> bytes:
        """The next chunk of output; b"" at end of output."""
        return await self._reader.read(CHUNK_BYTES)

    async def wait_exit(self) -> int:
        """Wait until the command itself exits (not its pipe) and return its status."""
        await asyncio.shield(self._exited)
        return self._popen.wait()

    async def kill_group(self, grace: float = KILL_GRACE_S) -> None:
        """SIGTERM the whole group, then SIGKILL it after a grace period."""
        # Taken before the leader dies: a child in its own session (the sandbox's
        # PID-namespace init, a setsid'd command) is out of the group's reach after.
        strays = descendants(self._popen.pid)
        self._signal(signal.SIGTERM)
        try:
            if not self._exited.done():
                await asyncio.wait_for(asyncio.shield(self._exited), grace)
        except TimeoutError:
            pass
        finally:
            # Also catches children that ignore SIGTERM or outlive the leader.
            self._signal(signal.SIGKILL)
            kill_processes(strays)
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
        self._end()
        if not self._exited.done():
            self._exited.set_result(None)

    async def _poll_exit(self) -> None:
        while self._popen.poll() is None:
            await asyncio.sleep(_POLL_S)
        self._end()
        if not self._exited.done():
            self._exited.set_result(None)

    def _end(self) -> None:
        """The command's own process is gone: forget it and clear away what it left behind."""
        _RUNNING.discard(self)
        if not self._ended:
            self._ended = True
            self._confinement.ended()

    def _stop_watch(self) -> None:
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if self._poller is not None and self._poller is not asyncio.current_task():
            self._poller.cancel()


def kill_all_running(grace: float = EXIT_KILL_GRACE_S) -> int:
    """Kill every command and background shell still running, with all they started.

    Synchronous, for signal handlers (SIGTERM, SIGHUP) and atexit: SIGTERM to each
    group, SIGKILL after ``grace`` seconds, then the sandbox's leftovers. Returns
    how many commands were running.
    """
    procs = list(_RUNNING)
    strays = [found for proc in procs for found in descendants(proc.pid)]
    for proc in procs:
        proc._signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(p._popen.poll() is None for p in procs):
        time.sleep(0.01)
    for proc in procs:
        proc._signal(signal.SIGKILL)
    kill_processes(strays)
    for proc in procs:
        try:
            proc._popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
        proc._end()
    orphans = sys.modules.get("agent_core.sandbox.orphans")
    if orphans is not None and orphans.end_all_runs():  # only Landlock leaves leftovers
        # A leftover outlived its command and the guard's check of it: check once more.
        from agent_core.sandbox import guarded_files

        guarded_files.EXIT_FINDINGS.extend(guarded_files.final_checks())
    return len(procs)


def _stat(pid: str) -> tuple[int, int] | None:
    """(parent pid, start time) of a process from /proc, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[19])  # ppid, starttime (after the "(comm)" field)


def descendants(pid: int) -> list[tuple[int, int]]:
    """Every live descendant of ``pid`` as (pid, start time); [] where /proc is unreadable."""
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in entries:
        stat = _stat(entry)
        if stat is not None:
            children.setdefault(stat[0], []).append((int(entry), stat[1]))
    found: list[tuple[int, int]] = []
    queue = [pid]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child[0])
    return found


def kill_processes(processes: list[tuple[int, int]]) -> None:
    """SIGKILL each (pid, start time) still running as that same process (not a reused pid)."""
    for pid, started in processes:
        stat = _stat(str(pid))
        if stat is not None and stat[1] == started:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

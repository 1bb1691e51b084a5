"""Running the ripgrep binary shipped in the ripgrep wheel, cancellable and capped."""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.tools.base import ToolError

if TYPE_CHECKING:
    from agent_core.sandbox.backend import Confinement
    from agent_core.sandbox.policy import SandboxPolicy

# Past this much output the search stops; the result says so.
MAX_OUTPUT_BYTES = 8 * 1024 * 1024
_CHUNK = 1 << 16


@functools.cache
def _locate_rg() -> str | None:
    name = "rg.exe" if os.name == "nt" else "rg"
    beside_python = Path(sys.executable).parent / name
    if beside_python.is_file():
        return str(beside_python)
    return shutil.which("rg")


# A forked process (the preload server's child) has another caller's PATH: look again.
os.register_at_fork(after_in_child=_locate_rg.cache_clear)


def find_rg() -> str:
    """The rg executable: next to the running Python (the venv), else on PATH."""
    found = _locate_rg()
    if found is None:
        _locate_rg.cache_clear()
        raise ToolError("ripgrep (rg) is not installed: reinstall mewcode")
    return found


@dataclass
class RgOutput:
    """What one rg run printed; `cut` means output stopped at a line or byte cap."""

    returncode: int
    stdout: bytes
    stderr: str
    cut: bool = False


class _ConfinedRg:
    """rg started under the OS sandbox, with the face of an asyncio subprocess."""

    def __init__(self, popen: subprocess.Popen[bytes], confinement: Confinement) -> None:
        self._popen = popen
        self._confinement = confinement
        self.stdout = asyncio.StreamReader(limit=_CHUNK)
        self.stderr = asyncio.StreamReader(limit=_CHUNK)
        self._pipes: list[asyncio.BaseTransport] = []

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._popen.stdout is not None and self._popen.stderr is not None
        for reader, pipe in ((self.stdout, self._popen.stdout), (self.stderr, self._popen.stderr)):
            transport, _ = await loop.connect_read_pipe(_protocol_for(reader), pipe)
            self._pipes.append(transport)

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    def kill(self) -> None:
        self._popen.kill()

    async def wait(self) -> int:
        code = await asyncio.get_running_loop().run_in_executor(None, self._popen.wait)
        for transport in self._pipes:
            transport.close()
        self._confinement.ended()
        return code


def _protocol_for(reader: asyncio.StreamReader) -> Callable[[], asyncio.StreamReaderProtocol]:
    return lambda: asyncio.StreamReaderProtocol(reader)


async def _start(
    args: list[str], cwd: Path, policy: SandboxPolicy | None
) -> asyncio.subprocess.Process | _ConfinedRg:
    if policy is None:
        return await asyncio.create_subprocess_exec(
            find_rg(),
            *args,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    from agent_core.sandbox.launch import LaunchFailed, start_confined
    from agent_core.sandbox.policy import read_only_policy

    try:
        popen, confinement = start_confined(
            [find_rg(), *args],
            cwd,
            None,
            read_only_policy(policy),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except LaunchFailed as exc:
        raise ToolError(f"could not run ripgrep: {exc}") from None
    proc = _ConfinedRg(popen, confinement)
    await proc.connect()
    return proc


async def run_rg(
    args: list[str],
    cwd: Path,
    cancel: asyncio.Event | None = None,
    *,
    max_lines: int | None = None,
    max_bytes: int = MAX_OUTPUT_BYTES,
    policy: SandboxPolicy | None = None,
) -> RgOutput:
    """Run rg in cwd; kill it on cancel or once it printed more than max_lines lines.

    With the session's ``policy``, rg runs under the OS sandbox with nothing writable:
    a file it opens through a symlink swapped in after the permission check is still
    one the sandbox lets commands read (credentials stay hidden).
    """
    if cancel is not None and cancel.is_set():
        raise ToolError("search cancelled")
    try:
        proc = await _start(args, cwd, policy)
    except FileNotFoundError:
        if not cwd.is_dir():
            raise ToolError(f"working directory no longer exists: {cwd}") from None
        raise ToolError("ripgrep (rg) could not be started") from None
    except OSError as exc:
        raise ToolError(f"could not run ripgrep: {exc.strerror or exc}") from None

    reader = asyncio.ensure_future(_collect(proc, max_lines, max_bytes))
    watcher = asyncio.ensure_future(cancel.wait()) if cancel is not None else None
    try:
        if watcher is not None:
            await asyncio.wait({reader, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if not reader.done():
                raise ToolError("search cancelled")
        stdout, stderr, cut = await reader
    finally:
        if watcher is not None:
            watcher.cancel()
        if proc.returncode is None:
            _kill(proc)
            reader.cancel()
            # Reap the child so no zombie or transport warning outlives the call.
            await asyncio.shield(proc.wait())
    return RgOutput(proc.returncode or 0, stdout, stderr, cut)


def _kill(proc: asyncio.subprocess.Process | _ConfinedRg) -> None:
    try:
        proc.kill()
    except ProcessLookupError:
        pass


async def _collect(
    proc: asyncio.subprocess.Process | _ConfinedRg, max_lines: int | None, max_bytes: int
) -> tuple[bytes, str, bool]:
    assert proc.stdout is not None and proc.stderr is not None
    errors = asyncio.ensure_future(proc.stderr.read())
    chunks: list[bytes] = []
    size = lines = 0
    cut = False
    try:
        while chunk := await proc.stdout.read(_CHUNK):
            chunks.append(chunk)
            size += len(chunk)
            if max_lines is not None:
                lines += chunk.count(b"\n")
                if lines > max_lines:
                    cut = True
                    break
            if size > max_bytes:
                cut = True
                break
        if cut:
            _kill(proc)
        stderr = await errors
        await proc.wait()
    finally:
        errors.cancel()
    data = b"".join(chunks)
    if cut:
        data = _trim(data, max_lines, max_bytes)
    return data, stderr.decode("utf-8", errors="replace"), cut


def _trim(data: bytes, max_lines: int | None, max_bytes: int) -> bytes:
    """The whole lines of data within both caps."""
    data = data[:max_bytes]
    end = data.rfind(b"\n") + 1
    data = data[:end]
    if max_lines is not None:
        pos = -1
        for _ in range(max_lines):
            pos = data.find(b"\n", pos + 1)
            if pos < 0:
                return data
        data = data[: pos + 1]
    return data


def rg_error(stderr: str) -> str:
    """rg's error output as one line a person (or model) can act on."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if not lines:
        return "ripgrep failed"
    if any("regex parse error" in line for line in lines):
        reason = next((ln for ln in reversed(lines) if ln.startswith("error:")), lines[-1])
        return f"invalid regex: {reason.removeprefix('error:').strip()}"
    last = lines[-1].removeprefix("rg: ")
    return last

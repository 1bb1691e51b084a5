"""Running the ripgrep binary shipped in the ripgrep wheel, cancellable and capped."""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from agent_core.tools.base import ToolError

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


async def run_rg(
    args: list[str],
    cwd: Path,
    cancel: asyncio.Event | None = None,
    *,
    max_lines: int | None = None,
    max_bytes: int = MAX_OUTPUT_BYTES,
) -> RgOutput:
    """Run rg in cwd; kill it on cancel or once it printed more than max_lines lines."""
    if cancel is not None and cancel.is_set():
        raise ToolError("search cancelled")
    try:
        proc = await asyncio.create_subprocess_exec(
            find_rg(),
            *args,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
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


def _kill(proc: asyncio.subprocess.Process) -> None:
    try:
        proc.kill()
    except ProcessLookupError:
        pass


async def _collect(
    proc: asyncio.subprocess.Process, max_lines: int | None, max_bytes: int
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

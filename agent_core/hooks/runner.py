"""Runs one hook command: ``sh -c`` in its own process group, JSON on stdin, bounded in time.

The hook runs in the project root with the user's environment and the settings' ``env``
(less MewCode's API keys) plus ``CLAUDE_PROJECT_DIR`` and ``MEWCODE_PROJECT_DIR``. It is the user's own
program: like Claude Code's hooks it runs outside the OS sandbox. At its timeout,
or when the turn is cancelled, its whole process group is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Mapping
from pathlib import Path

from agent_core.hooks.config import HookCommand
from agent_core.hooks.outcome import HookRun

OUTPUT_BYTES = 1_000_000  # what is kept of a hook's stdout and stderr each


def hook_env(project: Path, withheld: tuple[str, ...], base: Mapping[str, str]) -> dict[str, str]:
    """The environment a hook runs with."""
    env = {k: v for k, v in base.items() if k not in withheld}
    env.update(CLAUDE_PROJECT_DIR=str(project), MEWCODE_PROJECT_DIR=str(project), MEWCODE="1")
    return env


async def run_hook(
    hook: HookCommand, label: str, stdin: bytes, project: Path, env: Mapping[str, str]
) -> HookRun:
    """Run ``hook`` with ``stdin`` and wait for it (at most its timeout)."""
    try:
        proc = await asyncio.create_subprocess_exec(
            "/bin/sh",
            "-c",
            hook.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=project,
            env=dict(env),
            start_new_session=True,  # its own process group, killed as a whole
        )
    except OSError as exc:
        return HookRun(label, None, error=exc.strerror or str(exc))
    try:
        out, err = await asyncio.wait_for(_talk(proc, stdin), hook.timeout_s)
    except TimeoutError:
        _kill_group(proc.pid)
        await proc.wait()
        return HookRun(label, None, timed_out=True, timeout_s=hook.timeout_s)
    except BaseException:  # cancelled with the turn: the hook goes too
        _kill_group(proc.pid)
        with contextlib.suppress(BaseException):
            await asyncio.shield(proc.wait())
        raise
    return HookRun(label, proc.returncode, _decode(out), _decode(err))


async def _talk(proc: asyncio.subprocess.Process, stdin: bytes) -> tuple[bytes, bytes]:
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        proc.stdin.write(stdin)  # a hook that never reads its input is fine
        await proc.stdin.drain()
    with contextlib.suppress(OSError):
        proc.stdin.close()
    out, err = await asyncio.gather(_read(proc.stdout), _read(proc.stderr))
    await proc.wait()
    return out, err


async def _read(stream: asyncio.StreamReader) -> bytes:
    """All of a stream (to EOF), keeping the first OUTPUT_BYTES."""
    kept = bytearray()
    while chunk := await stream.read(65536):
        if len(kept) < OUTPUT_BYTES:
            kept += chunk[: OUTPUT_BYTES - len(kept)]
    return bytes(kept)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")

"""Killing a command also kills what it started in a session of its own (setsid, the
sandbox's PID-namespace init): the group kill alone cannot reach those."""

from __future__ import annotations

import asyncio
import uuid

from agent_core.tools.procgroup import GroupProcess, kill_all_running
from tests.helpers.headless import processes_with


async def _started(proc: GroupProcess) -> None:
    output = b""
    while b"started" not in output:
        chunk = await proc.read()
        assert chunk, f"the command ended early: {output!r}"
        output += chunk


async def _gone(marker: str) -> list[int]:
    for _ in range(200):  # up to 10 s: the kill is asynchronous in the kernel
        if not (left := processes_with(marker)):
            return []
        await asyncio.sleep(0.05)
    return left


async def test_kill_group_kills_a_setsid_child(tmp_path) -> None:
    marker = f"77.{uuid.uuid4().int % 10**9}"
    proc = await GroupProcess.start(f"setsid sleep {marker} & echo started; wait", tmp_path)
    await _started(proc)
    assert processes_with(marker)
    await proc.kill_group(grace=0.2)
    proc.close()
    assert await _gone(marker) == []


async def test_kill_all_running_kills_a_setsid_child(tmp_path) -> None:
    marker = f"78.{uuid.uuid4().int % 10**9}"
    proc = await GroupProcess.start(f"setsid sleep {marker} & echo started; wait", tmp_path)
    await _started(proc)
    kill_all_running(grace=0.1)
    proc.close()
    assert await _gone(marker) == []

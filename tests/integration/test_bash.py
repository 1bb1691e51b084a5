"""Bash: exit codes, timeouts and cancellation kill the process group, big output spills to a file."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.bash import BashParams, BashTool


@pytest.fixture
def ctx(project: Path, tmp_path: Path) -> ToolContext:
    return ToolContext(cwd=project, session_dir=tmp_path / "session", call_id="call_1")


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(") ", 1)[1][0] not in "ZX"


async def gone(pid: int, within: float = 15.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def bash(ctx: ToolContext, command: str, **raw):
    args = validate_input(BashParams, {"command": command, **raw})
    return await BashTool().run(args, ctx)


async def test_output_and_non_zero_exit_code(ctx: ToolContext) -> None:
    out = await bash(ctx, "echo to-stdout; echo to-stderr >&2; exit 3")
    assert out.is_error
    assert out.content == "to-stdout\nto-stderr\nExit code 3"
    record = ctx.state.execs["call_1"]
    assert record.command.startswith("echo to-stdout")
    assert record.exit_code == 3
    assert record.duration_ms >= 0


async def test_success_runs_in_project_root(ctx: ToolContext) -> None:
    out = await bash(ctx, "pwd; true")
    assert not out.is_error
    assert out.content == str(ctx.cwd)
    empty = await bash(ctx, "true")
    assert (empty.content, empty.is_error) == ("(no output)", False)


async def test_stdin_is_empty(ctx: ToolContext) -> None:
    out = await bash(ctx, "cat; echo after-cat", timeout=5000)
    assert out.content == "after-cat"


async def test_timeout_kills_the_process_group(ctx: ToolContext) -> None:
    started = time.monotonic()
    out = await bash(ctx, "sleep 30 & echo $! > child.pid; echo started; wait", timeout=400)
    assert time.monotonic() - started < 5
    assert out.is_error
    assert out.content.startswith("started\n")
    assert "timed out after 0.4 s" in out.content
    child = int((ctx.cwd / "child.pid").read_text())
    assert await gone(child), "the background sleep survived the timeout"


async def test_cancel_event_kills_the_command(ctx: ToolContext) -> None:
    async def cancel_soon() -> None:
        while not (ctx.cwd / "child.pid").exists():
            await asyncio.sleep(0.02)
        ctx.cancel.set()

    canceller = asyncio.create_task(cancel_soon())
    out = await bash(ctx, "sleep 30 & echo $! > child.pid; wait", timeout=20000)
    await canceller
    assert out.is_error and "cancelled by the user" in out.content
    assert await gone(int((ctx.cwd / "child.pid").read_text()))
    assert ctx.state.execs["call_1"].outcome == "cancelled"


async def test_task_cancellation_kills_the_command(ctx: ToolContext) -> None:
    task = asyncio.create_task(
        bash(ctx, "echo $$ > leader.pid; sleep 30 & echo $! > child.pid; wait")
    )
    while not (ctx.cwd / "child.pid").exists():
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await gone(int((ctx.cwd / "child.pid").read_text()))
    assert await gone(int((ctx.cwd / "leader.pid").read_text()))


async def test_ten_megabytes_spill_to_a_file_with_head_and_tail(ctx: ToolContext) -> None:
    ctx.state.bash_output_chars = 30_000
    out = await bash(ctx, "echo FIRST; yes 0123456789abcdef | head -c 10000000; echo; echo LAST")
    text = out.content
    assert not out.is_error
    assert len(text) < 31_000
    assert text.startswith("FIRST\n0123456789abcdef")
    assert text.endswith("LAST")
    spill = ctx.session_dir / "tool-results" / "bash-call_1.txt"
    assert f"full output (10000012 chars) saved to {spill}" in text
    assert "chars omitted" in text
    data = spill.read_bytes()
    assert len(data) == 10_000_012
    assert data.startswith(b"FIRST\n") and data.endswith(b"\nLAST\n")


async def test_small_output_is_not_spilled(ctx: ToolContext) -> None:
    ctx.state.bash_output_chars = 1000
    out = await bash(ctx, "printf 'x%.0s' $(seq 1 999)")
    assert out.content == "x" * 999
    assert not (ctx.session_dir / "tool-results").exists()


async def test_lingering_grandchild_does_not_hold_the_call(ctx: ToolContext) -> None:
    started = time.monotonic()
    out = await bash(ctx, "echo $$; sleep 20 & echo done")
    try:
        assert time.monotonic() - started < 3
        assert out.content.splitlines()[-1] == "done"
    finally:
        try:
            os.killpg(int(out.content.splitlines()[0]), signal.SIGKILL)
        except ProcessLookupError:
            pass


async def test_bad_input_is_an_error(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="timeout"):
        validate_input(BashParams, {"command": "ls", "timeout": 600_001})
    with pytest.raises(ToolError, match="command is empty"):
        await bash(ctx, "   ")


async def test_deleted_working_directory_is_a_clear_error(ctx: ToolContext) -> None:
    ctx.cwd = ctx.cwd / "gone"
    with pytest.raises(ToolError, match="working directory .*gone does not exist"):
        await bash(ctx, "ls")

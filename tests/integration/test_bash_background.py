"""Background shells: Bash(run_in_background) + BashOutput + KillShell + closing the session's shells."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from agent_core.tools.base import ToolContext, ToolError, validate_input
from agent_core.tools.bash import BashParams, BashTool
from agent_core.tools.shell_tools import (
    BashOutputParams,
    BashOutputTool,
    KillShellParams,
    KillShellTool,
)


@pytest.fixture
async def ctx(project: Path, tmp_path: Path):
    context = ToolContext(cwd=project, session_dir=tmp_path / "session", call_id="bg")
    yield context
    await context.state.close()


def alive(pid: int) -> bool:
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


async def start(ctx: ToolContext, command: str) -> str:
    args = validate_input(BashParams, {"command": command, "run_in_background": True})
    out = await BashTool().run(args, ctx)
    assert not out.is_error
    return out.content.split("ID: ", 1)[1].split("\n", 1)[0]


async def output(ctx: ToolContext, shell_id: str, filter: str | None = None) -> str:
    raw = {"bash_id": shell_id} | ({"filter": filter} if filter else {})
    return (await BashOutputTool().run(validate_input(BashOutputParams, raw), ctx)).content


async def until_exited(ctx: ToolContext, shell_id: str, **kw) -> list[str]:
    """Poll BashOutput until the shell has exited; returns every answer."""
    answers = []
    deadline = time.monotonic() + 30  # a loaded machine; a shell that exits returns early
    while time.monotonic() < deadline:
        answers.append(await output(ctx, shell_id, **kw))
        if "exited" in answers[-1].splitlines()[0]:
            return answers
        await asyncio.sleep(0.05)
    raise AssertionError(f"shell did not exit: {answers[-1]}")


async def test_background_returns_at_once_and_output_is_read_incrementally(
    ctx: ToolContext,
) -> None:
    started = time.monotonic()
    shell_id = await start(
        ctx, "echo one; while [ ! -f go ]; do sleep 0.02; done; echo two; exit 4"
    )
    assert shell_id == "bash_1"
    assert time.monotonic() - started < 1
    first = ""
    while "one" not in first:
        await asyncio.sleep(0.02)
        first = await output(ctx, shell_id)
    assert first.startswith("Shell bash_1: running")
    assert first.endswith("one")
    assert (await output(ctx, shell_id)).endswith("(no new output)")
    (ctx.cwd / "go").touch()
    answers = await until_exited(ctx, shell_id)
    assert answers[-1].splitlines()[0] == "Shell bash_1: exited 4"
    new_text = "\n".join(answers)
    assert "two" in new_text and "one" not in new_text  # only output since the last call
    assert ctx.state.execs["bg"].exit_code is None


async def test_filter_keeps_matching_lines(ctx: ToolContext) -> None:
    shell_id = await start(ctx, "printf 'apple 1\\nbanana 2\\napple 3\\n'")
    answers = await until_exited(ctx, shell_id, filter="^apple")
    text = "\n".join(answers)
    assert "apple 1" in text and "apple 3" in text and "banana" not in text
    with pytest.raises(ToolError, match="invalid filter regex"):
        await output(ctx, shell_id, filter="(")


async def test_kill_shell_kills_its_process_group(ctx: ToolContext) -> None:
    shell_id = await start(ctx, "sleep 30 & echo $! > child.pid; wait")
    pid_file = ctx.cwd / "child.pid"
    while not pid_file.exists() or not pid_file.read_text().strip():
        await asyncio.sleep(0.02)
    child = int(pid_file.read_text())
    killed = await KillShellTool().run(validate_input(KillShellParams, {"shell_id": shell_id}), ctx)
    assert killed.content.startswith("Killed shell bash_1")
    assert await gone(child)
    assert (await output(ctx, shell_id)).startswith("Shell bash_1: killed")
    again = await KillShellTool().run(validate_input(KillShellParams, {"shell_id": shell_id}), ctx)
    assert "already finished" in again.content


async def test_close_all_kills_running_shells(ctx: ToolContext) -> None:
    await start(ctx, "sleep 30 & echo $! > a.pid; wait")
    await start(ctx, "sleep 30 & echo $! > b.pid; wait")
    for name in ("a.pid", "b.pid"):
        while not (ctx.cwd / name).exists() or not (ctx.cwd / name).read_text().strip():
            await asyncio.sleep(0.02)
    await ctx.state.close()
    assert await gone(int((ctx.cwd / "a.pid").read_text()))
    assert await gone(int((ctx.cwd / "b.pid").read_text()))


async def test_big_background_output_is_bounded(ctx: ToolContext) -> None:
    ctx.state.bash_output_chars = 2000
    shell_id = await start(ctx, "echo HEAD; yes abcdefghij | head -c 1000000; echo; echo TAIL")
    answers = await until_exited(ctx, shell_id)
    # Each read is bounded; how many reads it takes depends on the machine's load.
    assert all(len(answer) < 4_000 for answer in answers)
    text = "\n".join(answers)
    # The last output line is TAIL, whether it came with the "exited" read or before it.
    printed = [
        line
        for line in text.splitlines()
        if not line.startswith("Shell bash_") and line != "(no new output)"
    ]
    assert "HEAD" in printed and printed[-1] == "TAIL"
    assert "bytes omitted; full output in" in text


async def test_unknown_shell_id_is_an_error(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="no background shell 'bash_9'"):
        await output(ctx, "bash_9")

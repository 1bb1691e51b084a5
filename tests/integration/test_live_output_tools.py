"""The Bash and BashOutput tools send a command's last lines to the front end (issue 25, item 1)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from agent_core import events as ev
from agent_core.tools.base import ToolContext, validate_input
from agent_core.tools.bash import BashParams, BashTool
from agent_core.tools.shell_tools import BashOutputParams, BashOutputTool


def collecting(project: Path, tmp_path: Path, call_id: str) -> tuple[ToolContext, list]:
    sent: list = []

    async def emit(event) -> None:
        sent.append(event)

    ctx = ToolContext(cwd=project, session_dir=tmp_path / "s", call_id=call_id, emit=emit)
    return ctx, sent


async def test_bash_sends_its_ticks_while_running_and_nothing_after_its_result(
    project: Path, tmp_path: Path
) -> None:
    ctx, sent = collecting(project, tmp_path, "b1")
    command = "for i in $(seq 1 30); do echo tick $i; sleep 0.05; done"
    result = await BashTool().run(validate_input(BashParams, {"command": command}), ctx)
    assert "tick 30" in str(result.content)
    updates = [e for e in sent if isinstance(e, ev.ToolOutputUpdate)]
    assert len(updates) >= 2  # while it ran, more than once
    assert all(e.call_id == "b1" and not e.final for e in updates)
    assert updates[0].text.startswith("tick 1") and "tick 30" not in updates[0].text
    count = len(sent)
    await asyncio.sleep(0.5)
    assert len(sent) == count  # none after the result
    await ctx.state.close()


async def test_bash_output_shows_the_shells_last_lines_in_its_line(
    project: Path, tmp_path: Path
) -> None:
    ctx, sent = collecting(project, tmp_path, "start")
    args = {"command": "seq 1 500 | sed 's/^/line /'; sleep 30", "run_in_background": True}
    started = await BashTool().run(validate_input(BashParams, args), ctx)
    shell_id = str(started.content).split("ID: ", 1)[1].split("\n", 1)[0]
    ctx.call_id = "out1"
    params = validate_input(BashOutputParams, {"bash_id": shell_id})
    deadline = time.monotonic() + 20
    while "line 500" not in str((await BashOutputTool().run(params, ctx)).content):
        assert time.monotonic() < deadline, "the shell's output never arrived"
        await asyncio.sleep(0.05)
    sent.clear()
    ctx.call_id = "out2"
    answer = await BashOutputTool().run(params, ctx)
    assert "(no new output)" in str(answer.content)
    # Nothing new for the model, but the call's line shows where the shell stands.
    (update,) = [e for e in sent if isinstance(e, ev.ToolOutputUpdate)]
    assert update.call_id == "out2" and update.shell_id == shell_id
    assert update.text.splitlines()[-1] == "line 500"
    assert len(update.text.splitlines()) == 40  # its last lines, bounded
    assert update.total_chars > len(update.text)
    await ctx.state.close()

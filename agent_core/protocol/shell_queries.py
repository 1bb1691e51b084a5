"""The session's background shells for a front end: list them with their last lines, stop one.

What ``Bash(run_in_background=true)`` started keeps running between turns; a person
wants to see what it prints and to stop it without asking the model (``/bashes`` in the
UI). The lines are the shell's live tail: redacted as its log is, and bounded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.tools.base import ToolError

if TYPE_CHECKING:
    from agent_core.protocol import ops
    from agent_core.protocol.hosted import HostedRuntime
    from agent_core.tools.shells import BackgroundShell


def shell_info(shell: BackgroundShell) -> ev.ShellInfo:
    output, total_chars = shell.live_output()
    return ev.ShellInfo(
        shell_id=shell.id,
        command=shell.command,
        status=shell.status(),
        running=shell.running,
        output=output,
        total_chars=total_chars,
    )


def shell_list(runtime: HostedRuntime, op: ops.QueryShells | ops.StopShell) -> ev.ShellList:
    return ev.ShellList(op_id=op.id, shells=[shell_info(s) for s in runtime.shells.shells()])


async def stop_shell(runtime: HostedRuntime, op: ops.StopShell) -> ev.ShellList:
    """Kill the shell and what it started; refused for an unknown id. Stopping one that
    has already ended changes nothing."""
    try:
        shell = runtime.shells.get(op.shell_id)
    except ToolError as exc:
        raise MewCodeError(str(exc)) from None
    if shell.running:
        await shell.kill()
    return shell_list(runtime, op)

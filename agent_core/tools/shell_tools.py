"""BashOutput and KillShell: read from and stop the session's background shells."""

from __future__ import annotations

import re
from typing import Annotated, ClassVar

import msgspec

from agent_core import events as ev
from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput


class BashOutputParams(msgspec.Struct, forbid_unknown_fields=True):
    bash_id: Annotated[str, msgspec.Meta(description="The id of the background shell, e.g. bash_1")]
    filter: Annotated[
        str | None,
        msgspec.Meta(
            description="Optional regular expression: only new output lines matching it are"
            " returned; the other new lines are discarded"
        ),
    ] = None


class KillShellParams(msgspec.Struct, forbid_unknown_fields=True):
    shell_id: Annotated[str, msgspec.Meta(description="The id of the background shell to kill")]


class BashOutputTool:
    """New output of a background shell since the last check, and whether it still runs."""

    name: ClassVar[str] = "BashOutput"
    description: ClassVar[str] = (
        "Retrieves output from a background shell started with Bash(run_in_background=true).\n\n"
        "- Returns only the output written since the last BashOutput call for that shell, plus"
        " its status: running, exited N, or killed.\n"
        "- filter is an optional regular expression; only matching lines are shown and the"
        " non-matching new lines are no longer available.\n"
        "- Very long output is cut to head and tail; the full log's path is given."
    )
    params: ClassVar[type[msgspec.Struct]] = BashOutputParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: BashOutputParams) -> str:
        return args.bash_id + (f" (filter {args.filter})" if args.filter else "")

    async def run(self, args: BashOutputParams, ctx: ToolContext) -> ToolOutput:
        shell = ctx.state.shells.get(args.bash_id)
        pattern = None
        if args.filter:
            try:
                pattern = re.compile(args.filter)
            except re.error as exc:
                raise ToolError(f"invalid filter regex: {exc}") from None
        status = shell.status()  # before reading, so "exited" means all output is in
        await shell.settle()
        limit = ctx.state.bash_output_chars
        text = shell.read_new(limit, pattern).rstrip()
        body = text or "(no new output)"
        if ctx.emit is not None and ctx.call_id:  # the call's line shows the shell's last lines
            tail = shell.tail
            await ctx.emit(
                ev.ToolOutputUpdate(
                    call_id=ctx.call_id,
                    text=tail.text(),
                    total_chars=tail.total_chars,
                    shell_id=shell.id,
                )
            )
        return ToolOutput(f"Shell {shell.id}: {status}\n{body}")


class KillShellTool:
    """Kill a background shell and every process it started."""

    name: ClassVar[str] = "KillShell"
    description: ClassVar[str] = (
        "Kills a background shell started with Bash(run_in_background=true), including its"
        " child processes. Takes the shell id (e.g. bash_1)."
    )
    params: ClassVar[type[msgspec.Struct]] = KillShellParams
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "hidden"

    def summary(self, args: KillShellParams) -> str:
        return args.shell_id

    async def run(self, args: KillShellParams, ctx: ToolContext) -> ToolOutput:
        shell = ctx.state.shells.get(args.shell_id)
        if not shell.running:
            return ToolOutput(f"Shell {shell.id} already finished: {shell.status()}")
        await shell.kill()
        return ToolOutput(f"Killed shell {shell.id} ({shell.command[:80]})")

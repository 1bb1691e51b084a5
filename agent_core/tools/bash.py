"""Bash: run a shell command in the project, with a timeout, cancellation and bounded output."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from typing import Annotated, ClassVar, Literal

import msgspec

from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.bash_live import LiveTail, TailStreamer
from agent_core.tools.capture import OutputCapture, spill_path
from agent_core.tools.interruption import ToolInterrupted
from agent_core.tools.procgroup import GroupProcess
from agent_core.tools.session_state import (
    DEFAULT_TIMEOUT_MS,
    ExecOutcome,
    ExecRecord,
)
from agent_core.tools.shells import EXIT_DRAIN_S

MAX_TIMEOUT_MS = 600_000
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")

Outcome = Literal["exited", "timed_out", "cancelled"]


class BashParams(msgspec.Struct, forbid_unknown_fields=True):
    command: Annotated[str, msgspec.Meta(min_length=1, description="The command to execute")]
    timeout: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=MAX_TIMEOUT_MS)] | None,
        msgspec.Meta(description="Optional timeout in milliseconds (max 600000)"),
    ] = None
    description: Annotated[
        str | None,
        msgspec.Meta(
            description="Clear, concise description of what this command does in 5-10 words,"
            " e.g. 'Install package dependencies'"
        ),
    ] = None
    run_in_background: Annotated[
        bool,
        msgspec.Meta(
            description="Run the command in the background and return at once; read its"
            " output later with BashOutput"
        ),
    ] = False


# MewCode's own provider credentials: no command needs them, and a command may print them.
PROVIDER_KEY_VARS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY")
# Addresses of servers that run commands outside the sandbox (the user's tmux, screen, D-Bus).
DAEMON_VARS = ("TMUX", "TMUX_PANE", "STY", "DBUS_SESSION_BUS_ADDRESS")


def shell_env(ctx: ToolContext | None = None) -> dict[str, str]:
    """The environment commands run with: the user's and the settings' ``env``, minus pagers
    and prompts that would hang, and minus the variables holding MewCode's own API keys
    (``withheld_env`` adds to them)."""
    env = {**os.environ, **(ctx.state.command_env if ctx else {})}
    withheld = [
        *PROVIDER_KEY_VARS,
        *DAEMON_VARS,
        *(ctx.state.withheld_env if ctx else ()),
    ]
    for name in withheld:
        env.pop(name, None)
    env.update(PAGER="cat", GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0", MEWCODE="1")
    return env


class BashTool:
    """Run a command with /bin/bash in the project root, in its own process group."""

    name: ClassVar[str] = "Bash"
    description: ClassVar[str] = (
        "Executes a bash command with an optional timeout and returns its combined stdout and"
        " stderr.\n\n"
        "Usage:\n"
        "- Each command runs in a fresh `/bin/bash -c` in the project root; `cd` does not carry"
        " over to the next call, so use absolute paths or `cd dir && command`.\n"
        "- stdin is empty: interactive commands (editors, prompts, `git rebase -i`) cannot be"
        " answered; use non-interactive flags.\n"
        "- Quote paths that contain spaces with double quotes.\n"
        f"- timeout is in milliseconds: default {DEFAULT_TIMEOUT_MS} (2 minutes), at most"
        f" {MAX_TIMEOUT_MS} (10 minutes). On timeout the command and all its child processes"
        " are killed.\n"
        "- Output longer than about 30000 characters is cut to its head and tail; the whole"
        " output is saved to a file whose path is given, which you can Read or Grep.\n"
        "- A non-zero exit status is reported as `Exit code N`.\n"
        "- Use run_in_background for long-running commands such as dev servers or watchers;"
        " it returns a shell id at once. Read new output with BashOutput and stop it with"
        " KillShell. Do not add `&` yourself.\n"
        "- Prefer the dedicated tools over shell equivalents: Glob instead of find, Grep"
        " instead of grep/rg, Read instead of cat/head/tail, Edit/Write instead of sed/echo"
        " redirection.\n"
        "- Chain dependent commands with `&&`; make independent calls in parallel instead."
    )
    params: ClassVar[type[msgspec.Struct]] = BashParams
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "bash"
    rule_field: ClassVar[str | None] = "command"
    plan_mode: ClassVar[PlanMode] = "hidden"

    def summary(self, args: BashParams) -> str:
        # The command itself: the description is shown beside it, as secondary text.
        lines = args.command.strip().splitlines()
        text = (lines[0] if lines else "") + (" …" if len(lines) > 1 else "")
        text = text if len(text) <= 80 else text[:79] + "…"
        return text + (" (background)" if args.run_in_background else "")

    async def run(self, args: BashParams, ctx: ToolContext) -> ToolOutput:
        if not args.command.strip():
            raise ToolError("command is empty")
        limit = ctx.state.bash_output_chars
        if args.run_in_background:
            return await _start_background(args, ctx)
        timeout_ms = args.timeout or ctx.state.bash_timeout_ms
        started = time.monotonic()
        proc = await GroupProcess.start(
            args.command, ctx.cwd, shell_env(ctx), ctx.state.sandbox_policy
        )
        capture = OutputCapture(limit, spill_path(ctx.session_dir, ctx.call_id or f"pid{proc.pid}"))
        live = TailStreamer(LiveTail(), ctx.emit, ctx.call_id).start()
        outcome: Outcome = "cancelled"
        interrupted = False
        try:
            outcome = await _supervise(proc, capture, timeout_ms / 1000, ctx.cancel, live)
        except asyncio.CancelledError:
            interrupted = True  # re-raised below, with what the command printed
        finally:
            live.stop()  # the result comes after the last update
            proc.close()
            capture.finish()
            _record(ctx, args.command, proc.returncode, started, outcome)
            findings = proc.guard_findings
            ctx.state.sandbox_findings.extend(findings)
        if interrupted:
            raise ToolInterrupted(_ANSI.sub("", capture.text()).rstrip())
        result = _result(capture, proc.returncode, outcome, timeout_ms)
        if findings and isinstance(result.content, str):
            notes = "\n".join(f"[MewCode] {line}" for line in findings)
            result.content = f"{result.content}\n\n{notes}"
        return result


async def _supervise(
    proc: GroupProcess,
    capture: OutputCapture,
    timeout_s: float,
    cancel: asyncio.Event,
    live: TailStreamer,
) -> Outcome:
    """Read output until the command exits, times out or is cancelled; kill the group if needed."""

    async def pump() -> None:
        while chunk := await proc.read():
            capture.feed(chunk)
            live.feed(chunk)

    reading = asyncio.create_task(pump())
    exiting = asyncio.create_task(proc.wait_exit())
    cancelling = asyncio.create_task(cancel.wait())
    try:
        done, _ = await asyncio.wait(
            {exiting, cancelling}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
        )
        if exiting in done:
            outcome: Outcome = "exited"
        else:
            outcome = "cancelled" if cancelling in done else "timed_out"
            await proc.kill_group()
        # What is left in the pipe; a grandchild still running may hold it open.
        await asyncio.wait({reading}, timeout=EXIT_DRAIN_S)
        return outcome
    except asyncio.CancelledError:
        await proc.kill_group()
        # Output already in the pipe is part of what ran; the dead group closes it.
        await asyncio.wait({reading}, timeout=EXIT_DRAIN_S)
        raise
    finally:
        for task in (reading, exiting, cancelling):
            task.cancel()


def _result(
    capture: OutputCapture, code: int | None, outcome: Outcome, timeout_ms: int
) -> ToolOutput:
    text = _ANSI.sub("", capture.text()).rstrip()
    notes: list[str] = []
    if outcome == "timed_out":
        notes.append(
            f"Command timed out after {_duration(timeout_ms)}; it and its child processes were killed."
        )
    elif outcome == "cancelled":
        notes.append("Command cancelled by the user; it and its child processes were killed.")
    elif code is not None and code < 0:
        notes.append(f"Command killed by signal {_signal_name(-code)}")
    elif code:
        notes.append(f"Exit code {code}")
    if not text and not notes:
        return ToolOutput("(no output)")
    body = "\n".join(part for part in [text, *notes] if part)
    return ToolOutput(body, is_error=outcome != "exited" or bool(code))


def _record(
    ctx: ToolContext, command: str, code: int | None, started: float, outcome: ExecOutcome
) -> None:
    # Taken by the executor for the audit log (what ran, exit code).
    duration_ms = int((time.monotonic() - started) * 1000)
    ctx.state.execs[ctx.call_id] = ExecRecord(command, code, duration_ms, outcome)


async def _start_background(args: BashParams, ctx: ToolContext) -> ToolOutput:
    started = time.monotonic()
    shell = await ctx.state.shells.start(
        args.command,
        ctx.cwd,
        shell_env(ctx),
        ctx.session_dir / "tool-results",
        ctx.state.sandbox_policy,
    )
    _record(ctx, args.command, None, started, "background")
    return ToolOutput(
        f"Command running in background with ID: {shell.id}\n"
        f'Read its output with BashOutput(bash_id="{shell.id}"); stop it with'
        f' KillShell(shell_id="{shell.id}").'
    )


def _duration(ms: int) -> str:
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:g} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)

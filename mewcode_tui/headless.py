"""Headless front end (`mewcode -p`): runs one turn and prints text, json or stream-json.

It drives the session through the protocol alone: a ``UserTurn`` op in, the event
stream and the snapshot out (docs/protocol.md).

``stream-json`` prints one JSON object a line in the shape Claude Code's
``-p --output-format stream-json`` uses, so tools that read one read the other.
What goes to stderr (warnings, notices, a server's failure, the error a turn ended
with) quotes hooks, servers and files: it is written with its control characters
escaped. Stdout is the answer or JSON for whatever reads it, and stays exact.
"""

from __future__ import annotations

import sys
import time
import uuid
from typing import TYPE_CHECKING, Any, TextIO

import msgspec

from agent_core import events as ev
from agent_core.protocol.ops import UserTurn
from agent_core.terminal_text import visible_text
from mewcode_tui.verbose_trail import VerboseTrail
from mewcode_tui.version import STREAM_JSON_PROTOCOL, installed_version

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agent_core.agent.runtime import Runtime
    from agent_core.mcp.model import McpServerStatus
    from agent_core.protocol.session import AgentSession, SessionSnapshot
    from agent_core.usage import Usage

_encode = msgspec.json.Encoder().encode

SUBTYPES = {
    "end_turn": "success",
    "max_iterations": "error_max_turns",
    "max_budget": "error_max_budget_usd",
    "hallucinated_tools": "error_during_execution",
    "cancelled": "error_during_execution",
    "error": "error_during_execution",
}


# Our server states as Claude Code's init line names them ("connected", "failed",
# "pending", "needs-auth"); "needs-trust" is ours: like needs-auth, a person must act.
MCP_STATUSES = {
    "connected": "connected",
    "failed": "failed",
    "pending": "pending",
    "connecting": "pending",
    "needs-trust": "needs-trust",
    "closed": "failed",
}


def say(err: TextIO, message: str) -> None:
    """One ``mewcode:`` message on stderr, with its control characters shown escaped."""
    err.write(f"mewcode: {visible_text(message, multiline=True)}\n")


def failed_servers(statuses: Sequence[McpServerStatus]) -> list[str]:
    """What to tell about each MCP server that failed to start (-p has no /mcp list)."""
    lines = []
    for status in statuses:
        if status.state != "failed":
            continue
        error = status.error or "failed"
        named = error.startswith(f"MCP server '{status.name}'")
        lines.append(error if named else f"MCP server '{status.name}' failed: {error}")
    return lines


def usage_json(usage: Usage) -> dict[str, int]:
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_creation_input_tokens": usage.cache_write_tokens,
        "cache_read_input_tokens": usage.cache_read_tokens,
    }


class HeadlessPrinter:
    """Consumes the session's events and writes them in the chosen format."""

    def __init__(
        self,
        session: AgentSession,
        output_format: str,
        out: TextIO,
        err: TextIO,
        *,
        verbose: bool = False,
    ) -> None:
        self.session = session
        self.format = output_format
        self.out = out
        self.err = err
        self.model = ""  # read when the session opens
        # --verbose: a trail of the turn on stderr. The hook for stream-json's full
        # messages (Claude Code prints them with --verbose) is here too: ``self.verbose``.
        self.verbose = verbose
        self.trail = VerboseTrail(err) if verbose else None

    def line(self, obj: dict[str, Any]) -> None:
        self.out.write(_encode(obj).decode() + "\n")
        self.out.flush()

    def init_line(self, snap: SessionSnapshot) -> None:
        self.line(
            {
                "type": "system",
                "subtype": "init",
                "session_id": snap.session_id,
                "cwd": snap.cwd,
                "model": snap.model,
                "tools": snap.tools,
                "mcp_servers": [
                    {"name": s.name, "status": MCP_STATUSES[s.state]} for s in snap.mcp
                ],
                "permissionMode": snap.mode,
                "apiKeySource": "none" if snap.provider == "demo" else "environment",
                # The level of Claude Code's stream-json protocol spoken here: the Agent SDKs
                # read it to tell whether the CLI is recent enough, and warn on every query
                # without it. MewCode's own version is beside it.
                "claude_code_version": STREAM_JSON_PROTOCOL,
                "mewcode_version": installed_version(),
            }
        )

    def handle(self, event: ev.Event) -> None:
        sid = self.session.session_id
        if self.trail is not None:
            self.trail.handle(event)
        if isinstance(event, ev.Notice | ev.AnswerRestarted) and self.format != "stream-json":
            say(self.err, f"warning: {event.message}")
        if self.format != "stream-json":
            return
        if isinstance(event, ev.AssistantMessage):
            self.line(
                {
                    "type": "assistant",
                    "session_id": sid,
                    "parent_tool_use_id": None,
                    "message": {
                        "id": f"msg_{uuid.uuid4().hex[:24]}",
                        "type": "message",
                        "role": "assistant",
                        "model": self.model,
                        "content": event.content,
                        "stop_reason": None,
                        "usage": usage_json(event.usage),
                    },
                }
            )
        elif isinstance(event, ev.ToolResult):
            self.line(
                {
                    "type": "user",
                    "session_id": sid,
                    "parent_tool_use_id": None,
                    "message": {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": event.call_id,
                                "content": event.content,
                                "is_error": event.is_error,
                            }
                        ],
                    },
                }
            )

    def result(self, done: ev.TurnCompleted, duration_ms: int) -> dict[str, Any]:
        snap = self.session.snapshot()
        stats = snap.last_turn
        subtype = SUBTYPES[done.stop_reason]
        return {
            "type": "result",
            "subtype": subtype,
            "is_error": subtype != "success",
            "duration_ms": duration_ms,
            "duration_api_ms": stats.api_ms,
            "num_turns": stats.requests,
            "result": done.final_text,
            "stop_reason": done.stop_reason,
            "session_id": snap.session_id,
            "total_cost_usd": round(snap.cost_usd, 6),
            "usage": usage_json(done.usage),
            "permission_denials": stats.denials,
            **({"error": done.error} if done.error else {}),
        }


async def run_headless(
    runtime: Runtime,
    prompt: str,
    output_format: str,
    out: TextIO | None = None,
    err: TextIO | None = None,
    *,
    verbose: bool = False,
) -> int:
    """Run one turn without a human (asks become denials); returns the exit code.

    The runtime is driven through a ``SessionHost`` (ops in, events out) and closed
    with it, whatever happens.
    """
    from agent_core.protocol.host import SessionHost

    host = SessionHost(runtime, can_ask=False)
    host.start()
    try:
        return await _one_turn(host, prompt, output_format, out, err, verbose=verbose)
    finally:
        await host.close()  # stops the MCP servers too: no child outlives -p


async def _one_turn(
    session: AgentSession,
    prompt: str,
    output_format: str,
    out: TextIO | None,
    err: TextIO | None,
    *,
    verbose: bool,
) -> int:
    out = out or sys.stdout  # resolved now: the streams may have been replaced since import
    err = err or sys.stderr
    printer = HeadlessPrinter(session, output_format, out, err, verbose=verbose)
    turn = await session.submit(UserTurn(text=prompt))
    opened = False
    started = time.monotonic()
    done: ev.TurnCompleted | None = None
    async for item in session.events():  # the host's close ends the stream
        event = item.event
        if not opened:
            # The opening: settings problems and load warnings, then (MCP servers
            # settled) the session itself; only then the turn's events.
            if isinstance(event, ev.Notice):
                say(err, f"warning: {event.message}")
            elif isinstance(event, ev.SessionOpened):
                opened = True
                snap = session.snapshot()
                printer.model = snap.model
                for failure in failed_servers(snap.mcp):
                    say(err, f"warning: {failure}")
                if output_format == "stream-json":
                    printer.init_line(snap)
                started = time.monotonic()
            continue
        if isinstance(event, ev.OpRefused) and event.op_id == turn:
            say(err, event.reason)
            return 1
        printer.handle(event)
        if isinstance(event, ev.TurnCompleted):
            done = event  # -p submits one turn: the first to complete is it
            break
    if done is None:
        say(err, "the session ended before the turn did")
        return 1
    result = printer.result(done, int((time.monotonic() - started) * 1000))
    if printer.trail is not None:
        printer.trail.timings(result["duration_ms"], result["duration_api_ms"])
    if output_format == "stream-json":
        printer.line(result)
    elif output_format == "json":
        out.write(_encode(result).decode() + "\n")
    else:
        if done.final_text:
            out.write(done.final_text.rstrip("\n") + "\n")
    if done.stop_reason == "error":
        say(err, done.error or "the turn failed")
        return 1
    if done.stop_reason != "end_turn":
        why = f": {done.error}" if done.error else ""
        say(err, f"stopped: {done.stop_reason.replace('_', ' ')}{why}")
        return 1
    return 0

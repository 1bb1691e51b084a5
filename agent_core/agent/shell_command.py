"""A command the user typed after ``!``: run as a Bash call, then told to the model.

It goes through the executor like any Bash call the model makes, so the blacklist, the
rules, the mode, hooks and the OS sandbox decide it as they would, and "ask" asks the
user. It runs no model request: its input and output join the history as a user message in
the tags Claude Code uses (agent_core/agent/shell_context.py), and the model reads them
with the next prompt
(docs/manual.md#shell-commands-with-).
"""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.agent.conversation import Conversation
from agent_core.agent.executor import ToolExecutor
from agent_core.agent.shell_context import shell_context
from agent_core.agent.turn_events import Emit
from agent_core.errors import ChannelClosed
from agent_core.messages import ToolResultBlock, ToolUseBlock, result_text
from agent_core.protocol.ops import SHELL_CALL_PREFIX
from agent_core.usage import Usage


def shell_call(turn_id: str, command: str) -> ToolUseBlock:
    """The Bash call a ``!`` command runs as."""
    return ToolUseBlock(id=f"{SHELL_CALL_PREFIX}{turn_id}", name="Bash", input={"command": command})


class AllowWatch:
    """The turn's event sink, noting whether the call was allowed (it then ran)."""

    def __init__(self, emit: Emit, call_id: str) -> None:
        self._emit = emit
        self._call_id = call_id
        self.allowed = False

    async def __call__(self, event: ev.Event) -> None:
        if isinstance(event, ev.PermissionDecision) and event.call_id == self._call_id:
            self.allowed = event.decision == "allow"
        await self._emit(event)


async def run_shell_command(
    call: ToolUseBlock,
    executor: ToolExecutor,
    conversation: Conversation,
    emit: AllowWatch,
    turn_id: str,
) -> ev.TurnCompleted:
    """Run the ``shell_call`` (its executor sends its events to ``emit``) and add what it
    gave to the history; answered, like a turn, by a ``turn.completed`` with the turn id."""
    reason: ev.StopReason = "end_turn"
    try:
        result = await executor.execute(call)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        reason = "cancelled"
        result = executor.completed.get(call.id) or ToolResultBlock(
            tool_use_id=call.id, content="not run: cancelled by user", is_error=True
        )
    except ChannelClosed:
        reason = "cancelled"
        result = executor.completed.get(call.id) or ToolResultBlock(
            tool_use_id=call.id, content="not run: no one is listening", is_error=True
        )
    command = str(call.input.get("command", ""))
    for message in shell_context(command, result_text(result), ran=emit.allowed):
        conversation.append(message)
    done = ev.TurnCompleted(
        turn_id=turn_id, stop_reason=reason, final_text="", iterations=0, usage=Usage()
    )
    for event in (ev.Status(phase="idle"), done):
        try:
            await emit(event)
        except ChannelClosed:
            break
    return done

"""The hooks of one session, event by event, as the runtime, the loop and the executor call them.

Warnings (a hook that failed, timed out or exited with another code) and
``systemMessage`` texts reach the user as ``Notice`` events; what a hook decided
comes back to the caller as a ``HookOutcome``.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.hooks.config import HookSettings, load_hooks
from agent_core.hooks.dispatcher import HookDispatcher
from agent_core.hooks.outcome import HookOutcome
from agent_core.hooks.remote import AskRemote, RemoteHook
from agent_core.hooks.runner import hook_env

if TYPE_CHECKING:
    from pathlib import Path

    from agent_core.config.paths import MewcodePaths
    from agent_core.config.settings import Settings
    from agent_core.messages import ToolResultBlock, ToolUseBlock

Emit = Callable[[ev.Event], Awaitable[None]]
STOP_BLOCKS = 3  # a Stop hook may send the model back this many times a turn, no more


class SessionStartContext:
    """What SessionStart hooks printed as context: part of every request's environment."""

    def __init__(self) -> None:
        self.text = ""

    def block_for(self, prompt: str) -> str:
        return f"Context from the SessionStart hooks:\n{self.text}" if self.text else ""


class SessionHooks:
    """A session's hooks; ``for_turn`` binds them to one turn's events."""

    def __init__(
        self,
        settings: HookSettings,
        dispatcher: HookDispatcher | None,
        project: Path | None = None,
        common: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.settings = settings
        self.dispatcher = dispatcher
        self.start_context = SessionStartContext()
        self._project = project
        self._common = common

    def add_remote(self, hooks: list[RemoteHook], ask: AskRemote) -> None:
        """A front end's hook callbacks, run beside the configured hooks from now on."""
        if self.dispatcher is None:
            if self._project is None or self._common is None:
                raise MewCodeError("this session cannot take hook callbacks")
            self.dispatcher = HookDispatcher([], self._project, {}, self._common)
        self.dispatcher.add_remote(hooks, ask)

    @classmethod
    def load(
        cls,
        paths: MewcodePaths,
        settings: Settings,
        common: Callable[[], dict[str, Any]],
        withheld: tuple[str, ...],
    ) -> SessionHooks:
        """The hooks configured for this project (an untrusted project's wait)."""
        found = load_hooks(
            paths, trusted=settings.project_trusted, approved=settings.trusted_programs
        )
        if not found.active:
            return cls(found, None, paths.project, common)
        env = hook_env(paths.project, withheld, {**os.environ, **settings.hook_env})
        dispatcher = HookDispatcher(
            found.active, paths.project, env, common, approved=settings.trusted_programs
        )
        return cls(found, dispatcher, paths.project, common)

    async def run(
        self, event: str, payload: dict[str, Any], emit: Emit, target: str = ""
    ) -> HookOutcome:
        """Run ``event``'s hooks; their warnings and system messages go to ``emit``."""
        if self.dispatcher is None:
            return HookOutcome()
        outcome = await self.dispatcher.run(event, payload, target)
        for warning in outcome.warnings:
            await emit(ev.Notice(level="warning", message=warning))
        for message in outcome.system_messages:
            await emit(ev.Notice(level="info", message=message))
        return outcome

    async def session_started(self, source: str) -> list[str]:
        """SessionStart (startup, resume, clear); returns the lines for the user."""
        lines: list[str] = []

        async def keep(event: ev.Event) -> None:
            if isinstance(event, ev.Notice):
                lines.append(event.message)

        outcome = await self.run("SessionStart", {"source": source}, keep, source)
        self.start_context.text = "\n\n".join(outcome.context)
        return lines

    async def session_ended(self, reason: str) -> None:
        """SessionEnd: nothing can be shown any more, so what it says is dropped."""

        async def drop(event: ev.Event) -> None:
            return None

        await self.run("SessionEnd", {"reason": reason}, drop, reason)

    async def compacting(self, trigger: str, instructions: str, emit: Emit) -> None:
        """PreCompact (manual or auto)."""
        payload = {"trigger": trigger, "custom_instructions": instructions}
        await self.run("PreCompact", payload, emit, trigger)

    def for_turn(self, emit: Emit) -> TurnHooks:
        return TurnHooks(self, emit)


@dataclass
class TurnHooks:
    """One turn's hooks: the prompt, each tool call, approvals and the end of the turn."""

    session: SessionHooks
    emit: Emit
    stop_requested: str = ""  # a hook said continue: false (its stopReason)
    _stop_blocks: int = 0

    @property
    def active(self) -> bool:
        return self.session.dispatcher is not None

    async def prompt_submitted(self, prompt: str) -> HookOutcome:
        """UserPromptSubmit: may block the prompt or add context to it."""
        return await self.session.run("UserPromptSubmit", {"prompt": prompt}, self.emit)

    async def before_tool(self, call: ToolUseBlock) -> HookOutcome:
        """PreToolUse: may deny, ask or allow the call."""
        outcome = await self.session.run("PreToolUse", _tool_payload(call), self.emit, call.name)
        self._note_stop(outcome)
        return outcome

    async def after_tool(self, call: ToolUseBlock, result: ToolResultBlock) -> ToolResultBlock:
        """PostToolUse: a block's reason (and any context) is added to the result."""
        from agent_core.messages import ToolResultBlock, result_text

        payload = {**_tool_payload(call), "tool_response": result_text(result)}
        outcome = await self.session.run("PostToolUse", payload, self.emit, call.name)
        self._note_stop(outcome)
        notes = [*([outcome.reason] if outcome.blocked else []), *outcome.context]
        if not notes or not isinstance(result.content, str):
            return result
        text = "\n\n".join([result.content, *(f"[PostToolUse hook] {n}" for n in notes)])
        return ToolResultBlock(
            tool_use_id=result.tool_use_id, content=text, is_error=result.is_error
        )

    async def approval_needed(self, call: ToolUseBlock) -> None:
        """Notification: the agent waits for the user's answer."""
        payload = {
            "message": f"MewCode needs your permission to use {call.name}",
            "notification_type": "permission_prompt",
        }
        await self.session.run("Notification", payload, self.emit, "permission_prompt")

    async def continue_reason(self) -> str | None:
        """Stop: the reason to go on when a hook blocks the stop (bounded), else None."""
        if not self.active or self.stop_requested:
            return None
        active = self._stop_blocks > 0
        outcome = await self.session.run("Stop", {"stop_hook_active": active}, self.emit)
        if not outcome.blocked or outcome.stop:
            return None
        if self._stop_blocks >= STOP_BLOCKS:
            note = f"{outcome.decided_by} blocked the stop {STOP_BLOCKS} times; the turn ends"
            await self.emit(ev.Notice(level="warning", message=note))
            return None
        self._stop_blocks += 1
        return outcome.reason

    def _note_stop(self, outcome: HookOutcome) -> None:
        if outcome.stop and not self.stop_requested:
            self.stop_requested = outcome.stop_reason


def _tool_payload(call: ToolUseBlock) -> dict[str, Any]:
    return {"tool_name": call.name, "tool_input": call.input, "tool_use_id": call.id}

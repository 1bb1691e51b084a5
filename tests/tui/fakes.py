"""A scripted stand-in for the Runtime, for TUI tests that need exact events.

A script is ``async def script(send, text)``; it sends events through the
real rendezvous channel and may await approval tickets, so the UI is tested
against the same blocking contract as the real runtime.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, Literal

from agent_core import events as ev
from agent_core.agent.approvals import Answer, ApprovalTicket
from agent_core.agent.loop import TurnStats
from agent_core.agent.session_api import RuntimeSession
from agent_core.channel import RendezvousChannel
from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.context.manager import CompactionOutcome
from agent_core.errors import MewCodeError
from agent_core.hooks.session_hooks import SessionHooks
from agent_core.llm.base import ChatRequest, Provider, StreamEvent
from agent_core.mcp.model import McpServerStatus
from agent_core.memory.files import MemoryReach, session_reach
from agent_core.memory.long_term import LongTermMemory
from agent_core.messages import ImageBlock, Message
from agent_core.modes import Mode
from agent_core.sandbox.policy import sandbox_policy
from agent_core.sandbox.session import unsandboxed_bypass_error
from agent_core.sandbox.status import SandboxStatus
from agent_core.session.loader import SavedViews
from agent_core.skills.loader import SkillLibrary
from agent_core.tools.shells import ShellRegistry
from agent_core.usage import Usage

Send = Callable[[ev.Event], Awaitable[None]]
Script = Callable[[Send, str], Coroutine[Any, Any, None]]


class FakeProvider:
    """Names a provider and model; a fake session never streams from it."""

    def __init__(self, name: str = "fake", model: str = "fake-model") -> None:
        self.name = name
        self.model = model

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        raise AssertionError("a FakeRuntime turn runs a script, not the provider")
        yield  # pragma: no cover  (makes this an async generator)


class FakeRuntime:
    """The ``RuntimeSession`` the TUI uses, driven by one script per turn.

    It runs under a real ``SessionHost`` (the TUI's seam); memory, skills and hooks are
    the real kinds over this folder and ``MEWCODE_HOME``, so the host's queries answer.
    """

    def __init__(
        self, cwd: Path, scripts: list[Script] | None = None, history: list[Message] | None = None
    ) -> None:
        self.cwd = cwd
        self.scripts = list(scripts or [])
        self.session_id = "fake-session"
        self.session_path = cwd / "fake-session.jsonl"
        self.mode: Mode = "default"
        self.provider: Provider = FakeProvider()
        self.history: list[Message] = list(history or [])
        self.usage = Usage()
        self.cost_usd = 0.0
        self.context_tokens = 0
        self.context_window = 200_000
        self.load_warnings: list[str] = []
        self.saved_views = SavedViews()
        self.settings_problems: list[str] = []
        self.prompts: list[str] = []
        self.shell_commands: list[str] = []  # what ``!`` prompts ran (never a prompt)
        self.typed: list[str] = []  # each turn's ``shown``: what the user typed for it
        self.replies: list[Answer] = []  # each approval's answer, tool call's or plan's
        self.saved_rules = [RuleEntry("Bash(git:*)", "allow", "/home/u/.mewcode/settings.yaml")]
        self.session_rules = [RuleEntry("Edit", "allow", "session")]
        self.shell_registry = ShellRegistry()  # background shells (/bashes)
        self.new_sessions = 0
        self.closed = False
        self.sandbox = SandboxStatus("bubblewrap", True)
        home = Path(os.environ.get("MEWCODE_HOME", cwd / ".mewcode-home"))
        self.sandbox_policy = sandbox_policy(cwd, [], cwd, Path.home(), home)
        self.paths = MewcodePaths(home=home, project=cwd)
        self.memory = LongTermMemory(self.paths)
        self.skills = SkillLibrary.for_session(self.paths)
        self.hooks = SessionHooks.load(self.paths, Settings(), dict, ())
        self.forks: list[str | None] = []
        self.last_stats = TurnStats()
        self.compactions: list[str] = []
        self.waiting: dict[str, ApprovalTicket] = {}
        self._task: asyncio.Task | None = None
        self.mcp: list[McpServerStatus] = []  # what mcp_servers() shows; tests set it
        self.mcp_started = 0
        self.mcp_reconnects: list[str] = []
        self._mcp_watchers: list[Callable[[], None]] = []
        self._mode_watchers: list[Callable[[Mode], None]] = []
        self.opened_as: Literal["new", "resumed"] = "new"
        self.settings = Settings()
        self.provider_env: dict[str, str] = {}
        self.added_directories: list[str] = []

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def tool_names(self) -> list[str]:
        return ["Read", "Edit", "Bash"]

    def start_mcp(self) -> None:
        self.mcp_started += 1

    async def settle_tools(self) -> None:
        return None

    def mcp_servers(self) -> list[McpServerStatus]:
        return list(self.mcp)

    async def mcp_reconnect(self, name: str) -> McpServerStatus:
        self.mcp_reconnects.append(name)
        for status in self.mcp:
            if status.name == name:
                return status
        raise MewCodeError(f"no MCP server named {name!r}")

    def watch_mcp(self, callback: Callable[[], None]) -> None:
        self._mcp_watchers.append(callback)

    def mcp_changed(self, statuses: list[McpServerStatus]) -> None:
        """Tests: servers changed state (as the hub reports a connect or a crash)."""
        self.mcp = list(statuses)
        for callback in self._mcp_watchers:
            callback()

    def add_directory(self, path: str) -> tuple[Path, bool]:
        folder = (self.cwd / path).resolve()
        if not folder.is_dir():
            raise MewCodeError(
                f"{path}: {'not a directory' if folder.exists() else 'no such directory'}"
            )
        new = str(folder) not in self.added_directories
        if new:
            self.added_directories.append(str(folder))
        return folder, new

    def memory_reach(self) -> MemoryReach:
        return session_reach(self.paths, self.cwd, [], self.sandbox_policy.hidden)

    def mode_refusal(self, mode: Mode) -> MewCodeError | None:
        return unsandboxed_bypass_error(mode, Settings(), self.sandbox)

    def set_mode(self, mode: Mode) -> None:
        if refusal := self.mode_refusal(mode):
            raise refusal
        self.mode = mode
        for watcher in self._mode_watchers:
            watcher(mode)

    def watch_mode(self, callback: Callable[[Mode], None]) -> None:
        self._mode_watchers.append(callback)

    async def switch_model(self, model: str, provider: str | None = None) -> None:
        from agent_core.llm.factory import make_provider

        self.provider = make_provider(
            provider or self.provider.name, model, settings=Settings(), env=os.environ, cwd=self.cwd
        )

    def context_breakdown(self) -> dict[str, int]:
        return {"total": self.context_tokens, "context_window": self.context_window}

    async def compact(self, instructions: str = "") -> CompactionOutcome:
        self.compactions.append(instructions)
        return CompactionOutcome(list(self.history), self.context_tokens, self.context_tokens)

    async def resume(self, session_id: str) -> list[str]:
        raise MewCodeError(f"no session {session_id} in this fake")

    @property
    def shells(self) -> ShellRegistry:
        return self.shell_registry

    def rules(self) -> list[RuleEntry]:
        return [*self.saved_rules, *self.session_rules]

    def remove_rule(self, entry: RuleEntry) -> bool:
        for group in (self.saved_rules, self.session_rules):
            if entry in group:
                group.remove(entry)
                return True
        return False

    async def ask(self, send: Send, request: ev.ApprovalRequested) -> Answer:
        """Send an approval request and block until it is answered by id, as the runtime does."""
        ticket = ApprovalTicket(request.kind)
        self.waiting[request.approval_id] = ticket
        try:
            await send(request)
            reply = await ticket.wait()
        finally:
            self.waiting.pop(request.approval_id, None)
        self.replies.append(reply)
        return reply

    def answer_approval(self, approval_id: str, reply: Answer) -> bool:
        ticket = self.waiting.get(approval_id)
        return ticket is not None and ticket.answer(reply)

    async def run_turn(
        self,
        text: str,
        events: RendezvousChannel[ev.Event] | None = None,
        *,
        can_ask: bool = True,
        turn_id: str | None = None,
        images: Sequence[ImageBlock] = (),
        shown: str = "",
    ) -> ev.TurnCompleted:
        assert events is not None, "the TUI always passes a channel"
        self.prompts.append(text)
        self.typed.append(shown)
        script = self.scripts.pop(0) if self.scripts else plain_answer("ok")
        self._task = asyncio.create_task(script(events.send, text))
        reason: ev.StopReason = "end_turn"
        try:
            await asyncio.shield(self._task)
        except asyncio.CancelledError:
            if not self._task.cancelled():
                self._task.cancel()
                raise
            reason = "cancelled"
        done = ev.TurnCompleted(
            turn_id=turn_id or "t",
            stop_reason=reason,
            final_text="",
            iterations=1,
            usage=self.usage,
        )
        await events.send(ev.Status(phase="idle"))
        await events.send(done)
        return done

    async def run_shell(
        self,
        command: str,
        events: RendezvousChannel[ev.Event] | None = None,
        *,
        can_ask: bool = True,
        turn_id: str | None = None,
    ) -> ev.TurnCompleted:
        """A ``!`` command: noted, and answered by the next script as a turn would be."""
        self.shell_commands.append(command)
        done = await self.run_turn(command, events, can_ask=can_ask, turn_id=turn_id)
        self.prompts.remove(command)
        return done

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def new_session(self) -> None:
        self.new_sessions += 1
        self.history = []

    async def fork(self, session_id: str | None = None) -> None:
        self.forks.append(session_id)

    async def close(self) -> None:
        self.closed = True


def plain_answer(text: str, chunk: int = 4) -> Script:
    """A turn that streams ``text`` as Markdown in small chunks."""

    async def script(send: Send, prompt: str) -> None:
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.Status(phase="streaming"))
        for i in range(0, len(text), chunk):
            await send(ev.MessageDelta(text=text[i : i + chunk]))
        await send(ev.AssistantMessage(content=[{"type": "text", "text": text}], usage=Usage()))

    return script


def paced_answer(pieces: list[str], shown: Callable[[], str], timeout: float = 10.0) -> Script:
    """A turn that streams ``pieces`` one at a time: each is sent once ``shown()`` (the
    answer text on screen) holds everything before it, so each reaches the view alone."""

    async def script(send: Send, prompt: str) -> None:
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        sent = ""
        for piece in pieces:
            await send(ev.MessageDelta(text=piece))
            sent += piece
            async with asyncio.timeout(timeout):
                while shown() != sent:  # a condition, not a pause: holds under load too
                    await asyncio.sleep(0.01)
        await send(ev.AssistantMessage(content=[], usage=Usage()))

    return script


def shown_answer(app: Any) -> Callable[[], str]:
    """The assistant text the app's chat has written so far (for ``paced_answer``)."""
    from mewcode_tui.transcript import AssistantEntry

    def text() -> str:
        entries = app.main_screen.transcript.entries
        return "".join(e.text for e in entries if isinstance(e, AssistantEntry))

    return text


def tool_call(call_id: str, tool: str, summary: str, **inp: Any) -> ev.ToolCall:
    return ev.ToolCall(
        call_id=call_id, tool=tool, input=inp, read_only=tool != "Edit", summary=summary
    )


def tool_result(
    call_id: str, tool: str, content: str, ms: int = 12, is_error: bool = False
) -> ev.ToolResult:
    return ev.ToolResult(
        call_id=call_id, tool=tool, is_error=is_error, content=content, duration_ms=ms
    )


def opener_for(runtime: RuntimeSession) -> Callable[[Any, Any], Awaitable[RuntimeSession]]:
    async def open_(options: Any, provider: Any) -> RuntimeSession:
        return runtime

    return open_


def _conforms(runtime: FakeRuntime) -> RuntimeSession:
    return runtime  # mypy checks that the fake implements the whole session interface

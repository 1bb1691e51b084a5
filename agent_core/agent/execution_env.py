"""What a turn's tool calls run with: the permission gate, contexts, result shaping, mode.

The executor (executor.py) receives these as one ``ExecutionEnv``; each is a small
Protocol so tests and other front ends can supply their own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agent_core import events as ev
from agent_core.agent.approvals import PendingApprovals
from agent_core.agent.tool_catalog import ToolCatalog
from agent_core.hooks.outcome import HookOutcome
from agent_core.messages import ToolResultBlock, ToolUseBlock
from agent_core.modes import Mode
from agent_core.tools.base import Tool, ToolContext


class Verdict(Protocol):
    """An automatic decision (layers 1-4) on one call."""

    @property
    def decision(self) -> ev.Decision: ...

    @property
    def layer(self) -> ev.Layer: ...

    @property
    def reason(self) -> str: ...

    @property
    def rule(self) -> str | None: ...

    @property
    def suggested_rules(self) -> list[str]: ...


class PermissionGate(Protocol):
    """Decides a call (layers 1-4) and remembers what the human granted."""

    def decide(self, tool: Tool, args_raw: dict[str, Any], mode: Mode | None = None) -> Verdict:
        """Layers 1-4 on the call (``mode``: as if the session were in that mode)."""
        ...

    def grant_session(self, rules: list[str]) -> None: ...
    def grant_always(self, rules: list[str]) -> None: ...


class AuditSink(Protocol):
    def write(self, kind: str, **fields: Any) -> None: ...


class ToolContexts(Protocol):
    """Makes the context one call runs in."""

    def for_call(self, call_id: str) -> ToolContext: ...


class ResultShaper(Protocol):
    """Bounds a result's size (an oversized one is spilled to a file, docs/manual.md#sessions-and-context)."""

    def apply(self, call_id: str, text: str) -> str: ...


class ToolHooks(Protocol):
    """The PreToolUse, PostToolUse and Notification hooks of a turn (docs/configuration.md#hooks)."""

    async def before_tool(self, call: ToolUseBlock) -> HookOutcome: ...
    async def after_tool(self, call: ToolUseBlock, result: ToolResultBlock) -> ToolResultBlock: ...
    async def approval_needed(self, call: ToolUseBlock) -> None: ...


class ModeSwitch(Protocol):
    """The session's permission mode: read per call, switched by an approved plan."""

    @property
    def mode(self) -> Mode: ...

    def set_mode(self, mode: Mode) -> None: ...


@dataclass
class ExecutionEnv:
    """The collaborators a turn's tool calls run with."""

    catalog: ToolCatalog
    gate: PermissionGate
    emit: Callable[[ev.Event], Awaitable[None]]
    contexts: ToolContexts
    session: ModeSwitch
    can_ask: bool = True
    audit: AuditSink | None = None
    results: ResultShaper | None = None
    approvals: PendingApprovals = field(default_factory=PendingApprovals)
    hooks: ToolHooks | None = None

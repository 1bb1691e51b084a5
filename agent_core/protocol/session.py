"""The seam every front end drives: submit ops, read one event stream, read a snapshot.

Events arrive wrapped in a ``SessionEvent`` envelope with a sequence number that
only grows within the host's life. An envelope rather than a field on every event:
turn events are built deep in the loop before anyone knows their place, events
stay frozen values a front end may keep, and the TUI's per-turn path still passes
bare events until it migrates.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

import msgspec

from agent_core.events import Event
from agent_core.mcp.model import McpServerStatus
from agent_core.modes import Mode
from agent_core.protocol.ops import Op
from agent_core.sandbox.status import SandboxStatus
from agent_core.usage import Usage


class SessionEvent(msgspec.Struct, frozen=True):
    """One event of the session's life and its place in it (1, 2, 3...)."""

    seq: int
    event: Event


class TurnFigures(msgspec.Struct, frozen=True):
    """What the last turn took: model requests, time waiting on the API, denied calls."""

    requests: int = 0
    api_ms: int = 0
    denials: list[dict] = []


class SessionSnapshot(msgspec.Struct, frozen=True):
    """The figures a status bar shows, read at one moment."""

    session_id: str
    cwd: str
    mode: Mode
    model: str
    provider: str
    usage: Usage
    cost_usd: float
    context_tokens: int
    context_window: int
    sandbox: SandboxStatus
    mcp: list[McpServerStatus]
    tools: list[str]
    running: bool
    last_turn: TurnFigures = TurnFigures()
    session_path: str = ""  # the session's file
    messages: int = 0  # in the history now
    problems: list[str] = []  # settings problems and what loading the session found


class AgentSession(Protocol):
    """A conversation a front end drives through ops and events alone."""

    @property
    def session_id(self) -> str: ...

    async def submit(self, op: Op) -> str:
        """Queue ``op``; returns its id (a fresh one when ``op.id`` is empty)."""
        ...

    def events(self) -> AsyncIterator[SessionEvent]:
        """Every event of the session's life, in order; one consumer."""
        ...

    def snapshot(self) -> SessionSnapshot: ...

    async def close(self) -> None: ...

"""The TUI's one reader of an AgentSession's event stream, matching answers to ops.

Every event goes to ``deliver`` (the screen), awaited, so the agent is never more
than an event ahead of what the screen has shown. An op sent with ``request``
waits for the event that answers it: the one carrying its id, or the
``TurnCompleted`` of the turn it started (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable

from agent_core.errors import ChannelClosed, MewCodeError
from agent_core.events import Event, OpRefused, TurnCompleted
from agent_core.protocol.ops import Op
from agent_core.protocol.session import AgentSession, SessionSnapshot

log = logging.getLogger("mewcode.tui")
_op_ids = itertools.count(1)


class OpRefusedError(MewCodeError):
    """The session refused an op; the message is its reason."""

    def __init__(self, reason: str, *, op_id: str = "", op: str = "") -> None:
        super().__init__(reason)
        self.op_id = op_id
        self.op = op  # the refused op's tag ("set_mode"...)


def answered_op(event: Event) -> str:
    """The id of the op ``event`` answers, or "" when it answers none."""
    if isinstance(event, TurnCompleted):
        return event.turn_id
    op_id = getattr(event, "op_id", "")
    return op_id if isinstance(op_id, str) else ""


class SessionClient:
    """The TUI's one reader of an AgentSession's events; answers matched to ops."""

    def __init__(self, session: AgentSession, deliver: Callable[[Event], Awaitable[None]]) -> None:
        self._session = session
        self._deliver = deliver
        self._waiting: dict[str, asyncio.Future[Event]] = {}
        self._ended: MewCodeError | None = None  # set once the stream is over

    @property
    def session_id(self) -> str:
        return self._session.session_id

    async def run(self) -> None:
        """Read events until the stream ends: each is delivered, then answers its op."""
        try:
            async for item in self._session.events():
                event = item.event
                try:
                    await self._deliver(event)
                except Exception:  # a display bug must not stall the session
                    log.exception("delivering %s failed", type(event).__name__)
                waiting = self._waiting.pop(answered_op(event), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(event)
        finally:
            self._end(ChannelClosed("the session's event stream ended"))

    async def request(self, op: Op) -> Event:
        """Submit ``op`` and wait for the event answering it; a refusal raises OpRefusedError."""
        if self._ended is not None:
            raise ChannelClosed(str(self._ended))
        op.id = op.id or f"ui_{next(_op_ids)}"  # known before submit: the answer may come first
        answer: asyncio.Future[Event] = asyncio.get_running_loop().create_future()
        self._waiting[op.id] = answer
        try:
            await self._session.submit(op)
            event = await answer
        finally:
            self._waiting.pop(op.id, None)
        if isinstance(event, OpRefused):
            raise OpRefusedError(event.reason, op_id=event.op_id, op=event.op)
        return event

    async def send(self, op: Op) -> str:
        """Submit ``op`` without waiting; returns its id (its answer is delivered as usual)."""
        if self._ended is not None:
            raise ChannelClosed(str(self._ended))
        return await self._session.submit(op)

    def snapshot(self) -> SessionSnapshot:
        return self._session.snapshot()

    def awaits(self, op_id: str) -> bool:
        """A ``request`` waits for this op's answer (its refusal is the caller's to tell)."""
        return op_id in self._waiting

    def _end(self, reason: MewCodeError) -> None:
        """The stream is over: every request still waiting fails rather than hangs."""
        self._ended = reason
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_exception(reason)

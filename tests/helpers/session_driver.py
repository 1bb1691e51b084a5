"""A front end for tests: reads a session's events into a list, waits on them by condition."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from agent_core import events as ev
from agent_core.protocol.session import AgentSession, SessionEvent


class SessionDriver:
    """Consumes ``session.events()`` in the background; ``until`` waits for a matching event."""

    def __init__(self, session: AgentSession) -> None:
        self.session = session
        self.seen: list[SessionEvent] = []
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for item in self.session.events():
            async with self._changed:
                self.seen.append(item)
                self._changed.notify_all()

    async def until(
        self, match: Callable[[ev.Event], bool], *, after: int = 0, timeout: float = 30
    ) -> ev.Event:
        """The first event (from position ``after`` on) that ``match`` accepts."""

        def found() -> ev.Event | None:
            return next((s.event for s in self.seen[after:] if match(s.event)), None)

        async with asyncio.timeout(timeout):
            async with self._changed:
                await self._changed.wait_for(lambda: found() is not None)
        event = found()
        assert event is not None
        return event

    async def answer(self, op_id: str, *, after: int = 0) -> ev.Event:
        """The event that answers the op ``op_id`` (its result, OpDone or OpRefused)."""
        return await self.until(lambda e: answers(e, op_id), after=after)

    def events(self) -> list[ev.Event]:
        return [s.event for s in self.seen]

    async def stop(self) -> None:
        await self.session.close()
        await asyncio.wait_for(self._reader, 10)


def answers(event: ev.Event, op_id: str) -> bool:
    if isinstance(event, ev.TurnCompleted):
        return event.turn_id == op_id
    return getattr(event, "op_id", None) == op_id

"""One turn: run it on the runtime and hand its events, one at a time, to the presenter.

The runtime writes into a rendezvous channel, so it is never more than one
event ahead of what the screen has shown; nothing buffers the whole stream.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from agent_core.channel import RendezvousChannel
from agent_core.events import Event, TurnCompleted

if TYPE_CHECKING:
    from agent_core.agent.session_api import RuntimeSession


class EventSink(Protocol):
    """What consumes a turn's events (the presenter)."""

    async def apply(self, event: Event) -> None: ...


log = logging.getLogger("mewcode.tui")


async def consume_turn(
    runtime: RuntimeSession,
    prompt: str,
    presenter: EventSink,
    on_start: Callable[[asyncio.Task[Any]], None],
) -> BaseException | None:
    """Run ``prompt`` and present every event; returns the turn's failure, if any."""
    channel: RendezvousChannel[Event] = RendezvousChannel()
    task = asyncio.create_task(runtime.run_turn(prompt, channel))
    on_start(task)
    # However the turn ends, the loop below must not wait for events forever.
    task.add_done_callback(lambda _: channel.close())
    completed = False
    try:
        async for event in channel:
            try:
                await presenter.apply(event)
            except Exception:  # a display bug must not stall the agent
                log.exception("presenting %s failed", type(event).__name__)
            completed = completed or isinstance(event, TurnCompleted)
        await asyncio.wait([task])
        if task.cancelled():
            if not completed:  # cancelled before the loop could say so itself
                await presenter.apply(
                    TurnCompleted(
                        turn_id="",
                        stop_reason="cancelled",
                        final_text="",
                        iterations=0,
                        usage=runtime.usage,
                    )
                )
            return None
        return task.exception()
    finally:
        if not task.done():
            task.cancel()

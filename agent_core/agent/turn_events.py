"""Where a turn's events go: the front end's channel, through the call-view recorder."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from agent_core import events as ev
from agent_core.agent.call_views import CallViewRecorder
from agent_core.channel import RendezvousChannel

Emit = Callable[[ev.Event], Awaitable[None]]
log = logging.getLogger("mewcode.runtime")


def turn_emitter(events: RendezvousChannel[ev.Event] | None, views: CallViewRecorder) -> Emit:
    """Send each event to ``events`` (waiting for the consumer), or nowhere; ``views``
    writes down how calls and turns ended, whoever is listening."""

    async def emit(event: ev.Event) -> None:
        views.observe(event)
        if events is not None:
            await events.send(event)

    return emit


async def log_notice(event: ev.Event) -> None:
    """Where a hook's notices go when no turn is listening (/compact): the debug log."""
    if isinstance(event, ev.Notice):
        log.warning("%s", event.message)

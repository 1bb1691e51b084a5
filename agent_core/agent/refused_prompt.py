"""The turn a UserPromptSubmit hook refused: nothing is recorded or sent to the model."""

from __future__ import annotations

import contextlib

from agent_core import events as ev
from agent_core.channel import RendezvousChannel
from agent_core.errors import ChannelClosed
from agent_core.hooks.outcome import HookOutcome
from agent_core.usage import Usage


async def refused_turn(
    outcome: HookOutcome, turn_id: str, events: RendezvousChannel[ev.Event] | None
) -> ev.TurnCompleted:
    """The turn ended with the hook's reason, told to ``events`` as an error and idle."""
    if outcome.blocked:
        message = f"prompt blocked by {outcome.decided_by}: {outcome.reason}"
    else:
        message = f"prompt stopped by a hook: {outcome.stop_reason}"
    done = ev.TurnCompleted(
        turn_id=turn_id,
        stop_reason="error",
        final_text="",
        iterations=0,
        usage=Usage(),
        error=message,
    )
    if events is not None:  # not through the call-view recorder: no turn was recorded
        with contextlib.suppress(ChannelClosed):
            await events.send(ev.Error(kind="hook", message=message))
            await events.send(ev.Status(phase="idle"))
            await events.send(done)
    return done

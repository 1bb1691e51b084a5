"""``--include-partial-messages``: text deltas as the Anthropic stream events Claude Code forwards.

One assistant message is ``message_start``, a text block's ``content_block_start``,
its ``content_block_delta``s, then ``content_block_stop``, ``message_delta`` and
``message_stop`` when the message is whole (before its ``assistant`` line).
"""

from __future__ import annotations

import uuid
from typing import Any


class PartialStream:
    """The stream events of the assistant message being streamed now (pure: returns them)."""

    def __init__(self, model: str = "") -> None:
        self.model = model
        self._open = False

    def text(self, delta: str) -> list[dict[str, Any]]:
        opening = [] if self._open else self._start()
        self._open = True
        event = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": delta},
        }
        return [*opening, event]

    def end(self, stop_reason: str | None = None) -> list[dict[str, Any]]:
        """The closing events, when a message was open (else none)."""
        if not self._open:
            return []
        self._open = False
        return [
            {"type": "content_block_stop", "index": 0},
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {},
            },
            {"type": "message_stop"},
        ]

    def _start(self) -> list[dict[str, Any]]:
        return [
            {
                "type": "message_start",
                "message": {
                    "id": f"msg_{uuid.uuid4().hex[:24]}",
                    "type": "message",
                    "role": "assistant",
                    "model": self.model,
                    "content": [],
                    "stop_reason": None,
                    "usage": {},
                },
            },
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ]


def stream_event(session_id: str, event: dict[str, Any]) -> dict[str, Any]:
    """One ``stream_event`` line of the main agent."""
    return {
        "type": "stream_event",
        "uuid": str(uuid.uuid4()),
        "session_id": session_id,
        "parent_tool_use_id": None,
        "event": event,
    }

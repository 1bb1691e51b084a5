"""How a tool call stands, from its events: one pure rule for every front end.

The UI's tool lines and the session file's record of how each call looked (so a resumed
session shows it as it was seen) both follow a call through the same events; they fold
them with ``call_status`` and so cannot disagree.
"""

from __future__ import annotations

from typing import Literal

from agent_core import events as ev

CallStatus = Literal["pending", "running", "awaiting", "ok", "error", "denied", "cancelled"]
UNFINISHED: frozenset[CallStatus] = frozenset({"pending", "running", "awaiting"})
_ON_DECISION: dict[ev.Decision, CallStatus] = {
    "allow": "running",
    "deny": "denied",
    "ask": "awaiting",
}


def call_status(previous: CallStatus, event: ev.Event) -> CallStatus:
    """The status after ``event``; events about other things leave it as it was.

    A denied call stays denied when its (error) result arrives; a call still unfinished
    when its turn ends was cancelled.
    """
    match event:
        case ev.PermissionDecision(decision=decision):
            return _ON_DECISION[decision]
        case ev.ApprovalRequested():
            return "awaiting"
        case ev.ToolResult(is_error=is_error) if previous != "denied":
            return "error" if is_error else "ok"
        case ev.TurnCompleted() if previous in UNFINISHED:
            return "cancelled"
    return previous

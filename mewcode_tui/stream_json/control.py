"""What each of the app's control requests becomes (pure): an answer now, an op, or a refusal.

The front end sends the op and answers the request when the op's answer comes back
on the event stream (``OpDone``, ``ModelChanged`` or ``OpRefused`` with its id).
"""

from __future__ import annotations

from typing import Any

import msgspec

from agent_core.modes import MODES
from agent_core.protocol import ops
from agent_core.protocol.session import SessionSnapshot
from mewcode_tui.headless import MCP_STATUSES
from mewcode_tui.stream_json.lines import ControlRequest


class Answer(msgspec.Struct, frozen=True):
    body: dict[str, Any]


class Submit(msgspec.Struct, frozen=True):
    op: ops.Op


class Fail(msgspec.Struct, frozen=True):
    error: str


Plan = Answer | Submit | Fail

SUPPORTED = ("initialize", "interrupt", "set_permission_mode", "set_model", "mcp_status")


def plan_control(request: ControlRequest, snap: SessionSnapshot, *, running: bool) -> Plan:
    """What to do with ``request``, given the session as it is now."""
    body = request.body
    match request.subtype:
        case "initialize":
            return Answer(server_info(snap))
        case "interrupt":
            # Nothing running is not an error: the turn the app meant has ended already.
            return Submit(ops.Interrupt()) if running else Answer({})
        case "set_permission_mode":
            mode = body.get("mode")
            if mode not in MODES:
                return Fail(f"set_permission_mode: unknown mode {mode!r} ({', '.join(MODES)})")
            return Submit(ops.SetMode(mode=mode))
        case "set_model":
            model = body.get("model")
            if not isinstance(model, str) or not model:
                return Fail(
                    "set_model: name the model (going back to the default is not supported)"
                )
            return Submit(ops.SetModel(model=model))
        case "mcp_status":
            servers = [{"name": s.name, "status": MCP_STATUSES[s.state]} for s in snap.mcp]
            return Answer({"mcpServers": servers})
    return Fail(
        f"unsupported control request {request.subtype!r} (mewcode answers {', '.join(SUPPORTED)})"
    )


def server_info(snap: SessionSnapshot) -> dict[str, Any]:
    """The answer to ``initialize``: what ``ClaudeSDKClient.get_server_info()`` returns."""
    return {
        "commands": [],
        "output_style": "default",
        "available_output_styles": ["default"],
        "models": [{"value": snap.model, "displayName": snap.model, "description": ""}],
        "account": {},
    }

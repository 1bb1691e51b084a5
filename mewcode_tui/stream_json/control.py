"""What each of the app's control requests becomes (pure): an answer now, an op, or a refusal.

The front end sends the op and answers the request when the op's answer comes back
on the event stream (``OpDone``, ``ModelChanged`` or ``OpRefused`` with its id).
"""

from __future__ import annotations

from typing import Any

import msgspec

from agent_core.hooks.config import HOOK_EVENTS
from agent_core.hooks.remote import RemoteHook
from agent_core.modes import MODES, mode_named
from agent_core.protocol import ops
from agent_core.protocol.session import SessionSnapshot
from mewcode_tui.headless import MCP_STATUSES
from mewcode_tui.stream_json.lines import ControlRequest


class Answer(msgspec.Struct, frozen=True):
    body: dict[str, Any]


class Submit(msgspec.Struct, frozen=True):
    op: ops.Op
    body: dict[str, Any] = {}  # the answer once the op is done


class Fail(msgspec.Struct, frozen=True):
    error: str


Plan = Answer | Submit | Fail

SUPPORTED = ("initialize", "interrupt", "set_permission_mode", "set_model", "mcp_status")


def plan_control(request: ControlRequest, snap: SessionSnapshot, *, running: bool) -> Plan:
    """What to do with ``request``, given the session as it is now."""
    body = request.body
    match request.subtype:
        case "initialize":
            hooks = body.get("hooks")
            if not hooks:
                return Answer(server_info(snap))
            try:
                registered = remote_hooks(hooks)
            except ValueError as exc:
                return Fail(f"initialize: hooks: {exc}")
            return Submit(ops.RegisterHooks(hooks=registered), server_info(snap))
        case "interrupt":
            # Nothing running is not an error: the turn the app meant has ended already.
            return Submit(ops.Interrupt()) if running else Answer({})
        case "set_permission_mode":
            mode = mode_named(body.get("mode"))
            if mode is None:
                return Fail(
                    f"set_permission_mode: unknown mode {body.get('mode')!r} ({', '.join(MODES)})"
                )
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


def remote_hooks(config: Any) -> list[RemoteHook]:
    """``initialize``'s hooks (``{event: [{matcher, hookCallbackIds, timeout}]}``) as ours."""
    if not isinstance(config, dict):
        raise ValueError("expected an object of events")
    found = []
    for event, matchers in config.items():
        if event not in HOOK_EVENTS:
            raise ValueError(f"unknown hook event {event!r}")
        for entry in matchers if isinstance(matchers, list) else []:
            ids = entry.get("hookCallbackIds") if isinstance(entry, dict) else None
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise ValueError(f"{event}: each matcher needs hookCallbackIds")
            timeout = entry.get("timeout") or 60
            if not isinstance(timeout, (int, float)) or timeout <= 0:
                raise ValueError(f"{event}: timeout must be a positive number of seconds")
            matcher = entry.get("matcher") or ""
            found += [RemoteHook(event, str(matcher), i, float(timeout)) for i in ids]
    return found


def server_info(snap: SessionSnapshot) -> dict[str, Any]:
    """The answer to ``initialize``: what ``ClaudeSDKClient.get_server_info()`` returns."""
    return {
        "commands": [],
        "output_style": "default",
        "available_output_styles": ["default"],
        "models": [{"value": snap.model, "displayName": snap.model, "description": ""}],
        "account": {},
    }

"""Hooks a front end answers (an app's callbacks, registered over the protocol), run like commands.

A remote hook's answer is the JSON a command hook prints on stdout (Claude Code's
contract), so one interpreter reads both. A remote hook that fails or says nothing
in time is a warning and the call goes on, as a command hook exiting 1 does.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from agent_core.errors import MewCodeError
from agent_core.hooks.outcome import HookRun


class RemoteHook(msgspec.Struct, frozen=True):
    """One callback of a front end: the event and matcher it runs for, and its id there."""

    event: str
    matcher: str
    callback_id: str
    timeout_s: float = 60.0

    def label(self) -> str:
        return f"app hook {self.callback_id} ({self.event})"


class RemoteHookFailed(MewCodeError):
    """The front end answered a hook callback with an error."""


AskRemote = Callable[[RemoteHook, dict[str, Any]], Awaitable[dict[str, Any]]]


async def run_remote(hook: RemoteHook, data: dict[str, Any], ask: AskRemote) -> HookRun:
    """Ask the front end to run ``hook`` on ``data``; its answer as a hook run."""
    label = hook.label()
    try:
        output = await asyncio.wait_for(ask(hook, data), hook.timeout_s)
    except TimeoutError:
        return HookRun(label, None, timed_out=True, timeout_s=hook.timeout_s)
    except RemoteHookFailed as exc:
        return HookRun(label, 1, stderr=str(exc))
    return HookRun(label, 0, stdout=json.dumps(output, default=str))

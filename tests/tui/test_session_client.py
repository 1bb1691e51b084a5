"""The TUI's session client over a real SessionHost hosting the TUI tests' fake runtime."""

from __future__ import annotations

import asyncio

import pytest

from agent_core import events as ev
from agent_core.errors import ChannelClosed
from agent_core.protocol import ops
from agent_core.protocol.host import SessionHost
from agent_core.sandbox.status import SandboxStatus
from mewcode_tui.session_client import OpRefusedError, SessionClient
from tests.tui.fakes import FakeRuntime, Send, plain_answer


class Seen:
    """A deliver that records every event it was handed."""

    def __init__(self) -> None:
        self.events: list[ev.Event] = []

    async def __call__(self, event: ev.Event) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [type(e).__name__ for e in self.events]


async def started(runtime: FakeRuntime) -> tuple[SessionHost, SessionClient, Seen, asyncio.Task]:
    host = SessionHost(runtime, settle_tools=False)
    host.start()
    seen = Seen()
    client = SessionClient(host, seen)
    return host, client, seen, asyncio.create_task(client.run())


async def test_a_request_returns_its_answer_after_the_events_before_it(project) -> None:
    runtime = FakeRuntime(project)
    host, client, seen, reading = await started(runtime)
    try:
        async with asyncio.timeout(5):
            done = await client.request(ops.SetMode(mode="acceptEdits"))
        assert isinstance(done, ev.OpDone) and done.op == "set_mode"
        assert seen.kinds()[-2:] == ["ModeChanged", "OpDone"]  # delivered before it resolved
        assert client.snapshot().mode == "acceptEdits" and runtime.mode == "acceptEdits"
        assert client.session_id == "fake-session"
    finally:
        await host.close()
        await reading


async def test_a_user_turn_is_answered_by_its_turn_completed(project) -> None:
    runtime = FakeRuntime(project, scripts=[plain_answer("hi there")])
    host, client, seen, reading = await started(runtime)
    try:
        async with asyncio.timeout(5):
            done = await client.request(ops.UserTurn(text="hello"))
        assert isinstance(done, ev.TurnCompleted) and done.stop_reason == "end_turn"
        assert runtime.prompts == ["hello"]
        assert "MessageDelta" in seen.kinds()
    finally:
        await host.close()
        await reading


async def test_a_refused_op_raises_with_the_reason(project) -> None:
    runtime = FakeRuntime(project)
    runtime.sandbox = SandboxStatus("none", False)
    host, client, seen, reading = await started(runtime)
    try:
        async with asyncio.timeout(5):
            with pytest.raises(OpRefusedError, match="sandbox") as refused:
                await client.request(ops.SetMode(mode="bypassPermissions"))
            assert refused.value.op == "set_mode"
            with pytest.raises(OpRefusedError, match="no turn is running"):
                await client.request(ops.Interrupt())
        assert runtime.mode == "default"
        assert "ModeChanged" not in seen.kinds()
    finally:
        await host.close()
        await reading


async def test_send_does_not_wait_and_its_answer_is_delivered(project) -> None:
    host, client, seen, reading = await started(FakeRuntime(project))
    try:
        op_id = await client.send(ops.SetMode(mode="plan"))
        async with asyncio.timeout(5):
            while not any(isinstance(e, ev.OpDone) and e.op_id == op_id for e in seen.events):
                await asyncio.sleep(0.01)
    finally:
        await host.close()
        await reading


async def test_a_request_whose_stream_ends_raises_rather_than_hangs(project) -> None:
    release = asyncio.Event()

    async def stuck(send: Send, text: str) -> None:
        await send(ev.TurnStarted(turn_id="t", input=text))
        await release.wait()

    host, client, seen, reading = await started(FakeRuntime(project, scripts=[stuck]))
    turn = asyncio.create_task(client.request(ops.UserTurn(text="go")))
    async with asyncio.timeout(5):
        while "TurnStarted" not in seen.kinds():
            await asyncio.sleep(0.01)
        await host.close()
        await reading
        with pytest.raises(ChannelClosed):
            await turn
        with pytest.raises(ChannelClosed):  # and every later one at once
            await client.request(ops.SetMode(mode="plan"))

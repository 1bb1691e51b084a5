"""The rendezvous channel: backpressure and cancellation (docs/architecture.md#events-and-the-channel)."""

from __future__ import annotations

import asyncio

import pytest

from agent_core.channel import RendezvousChannel
from agent_core.errors import ChannelClosed


async def test_send_returns_only_after_consumer_takes_it() -> None:
    chan: RendezvousChannel[int] = RendezvousChannel()
    sent = asyncio.Event()

    async def producer() -> None:
        await chan.send(1)
        sent.set()

    task = asyncio.create_task(producer())
    await asyncio.sleep(0.05)
    assert not sent.is_set(), "send returned before anyone received"
    assert await chan.receive() == 1
    await asyncio.wait_for(sent.wait(), 1)
    await task


async def test_producer_never_more_than_one_event_ahead_of_a_stalled_consumer() -> None:
    chan: RendezvousChannel[int] = RendezvousChannel()
    produced: list[int] = []

    async def producer() -> None:
        for i in range(100):
            produced.append(i)  # "about to send i"
            await chan.send(i)

    task = asyncio.create_task(producer())
    taken = [await chan.receive() for _ in range(3)]
    await asyncio.sleep(0.05)  # consumer stops reading
    assert taken == [0, 1, 2]
    # The producer is blocked sending event 3: it has not produced event 4.
    assert produced == [0, 1, 2, 3]
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_cancelling_a_blocked_sender_does_not_hang() -> None:
    chan: RendezvousChannel[str] = RendezvousChannel()
    task = asyncio.create_task(chan.send("x"))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 1)


async def test_closing_unblocks_a_waiting_sender() -> None:
    chan: RendezvousChannel[str] = RendezvousChannel()
    task = asyncio.create_task(chan.send("x"))
    await asyncio.sleep(0.01)
    chan.close()  # the consumer went away
    with pytest.raises(ChannelClosed):
        await asyncio.wait_for(task, 1)
    with pytest.raises(ChannelClosed):
        await chan.send("y")


async def test_receive_raises_when_closed_and_iteration_ends() -> None:
    chan: RendezvousChannel[int] = RendezvousChannel()

    async def producer() -> None:
        for i in range(3):
            await chan.send(i)
        chan.close()

    task = asyncio.create_task(producer())
    got = [item async for item in chan]
    await task
    assert got == [0, 1, 2]


async def test_a_cancelled_send_withdraws_its_event() -> None:
    chan: RendezvousChannel[str] = RendezvousChannel()
    task = asyncio.create_task(chan.send("stale"))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    sender = asyncio.create_task(chan.send("fresh"))
    assert await asyncio.wait_for(chan.receive(), 1) == "fresh"
    await sender


async def test_closing_wakes_a_waiting_receiver() -> None:
    chan: RendezvousChannel[str] = RendezvousChannel()
    receiver = asyncio.create_task(chan.receive())
    await asyncio.sleep(0.01)
    chan.close()
    with pytest.raises(ChannelClosed):
        await asyncio.wait_for(receiver, 1)


async def test_concurrent_senders_take_turns_and_nothing_is_lost() -> None:
    chan: RendezvousChannel[str] = RendezvousChannel()
    senders = [asyncio.create_task(chan.send(name)) for name in ("a", "b", "c")]
    got = [await asyncio.wait_for(chan.receive(), 1) for _ in range(3)]
    await asyncio.gather(*senders)
    assert sorted(got) == ["a", "b", "c"]

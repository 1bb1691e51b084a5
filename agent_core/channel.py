"""An unbuffered (rendezvous) channel, like an unbuffered Go channel (docs/architecture.md#events-and-the-channel).

``send`` returns only once the consumer has taken the event, so the agent is
never more than one event ahead of a consumer that stopped reading. Closing
the channel, from either side, unblocks a waiting sender with
``ChannelClosed``; cancelling a waiting sender withdraws its event.

Built on a one-slot ``asyncio.Queue`` plus one acknowledgement future per
send: the hot path (one event per streamed token) creates no extra tasks.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Generic, TypeVar

from agent_core.errors import ChannelClosed

T = TypeVar("T")
_CLOSED = object()  # wakes a receiver blocked on an empty queue when the channel closes


class RendezvousChannel(Generic[T]):
    """A channel with no buffer: one consumer; concurrent senders take turns."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=1)
        self._ack: asyncio.Future[None] | None = None
        self._closed = False
        self._send_lock = asyncio.Lock()  # concurrent tools may emit at once: one at a time

    @property
    def closed(self) -> bool:
        return self._closed

    async def send(self, item: T) -> None:
        """Hand ``item`` to the consumer; wait until it has been taken."""
        async with self._send_lock:
            if self._closed:
                raise ChannelClosed("channel closed")
            ack = asyncio.get_running_loop().create_future()
            self._ack = ack
            self._queue.put_nowait(item)  # the slot is free: the previous send was taken
            try:
                await ack
            except asyncio.CancelledError:
                self._withdraw(item)
                raise
            finally:
                self._ack = None

    def _withdraw(self, item: object) -> None:
        """A cancelled send takes back its event if the consumer has not."""
        if not self._queue.empty() and self._queue._queue[0] is item:  # type: ignore[attr-defined]
            self._queue.get_nowait()
            self._queue.task_done()

    async def receive(self) -> T:
        """Take the next item; raises ``ChannelClosed`` once closed and drained."""
        if self._closed and self._queue.empty():
            raise ChannelClosed("channel closed")
        item = await self._queue.get()
        self._queue.task_done()
        if item is _CLOSED:
            raise ChannelClosed("channel closed")
        ack = self._ack
        if ack is not None and not ack.done():
            ack.set_result(None)
        return item  # type: ignore[return-value]

    def close(self) -> None:
        """Close from either side; blocked senders and receivers wake up."""
        if self._closed:
            return
        self._closed = True
        ack = self._ack
        if ack is not None and not ack.done():
            ack.set_exception(ChannelClosed("channel closed"))
        if self._queue.empty():
            self._queue.put_nowait(_CLOSED)

    async def __aiter__(self) -> AsyncIterator[T]:
        while True:
            try:
                yield await self.receive()
            except ChannelClosed:
                return

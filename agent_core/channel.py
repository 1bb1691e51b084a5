"""An unbuffered (rendezvous) channel, like an unbuffered Go channel (SPEC §2).

``send`` returns only once the consumer has taken the event *and* asked for
the next one, so the agent is never more than one event ahead of a consumer
that stopped reading. Closing the channel, from either side, unblocks a
waiting sender with ``ChannelClosed``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Generic, TypeVar

from agent_core.errors import ChannelClosed

T = TypeVar("T")


class RendezvousChannel(Generic[T]):
    """Single-producer, single-consumer channel with no buffer."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=1)
        self._closed = asyncio.Event()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def send(self, item: T) -> None:
        """Hand ``item`` to the consumer; wait until it has been taken."""
        if self._closed.is_set():
            raise ChannelClosed("channel closed")
        await self._race(self._queue.put(item))
        # put() only means the slot was free; the rendezvous is task_done().
        await self._race(self._queue.join())

    async def _race(self, awaitable) -> None:
        waiter = asyncio.ensure_future(awaitable)
        closer = asyncio.ensure_future(self._closed.wait())
        try:
            done, _ = await asyncio.wait({waiter, closer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for fut in (waiter, closer):
                if not fut.done():
                    fut.cancel()
        if waiter not in done:
            raise ChannelClosed("channel closed")

    async def receive(self) -> T:
        """Take the next item; raises ``ChannelClosed`` once closed and drained."""
        while True:
            if self._closed.is_set() and self._queue.empty():
                raise ChannelClosed("channel closed")
            getter = asyncio.ensure_future(self._queue.get())
            closer = asyncio.ensure_future(self._closed.wait())
            try:
                await asyncio.wait({getter, closer}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                closer.cancel()
            if getter.done():
                item = getter.result()
                self._queue.task_done()
                return item  # type: ignore[return-value]
            getter.cancel()

    def close(self) -> None:
        """Close from either side; blocked senders and receivers wake up."""
        self._closed.set()

    async def __aiter__(self) -> AsyncIterator[T]:
        while True:
            try:
                yield await self.receive()
            except ChannelClosed:
                return

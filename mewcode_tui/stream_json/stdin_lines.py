"""Stdin's lines as an async iterator, read by a daemon thread (a pipe, a file or a tty alike).

A thread rather than the loop's pipe reader: it works whatever stdin is, and a daemon
thread blocked on a read never holds up the process's exit.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import BinaryIO


async def stdin_lines(stream: BinaryIO) -> AsyncIterator[str]:
    """Each line of ``stream`` (decoded as UTF-8, bad bytes replaced) until end of file."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def pump() -> None:
        try:
            for raw in iter(stream.readline, b""):
                loop.call_soon_threadsafe(queue.put_nowait, raw.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass  # stdin closed under us: the same as its end
        finally:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, None)
            except RuntimeError:
                pass  # the loop is gone: no one waits for the end

    threading.Thread(target=pump, name="stream-json-stdin", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line

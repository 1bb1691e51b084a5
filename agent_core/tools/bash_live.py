"""A running command's latest output for the front end: its last lines, a few times a second.

The model gets a command's output when it ends; a person watching wants to see it
as it comes. ``LiveTail`` keeps only the last lines (a bounded string, whatever the
command prints), and ``TailStreamer`` sends them as ``tool.output`` events, at most
every ``interval_s`` and only when something new was printed (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import codecs
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agent_core import events as ev

TAIL_LINES = 40
TAIL_CHARS = 4_000
INTERVAL_S = 0.25
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


class LiveTail:
    """The last ``lines`` lines (at most ``chars`` characters) of a byte stream, and when
    they may next be sent: at most once per ``interval_s``, only after new output."""

    def __init__(
        self, lines: int = TAIL_LINES, chars: int = TAIL_CHARS, interval_s: float = INTERVAL_S
    ) -> None:
        self.lines = lines
        self.chars = chars
        self.interval_s = interval_s
        self.total_chars = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._text = ""  # never longer than twice ``chars``
        self._fed = 0  # feeds so far, and how many had been taken at the last send
        self._taken = 0
        self._sent_at: float | None = None

    def feed(self, data: bytes) -> None:
        """Take the next chunk of output."""
        self.feed_text(self._decoder.decode(data))

    def feed_text(self, text: str) -> None:
        """Take the next piece of output, already decoded."""
        if not text:
            return
        self.total_chars += len(text)
        self._text = (self._text + text)[-2 * self.chars :]
        self._fed += 1

    @property
    def fresh(self) -> bool:
        """Output came since the last ``take``."""
        return self._fed != self._taken

    def wait_s(self, now: float) -> float:
        """How long until the next update may go (0: now)."""
        if self._sent_at is None:
            return 0.0
        return max(0.0, self._sent_at + self.interval_s - now)

    def take(self, now: float) -> str:
        """The tail as shown, noting that it was sent at ``now``."""
        self._taken, self._sent_at = self._fed, now
        return self.text()

    def text(self, more: str = "") -> str:
        """The last lines (followed by ``more``, not yet fed), escape sequences removed; a
        line redrawn with ``\\r`` (a progress bar) shows its last state."""
        # A log's undecodable bytes (surrogate escapes) cannot go into an event's JSON.
        plain = (self._text + more[-2 * self.chars :]).encode("utf-8", "replace").decode("utf-8")
        plain = _ANSI.sub("", plain).replace("\r\n", "\n")
        lines = [line.rstrip("\r").rsplit("\r", 1)[-1] for line in plain.split("\n")]
        if lines and not lines[-1]:
            lines.pop()  # the newline ending the output so far
        return "\n".join(lines[-self.lines :])[-self.chars :]


Emit = Callable[[Any], Awaitable[None]]


class TailStreamer:
    """Sends a ``LiveTail`` as ``tool.output`` events for one call while it runs.

    Sending happens in a task of its own, so a slow front end slows the updates, never
    the reading of the command's output.
    """

    def __init__(
        self,
        tail: LiveTail,
        emit: Emit | None,
        call_id: str,
        *,
        shell_id: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tail = tail
        self._emit = emit
        self._call_id = call_id
        self._shell_id = shell_id
        self._clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> TailStreamer:
        if self._emit is not None and self._call_id:
            self._task = asyncio.create_task(self._run())
        return self

    def feed(self, data: bytes) -> None:
        self.tail.feed(data)
        self._wake.set()

    def stop(self) -> None:
        """Stop sending, before the call's result goes: an update not yet taken by the
        front end is withdrawn, so none comes after the result."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        assert self._emit is not None
        while True:
            await self._wake.wait()
            if (wait := self.tail.wait_s(self._clock())) > 0:
                await asyncio.sleep(wait)
            self._wake.clear()
            if not self.tail.fresh:
                continue
            text = self.tail.take(self._clock())
            try:
                await self._emit(
                    ev.ToolOutputUpdate(
                        call_id=self._call_id,
                        text=text,
                        total_chars=self.tail.total_chars,
                        shell_id=self._shell_id,
                    )
                )
            except Exception:  # no one listens any more: the command runs on regardless
                return

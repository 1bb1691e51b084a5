"""Streamed answer text: buffered, written in batches, cut into segments.

Deltas go to a buffer that is flushed into the chat at most every
``FLUSH_SECONDS`` (and before any other event), so a fast stream costs a few
Markdown appends per second instead of one per chunk. A long answer is cut
into segments at safe blank lines: the finished ones become one compact
widget each, and only the last one streams through a ``MarkdownStream``.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from mewcode_tui.transcript import (
    SEGMENT_CHARS,
    AssistantEntry,
    Transcript,
    estimated_height,
    split_segments,
)

if TYPE_CHECKING:
    from textual.timer import Timer

    from mewcode_tui.widgets.chat_log import ChatLog

FLUSH_SECONDS = 0.05


class AnswerStream:
    """Feeds assistant text deltas to the transcript and the chat log."""

    def __init__(self, transcript: Transcript, log: ChatLog) -> None:
        self.transcript = transcript
        self.log = log
        self._pending: list[str] = []
        self._timer: Timer | None = None
        self._lock = asyncio.Lock()
        self._segment_chars = 0  # size of the open segment
        self._interval = FLUSH_SECONDS

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def add(self, text: str) -> None:
        """Buffer a delta; a flush is scheduled if none is."""
        self._pending.append(text)
        if self._timer is None:
            self._timer = self.log.set_timer(self._interval, self.flush)

    async def flush(self) -> None:
        """Write everything buffered (in order) into the chat."""
        async with self._lock:
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
            if not self._pending:
                return
            text = "".join(self._pending)
            self._pending.clear()
            started = time.perf_counter()
            # One repaint for the whole batch, not one per mount along the way.
            with self.log.app.batch_update():
                await self._show(text)
            self.log.call_after_refresh(self._settled, started)

    def _settled(self, started: float) -> None:
        """The flush is on screen: space the next one by what it cost, repaint included.

        A slow flush (a fast stream, a big segment) spaces out the next ones,
        so showing text never takes more than about a fifth of the loop.
        """
        self._interval = max(FLUSH_SECONDS, 4 * (time.perf_counter() - started))

    async def _show(self, text: str) -> None:
        from mewcode_tui.widgets.assistant_view import AssistantMessageView

        self.log.note_streaming()
        entry, new = self.transcript.open_assistant()
        if new:
            self._segment_chars = 0
        near_limit = self._segment_chars + len(text) >= SEGMENT_CHARS
        head = entry.text if near_limit and not new else " " * self._segment_chars
        pieces = split_segments(head, text)
        entry.chunks.append(pieces[0])
        self._segment_chars += len(pieces[0])
        if len(pieces) > 1:
            entry.done = True  # its segment is complete
        # Segments completed in this batch become compact views (mounted together);
        # only the last piece streams live.
        added: list[AssistantEntry] = [entry] if new else []
        for index, piece in enumerate(pieces[1:], start=2):
            segment = AssistantEntry([piece], continued=True, done=index < len(pieces))
            added.append(self.transcript.add(segment))
            self._segment_chars = len(piece)
        # An entry still streaming has a live view (a finished one is remounted below).
        view = None if new else self.log.view(entry)
        live_view = view if isinstance(view, AssistantMessageView) else None
        width = self.log.answer_width
        if live_view is not None and not entry.done:
            await live_view.write(pieces[0])
        # A burst that fills the screen on its own replaces the window (the live
        # view included), so the finished segment's view is swapped only if it is
        # still in the window (its own unmount stops its stream otherwise).
        if added:
            await self.log.append_all(added)
        if live_view is not None and entry.done and self.log.view(entry) is live_view:
            # Now a compact view: nothing to stream, no final re-parse.
            await live_view.finish(reparse=False)
            await self.log.remount(entry)
        finished = [e for e in ([] if new else [entry]) + added if e.done]
        if width > 0 and finished:
            live = added[-1] if added and not added[-1].done else None
            self._measure_bottom(finished, width, live)

    def _measure_bottom(
        self, finished: list[AssistantEntry], width: int, live: AssistantEntry | None
    ) -> None:
        """Render the finished segments that will be on screen (the newest, a screenful).

        All answer views share one width, so they can be measured before their
        first layout; the rest keep their estimate until shown or idle.
        Below them, the live segment takes its (estimated) share of the screen.
        """
        from mewcode_tui.widgets.assistant_view import AssistantTextView

        rows = estimated_height(live.text, width) if live is not None else 0
        for entry in reversed(finished):
            view = self.log.view(entry)
            if not isinstance(view, AssistantTextView) or rows >= self.log.size.height:
                return  # out of the window (finished entries get a text view)
            rows += view.measure_at(width)

    def reset(self) -> None:
        """Forget the open segment's size (its message ended)."""
        self._segment_chars = 0

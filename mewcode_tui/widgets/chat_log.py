"""The chat pane: a window of mounted views over the transcript (docs/manual.md#the-full-screen-ui).

Only the most recent ``window`` entries are mounted; older ones are mounted
in batches when the user scrolls to the top, and pruned again once the user
is back at the bottom. The view follows new output only while it is at the
bottom (Textual's anchor), so scrolling up never jumps.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.containers import VerticalScroll

from mewcode_tui.transcript import (
    AssistantEntry,
    Entry,
    ToolCallRecord,
    Transcript,
    estimated_height,
)
from mewcode_tui.widgets.entry_view import view_for_entry
from mewcode_tui.widgets.tool_call_view import ToolCallLine, ToolRoundView

if TYPE_CHECKING:
    from textual.timer import Timer

    from mewcode_tui.widgets.assistant_view import AssistantTextView
    from mewcode_tui.widgets.entry_view import EntryView, EntryWidget


class ChatLog(VerticalScroll, can_focus=False):
    """The scrolling transcript, windowed so the widget count stays bounded."""

    def __init__(
        self, transcript: Transcript, *, window: int = 30, batch: int = 15, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.transcript = transcript
        self.window = window
        self.load_batch = batch  # not ``batch``: that is Widget's batch() context manager
        self.first_mounted = len(transcript.entries)
        self._views: dict[int, EntryWidget] = {}  # by id() of the entry
        self._loading = False
        self._measurer: Timer | None = None  # timer measuring estimated views while the app is idle
        self._last_tick = 0.0
        self._streamed_at = 0.0

    def compose(self):
        entries = self.transcript.entries
        self.first_mounted = max(0, len(entries) - self.window)
        for entry in entries[self.first_mounted :]:
            yield self._make(entry)

    def on_mount(self) -> None:
        self.anchor()

    @property
    def mounted_count(self) -> int:
        return len(self.transcript.entries) - self.first_mounted

    @property
    def at_bottom(self) -> bool:
        return self.scroll_y >= self.max_scroll_y - 1

    @property
    def following(self) -> bool:
        """True while the view sticks to the bottom (not scrolled away by the user)."""
        # Textual keeps ``is_anchored`` set while the user scrolls away; it has no
        # public flag for the released anchor.
        return self.at_bottom or (self.is_anchored and not self._anchor_released)

    ANSWER_PADDING = 2  # answer views' "padding: 0 1" (screens/main.tcss)

    @property
    def answer_width(self) -> int:
        """The content width every answer view has: the pane's, less their padding."""
        return self.scrollable_content_region.width - self.ANSWER_PADDING

    def view(self, entry: Entry) -> EntryView | None:
        """The mounted widget for ``entry``, if it is in the window."""
        return self._views.get(id(entry))

    async def reload(self) -> None:
        """Remount the most recent ``window`` entries (after /clear or resume)."""
        await self.remove_children()
        self._views.clear()
        entries = self.transcript.entries
        self.first_mounted = max(0, len(entries) - self.window)
        views = [self._make(entry) for entry in entries[self.first_mounted :]]
        if views:
            await self.mount_all(views)
        self.anchor()

    def _make(self, entry: Entry) -> EntryWidget:
        widget = view_for_entry(entry)
        self._views[id(entry)] = widget
        return widget

    async def append(self, entry: Entry) -> None:
        """Mount the view of an entry just added to the transcript, in its place.

        The append may have waited in a worker (a notice): meanwhile a burst or a
        reload may have mounted the entry already, or left it above the window, and
        later entries may be mounted below it. It is shown once, in transcript order.
        """
        if id(entry) in self._views or not self.is_attached:  # not attached: the app is closing
            return
        entries = self.transcript.entries
        index = next((i for i in range(len(entries) - 1, -1, -1) if entries[i] is entry), None)
        if index is None or index < self.first_mounted:
            return  # gone (/clear), or above the window: mounted when scrolled back to
        later = (self._views.get(id(e)) for e in entries[index + 1 :])
        below = next((view for view in later if view is not None), None)
        widget = self._make(entry)
        await self.mount(widget, before=below) if below is not None else await self.mount(widget)
        if self.following:
            self._prune()

    async def append_all(self, entries: Sequence[Entry]) -> bool:
        """Mount the views of several entries just added, in one go.

        While the view follows the bottom, a burst that alone fills more than
        two screens replaces the window with its tail: what scrolled past is
        mounted again only if the user scrolls up to it. True when it did.
        """
        if not self.is_attached:  # the app is closing
            return False
        following = self.following
        tail = self._tail_filling(entries, 2 * self.size.height) if following else len(entries)
        if tail < len(entries):
            # The window restarts at the tail's first entry and runs to the end of
            # the transcript (anything added meanwhile included), so it stays contiguous.
            everything = self.transcript.entries
            start = entries[-tail]
            first = next(i for i in range(len(everything) - 1, -1, -1) if everything[i] is start)
            doomed = list(self.children)
            self._views.clear()
            self.first_mounted = first
            await self.mount_all([self._make(entry) for entry in everything[first:]])
            await self.remove_children(doomed)
            return True
        await self.mount_all([self._make(entry) for entry in entries])
        if following:
            self._prune()
        return False

    def _tail_filling(self, entries: Sequence[Entry], rows: int) -> int:
        """How many of the last ``entries`` it takes to fill ``rows`` (estimated)."""
        width = max(1, self.answer_width)
        filled = 0
        for count, entry in enumerate(reversed(entries), start=1):
            text = entry.text if isinstance(entry, AssistantEntry) else ""
            filled += estimated_height(text, width)
            if filled > rows:
                return count
        return len(entries)

    async def remount(self, entry: Entry) -> None:
        """Replace an entry's view with a fresh one (e.g. a finished answer, compacted)."""
        old = self._views.get(id(entry))
        if old is None:
            return
        new = self._make(entry)
        await self.mount(new, before=old)
        await old.remove()

    async def forget(self, entries: Sequence[Entry]) -> None:
        """Take ``entries`` out of the transcript and their views off the screen (an
        answer whose stream broke and starts again)."""
        doomed = {id(entry) for entry in entries}
        if not doomed:
            return
        views = [view for key in doomed if (view := self._views.pop(key, None)) is not None]
        entries = self.transcript.entries
        above = sum(id(e) in doomed for e in entries[: self.first_mounted])
        entries[:] = [e for e in entries if id(e) not in doomed]
        self.first_mounted -= above
        if views and self.is_attached:
            await self.remove_children(views)

    def _prune(self) -> None:
        """Unmount the oldest views beyond the window (only while following the bottom)."""
        excess = self.mounted_count - self.window
        # Following, not merely at the bottom: right after a reload the layout may not
        # have scrolled there yet, and a notice appended then must still prune.
        if excess <= 0 or not self.following:
            return
        entries = self.transcript.entries
        doomed = []
        for entry in entries[self.first_mounted : self.first_mounted + excess]:
            widget = self._views.pop(id(entry), None)
            if widget is not None:
                doomed.append(widget)
        self.first_mounted += excess
        if doomed:
            self.remove_children(doomed)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= 0 and old_value > 0 and self.first_mounted > 0:
            self.call_later(self.load_older)

    async def load_older(self) -> int:
        """Mount up to ``batch`` older entries above the window; returns how many."""
        if self._loading or self.first_mounted == 0:
            return 0
        self._loading = True
        try:
            start = max(0, self.first_mounted - self.load_batch)
            older = self.transcript.entries[start : self.first_mounted]
            anchor_widget = self.children[0] if self.children else None
            views = [self._make(entry) for entry in older]
            self.first_mounted = start
            if anchor_widget is not None:
                await self.mount_all(views, before=anchor_widget)
                self.call_after_refresh(
                    self.scroll_to_widget, anchor_widget, animate=False, top=True
                )
            else:
                await self.mount_all(views)
            return len(views)
        finally:
            self._loading = False

    # --- views laid out from an estimate (assistant text not rendered yet) ---

    MEASURE_TICK = 0.05
    MEASURE_BUDGET = 0.008  # seconds of rendering per tick, so keys stay responsive

    QUIET_AFTER_STREAM = 0.25

    def note_streaming(self) -> None:
        """Streamed text arrived: measuring waits until the stream pauses."""
        self._streamed_at = time.perf_counter()

    def on_assistant_text_view_estimated(self, message: AssistantTextView.Estimated) -> None:
        """A view was laid out from an estimate: measure it when the app is idle."""
        message.stop()
        if self._measurer is None and self.is_attached:
            self._last_tick = time.perf_counter()
            self._measurer = self.set_interval(self.MEASURE_TICK, self._measure_idle)

    def _measure_idle(self) -> None:
        from mewcode_tui.widgets.assistant_view import AssistantTextView

        now = time.perf_counter()
        late = now - self._last_tick - self.MEASURE_TICK
        self._last_tick = now
        if late > 0.02 or now - self._streamed_at < self.QUIET_AFTER_STREAM:
            return  # the loop is busy (a stream, a key burst): try next tick
        waiting = [
            child
            for child in reversed(self.children)  # nearest the bottom first
            if isinstance(child, AssistantTextView) and not child.measured
        ]
        if not waiting:
            if self._measurer is not None:
                self._measurer.stop()
                self._measurer = None
            return
        deadline = now + self.MEASURE_BUDGET
        for view in waiting:
            change = view.measure()
            if change:
                self.view_resized(view, change)
            if time.perf_counter() > deadline:
                break
        self._last_tick = time.perf_counter()

    def on_assistant_text_view_resized(self, message: AssistantTextView.Resized) -> None:
        message.stop()
        self.view_resized(message.view, message.change)

    def view_resized(self, view: AssistantTextView, change: int) -> None:
        """A view above the reading position changed height: keep the text in place."""
        if self.is_anchored and self.at_bottom:
            return  # following the bottom: Textual's anchor keeps it there
        if view.virtual_region.y < self.scroll_y:
            self.call_after_refresh(self._shift, change)

    def _shift(self, change: int) -> None:
        self.scroll_to(y=self.scroll_y + change, animate=False, immediate=True)

    # --- the tool tree ---------------------------------------------------

    def tool_lines(self) -> list[ToolCallLine]:
        """The mounted tool-call lines, top to bottom."""
        return [
            line
            for child in self.children
            if isinstance(child, ToolRoundView)
            for line in child.lines.values()
        ]

    def line_for(self, call_id: str) -> ToolCallLine | None:
        """The line of a tool call, found by its id; None when its round is not mounted."""
        round_ = self.transcript.rounds.get(call_id)
        view = self._views.get(id(round_)) if round_ is not None else None
        return view.lines.get(call_id) if isinstance(view, ToolRoundView) else None

    async def focus_last_call(self) -> bool:
        """Focus the most recent tool call, mounting older entries until one is; False if none."""
        while not (lines := self.tool_lines()):
            if not self.transcript.calls or not await self.load_older():
                return False
        lines[-1].focus()
        lines[-1].scroll_visible(animate=False)
        return True

    async def on_tool_call_line_move(self, event: ToolCallLine.Move) -> None:
        event.stop()
        lines = self.tool_lines()
        index = lines.index(event.line) + event.delta
        if index < 0 and self.first_mounted > 0:
            await self.load_older()
            lines = self.tool_lines()
            index = lines.index(event.line) + event.delta
        if 0 <= index < len(lines):
            target = lines[index]
            target.focus()
            target.scroll_visible(animate=False)

    def set_all_expanded(self, expanded: bool) -> None:
        """Expand or collapse every call, mounted or not."""
        for record in self.transcript.all_calls():
            record.expanded = expanded
        for line in self.tool_lines():
            line.sync_expanded()

    def toggle_all(self) -> None:
        calls: list[ToolCallRecord] = self.transcript.all_calls()
        self.set_all_expanded(not all(record.expanded for record in calls))

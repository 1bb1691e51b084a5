"""Assistant text: Markdown that streams in through one ``MarkdownStream``.

Imported lazily (Markdown brings markdown-it and pygments), so the first
frame does not wait for it.
"""

from __future__ import annotations

from textual.widgets import Markdown

from mewcode_tui.transcript import AssistantEntry


class AssistantMessageView(Markdown):
    """Assistant Markdown; new text streams in through one ``MarkdownStream``."""

    def __init__(self, entry: AssistantEntry) -> None:
        super().__init__(entry.text)
        self.entry = entry
        self._stream = None

    async def write(self, fragment: str) -> None:
        """Append a streamed fragment (never re-renders the whole text)."""
        if self._stream is None:
            self._stream = Markdown.get_stream(self)
        await self._stream.write(fragment)

    async def finish(self) -> None:
        """Flush pending fragments and stop the stream."""
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()

    async def on_unmount(self) -> None:
        await self.finish()

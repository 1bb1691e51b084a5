"""Assistant text: Markdown that streams in through one ``MarkdownStream``.

Imported lazily (Markdown brings markdown-it and pygments), so the first
frame does not wait for it.
"""

from __future__ import annotations

from rich.console import RenderResult
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget
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

    async def finish(self, *, reparse: bool = True) -> None:
        """Flush pending fragments, stop the stream and settle the final layout.

        Incremental parsing can leave a block mis-typed (a table whose header
        arrived before its separator line stays a paragraph), so the finished
        text is parsed once, whole.
        """
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()
            if reparse and self.is_attached:
                await self.update(self.entry.text)

    async def on_unmount(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()


class AssistantTextView(Widget):
    """A finished assistant message as one widget (Rich Markdown).

    Used for finished segments and re-mounted history, so a window of old
    answers costs one widget each instead of one per Markdown block. The
    Markdown is rendered once per width and kept as plain styled lines, which
    makes layout passes cheap.
    """

    DEFAULT_CSS = """
    AssistantTextView {
        height: auto;
    }
    """

    def __init__(self, entry: AssistantEntry) -> None:
        super().__init__()
        self.entry = entry
        self._lines: dict[tuple[int, bool], Text] = {}

    def _text_for(self, width: int) -> Text:
        dark = self.app.current_theme.dark if self.app.current_theme else True
        key = (width, dark)
        text = self._lines.get(key)
        if text is None:
            from rich.markdown import Markdown as RichMarkdown
            from rich.segment import Segment

            markdown = RichMarkdown(
                self.entry.text, code_theme="monokai" if dark else "default", hyperlinks=False
            )
            console = self.app.console
            lines = console.render_lines(markdown, console.options.update_width(width))
            text = Text(no_wrap=True, end="")
            for number, line in enumerate(lines):
                if number:
                    text.append("\n")
                for segment in Segment.simplify(line):
                    text.append(segment.text, segment.style)
            self._lines = {key: text}  # only the current width is worth keeping
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._text_for(max(1, width)).plain.count("\n") + 1

    def render(self) -> RenderResult:
        return self._text_for(max(1, self.content_region.width))

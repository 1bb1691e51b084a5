"""Assistant text: Markdown that streams in through one ``MarkdownStream``.

Imported lazily (Markdown brings markdown-it and pygments), so the first
frame does not wait for it. The model may repeat what a file or a tool said, escape
sequences included: its text is shown through ``visible_text``.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownFence, MarkdownStream

from agent_core.terminal_text import visible_text
from mewcode_tui.transcript import AssistantEntry, estimated_height


class AnswerFence(MarkdownFence):
    """A code block; one without a language is shown plain, never guessed.

    Textual guesses a missing language with Pygments' ``guess_lexer``, which
    tries every lexer (tens of milliseconds, and imports on first use). A
    stream often shows an opening fence before its language arrives, so that
    guess would stall the UI once per code block; Rich does not guess either.

    Long lines wrap, as in Claude Code and in the finished view (Rich wraps
    code): Textual's fence scrolls them sideways with no scrollbar, so at 80
    columns their ends were simply out of sight.
    """

    DEFAULT_CSS = """
    AnswerFence {
        overflow: hidden hidden;
        & > Label {
            width: 1fr;
        }
    }
    """

    @property
    def allow_horizontal_scroll(self) -> bool:
        return False  # wrapped: there is nothing to the side

    @classmethod
    def highlight(cls, code: str, language: str, ansi: bool = False, dark: bool = False):
        return super().highlight(code, language or "text", ansi=ansi, dark=dark)


class AssistantMessageView(Markdown):
    """Assistant Markdown; new text streams in through one ``MarkdownStream``."""

    BLOCKS = {**Markdown.BLOCKS, "fence": AnswerFence, "code_block": AnswerFence}

    def __init__(self, entry: AssistantEntry, *, classes: str | None = None) -> None:
        super().__init__(visible_text(entry.text, multiline=True), classes=classes)
        self.entry = entry
        self._stream: MarkdownStream | None = None

    async def write(self, fragment: str) -> None:
        """Append a streamed fragment (never re-renders the whole text)."""
        if self._stream is None:
            self._stream = Markdown.get_stream(self)
        await self._stream.write(visible_text(fragment, multiline=True))

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
                await self.update(visible_text(self.entry.text, multiline=True))

    async def entry_changed(self) -> None:
        """Settle the view once its entry is done (new text comes through ``write``)."""
        if self.entry.done:
            await self.finish()

    async def on_unmount(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()


class AssistantTextView(Widget):
    """A finished assistant message as one widget (Rich Markdown).

    Used for finished segments and re-mounted history, so a window of old
    answers costs one widget each instead of one per Markdown block. The
    Markdown is rendered once per width into strips served line by line (the
    Line API), which keeps layout and repaints cheap. Rendering waits until
    the view is shown or ``measure()`` is called (the chat log measures views
    when the app is idle): until then layout uses an estimate, so a fast
    stream never pays for Markdown nobody is looking at.
    """

    DEFAULT_CSS = """
    AssistantTextView {
        height: auto;
    }
    """

    class Estimated(Message):
        """The view was laid out from an estimate: the chat log measures it when idle."""

    class Resized(Message):
        """The view was rendered at last and its height changed by ``change`` rows."""

        def __init__(self, view: AssistantTextView, change: int) -> None:
            super().__init__()
            self.view = view
            self.change = change

        @property
        def control(self) -> AssistantTextView:
            return self.view

    def __init__(self, entry: AssistantEntry, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.entry = entry
        self._key: tuple[int, bool] | None = None
        self._lines: list[Strip] = []
        self._estimate_reported = False  # one Estimated message per estimate, not per layout

    async def entry_changed(self) -> None:
        """Render the entry again (at the next paint)."""
        self._key = None
        self.refresh(layout=True)

    def _theme_key(self, width: int) -> tuple[int, bool]:
        theme = self.app.current_theme
        return (width, theme.dark if theme is not None else True)

    def _content_width(self) -> int:
        # ``size`` is the content area from the last layout; ``content_region``
        # would ask the compositor's full map.
        return self.size.width

    @property
    def measured(self) -> bool:
        """True when the text is rendered for the current width and theme."""
        width = self._content_width()
        return width > 0 and self._key == self._theme_key(width)

    def _lines_for(self, width: int) -> list[Strip]:
        key = self._theme_key(width)
        if self._key != key:
            from rich.markdown import Markdown as RichMarkdown

            markdown = RichMarkdown(
                visible_text(self.entry.text, multiline=True),
                code_theme="monokai" if key[1] else "default",
                hyperlinks=False,
            )
            console = self.app.console
            rendered = console.render_lines(markdown, console.options.update_width(width))
            # Only the current width is worth keeping.
            self._key, self._lines = key, [Strip(line, width) for line in rendered]
            self._estimate_reported = False
        return self._lines

    def measure(self) -> int:
        """Render now; returns how many rows the height changed by (0 when unchanged)."""
        width = self._content_width()
        if width <= 0 or self.measured:
            return 0
        before = self.size.height
        rows = len(self._lines_for(width))
        if rows != before:
            self.refresh(layout=True)
        return rows - before

    def measure_at(self, width: int) -> int:
        """Render now for ``width`` (before the first layout); returns the rows it takes.

        For a view that will be on screen as soon as it is laid out: measured
        up front, its first layout is final instead of an estimate corrected
        by one more layout (and repaint) per view.
        """
        return len(self._lines_for(width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        width = max(1, width)
        if self._key == self._theme_key(width):
            return len(self._lines)
        if not self._estimate_reported:
            self._estimate_reported = True
            self.post_message(self.Estimated())
        return estimated_height(self.entry.text, width)

    def render_line(self, y: int) -> Strip:
        width = max(1, self._content_width())
        if self._key != self._theme_key(width):
            change = self.measure()
            if change:  # the chat log keeps what the user is reading in place
                self.post_message(self.Resized(self, change))
        lines = self._lines_for(width)
        style = self.rich_style
        if y >= len(lines):
            return Strip.blank(width, style)
        line = lines[y].apply_style(style)
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(y)) is not None:
            line = _highlight(line, span, self.screen.get_component_rich_style("screen--selection"))
        return line.apply_offsets(0, y)

    def plain_text(self) -> str:
        """What the view shows, as text (empty until it is rendered)."""
        return "\n".join(line.text.rstrip() for line in self._lines)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract(self.plain_text()), "\n"


def _highlight(line: Strip, span: tuple[int, int], style: Style) -> Strip:
    """``line`` with the characters ``span`` (end -1: to the end) in ``style``."""
    start, end = span
    text = line.text
    if end == -1:
        end = len(text)
    left, right = cell_len(text[:start]), cell_len(text[:end])
    before, selected, after = line.divide([left, right, line.cell_length])
    # Over the text's own colours (apply_style would put it underneath them).
    marked = Strip(Segment.apply_style(selected, post_style=style), selected.cell_length)
    return Strip.join([before, marked, after])

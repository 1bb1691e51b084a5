"""Tool calls: one line per call, grouped by round, expandable to input/output/diff.

A collapsed call is a single ``Static`` (widget count is what makes Textual
slow); expanding mounts one detail widget right after the line. Inputs, outputs
and reasons (a file listing, a command's output, a hook's block reason) are shown
through ``visible_text``: an escape sequence in them is seen, never run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from agent_core.protocol.views import parse_mcp_name
from agent_core.terminal_text import visible_text
from mewcode_tui.theme_styles import semantic_style
from mewcode_tui.transcript import CallStatus, ToolCallRecord, ToolRoundEntry, human_size

if TYPE_CHECKING:
    from textual.app import App

# Per status: the icon, its theme colour (mewcode_tui/theme_styles.py), and the
# attributes set here. The status word takes the same style.
STATUS_ICONS: dict[CallStatus, tuple[str, str, Style]] = {
    "pending": ("○", "tool-pending", Style(dim=True)),
    "running": ("◐", "tool-running", Style()),
    "awaiting": ("?", "tool-awaiting", Style(bold=True)),
    "ok": ("✓", "tool-ok", Style()),
    "error": ("✗", "tool-error", Style()),
    "denied": ("⊘", "tool-denied", Style()),
    "cancelled": ("■", "tool-cancelled", Style(dim=True)),
}
STATUS_WORDS = {
    "pending": "",
    "running": "running",
    "awaiting": "awaiting approval",
    "ok": "",
    "error": "error",
    "denied": "denied",
    "cancelled": "cancelled",
}


def format_duration(ms: int | None) -> str:
    if ms is None:
        return ""
    if ms < 1000:
        return f"{ms}ms"
    return f"{ms / 1000:.1f}s"


def call_line(record: ToolCallRecord, app: App[object]) -> Text:
    """The one-line rendering: marker, status icon, tool, argument, status, duration."""
    icon, color, attributes = STATUS_ICONS[record.status]
    style = semantic_style(app, color) + attributes
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("▾ " if record.expanded else "▸ ", style="dim")
    text.append(icon + " ", style=style)
    summary = visible_text(record.summary.splitlines()[0]) if record.summary else ""
    mcp = parse_mcp_name(record.tool)
    if mcp is None:
        text.append(visible_text(record.tool), style="bold")
    else:  # mcp__github__create_issue reads as github › create_issue; opened, the full name
        shown = f"{mcp.server} › {mcp.tool}"
        text.append(mcp.server + " › ", style="dim")
        text.append(visible_text(mcp.tool), style="bold")
        summary = summary.removeprefix(shown).lstrip()  # a summary that names them already
    if summary:
        text.append(" " + summary, style="")
    # A call's own account of itself (Bash's description) follows what it runs, dimmed.
    description = record.input.get("description")
    if isinstance(description, str) and description.strip():
        text.append(" · " + visible_text(description.strip().splitlines()[0]), style="dim")
    extras = []
    if record.diff is not None:
        extras.append(
            Text.assemble(
                ("+" + str(record.added), semantic_style(app, "diff-added")),
                " ",
                ("-" + str(record.removed), semantic_style(app, "diff-removed")),
            )
        )
    word = STATUS_WORDS[record.status]
    if word:
        extras.append(
            Text(
                word
                + (
                    f": {visible_text(record.reason)}"
                    if record.reason and record.status == "denied"
                    else ""
                ),
                style=style,
            )
        )
    if record.duration_ms is not None:
        extras.append(Text(format_duration(record.duration_ms), style="dim"))
    for extra in extras:
        text.append("  ")
        text.append_text(extra)
    return text


class ToolCallLine(Static, can_focus=True):
    """One tool call, collapsed to a single line; focusable for the keyboard tree."""

    BINDINGS = [
        Binding("up", "move(-1)", "Previous call", show=False, id="mewcode.call.previous"),
        Binding("down", "move(1)", "Next call", show=False, id="mewcode.call.next"),
        Binding("right,enter", "set_expanded(True)", "Expand", id="mewcode.call.expand"),
        Binding("left", "set_expanded(False)", "Collapse", id="mewcode.call.collapse"),
        Binding("d", "open_diff", "Full diff", id="mewcode.call.diff"),
        Binding("escape", "leave", "Back to input", id="mewcode.call.leave"),
    ]

    class Move(Message):
        """Ask the chat log to focus the previous/next call."""

        def __init__(self, line: ToolCallLine, delta: int) -> None:
            super().__init__()
            self.line = line
            self.delta = delta

    class DiffRequested(Message):
        def __init__(self, record: ToolCallRecord) -> None:
            super().__init__()
            self.record = record

    class Leave(Message):
        """The user pressed Esc in the tool tree."""

    def __init__(self, record: ToolCallRecord) -> None:
        super().__init__(markup=False)
        self.record = record

    def render(self) -> Text:
        # Built at each paint, so the line takes the colours of the theme in use.
        return call_line(self.record, self.app)

    def refresh_line(self) -> None:
        """Show the record's current state."""
        self.refresh(layout=True)
        if self.has_focus:  # the footer shows the focused call's keys (a recompose each time)
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_diff":
            return self.record.diff is not None
        if action == "set_expanded":
            return parameters[0] != self.record.expanded
        return True

    def action_move(self, delta: int) -> None:
        self.post_message(self.Move(self, delta))

    def action_set_expanded(self, expanded: bool) -> None:
        if self.record.expanded != expanded:
            self.record.expanded = expanded
            self.sync_expanded()

    def sync_expanded(self) -> None:
        """Mount or remove the detail view to match ``record.expanded``."""
        self.refresh_line()
        detail = self.detail
        if self.record.expanded and detail is None and isinstance(self.parent, Widget):
            self.parent.mount(ToolCallDetail(self.record), after=self)
        elif not self.record.expanded and detail is not None:
            detail.remove()
        elif detail is not None:
            detail.refresh_detail()

    @property
    def detail(self) -> ToolCallDetail | None:
        if self.parent is None:
            return None
        siblings = list(self.parent.children)
        index = siblings.index(self)
        following = siblings[index + 1] if index + 1 < len(siblings) else None
        return following if isinstance(following, ToolCallDetail) else None

    def action_open_diff(self) -> None:
        if self.record.diff is not None:
            self.post_message(self.DiffRequested(self.record))

    def action_leave(self) -> None:
        self.post_message(self.Leave())

    def on_click(self) -> None:
        self.focus()
        self.action_set_expanded(not self.record.expanded)


class ToolCallDetail(Vertical):
    """Input, a bounded output preview and the diff of one call."""

    def __init__(self, record: ToolCallRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        yield Static(self._body(), markup=False, classes="tool-detail--body")
        if self.record.diff is not None:
            yield self._diff_panel()

    def _diff_panel(self) -> Widget:
        from mewcode_tui.widgets.diff_panel import DiffPanel

        return DiffPanel(self.record.diff or "", self.record.diff_path, max_lines=200)

    def _body(self) -> Text:
        record = self.record
        text = Text()
        if parse_mcp_name(record.tool):  # the line shows server › tool; rules name this
            text.append("tool ", style="bold dim")
            text.append(visible_text(record.tool) + "\n")
        text.append("input\n", style="bold dim")
        text.append(visible_text(record.input_preview(), multiline=True) + "\n")
        if record.status in ("ok", "error") or record.output:
            text.append("output", style="bold dim")
            if record.output_truncated:
                text.append(
                    f"  (first {human_size(len(record.output))} of {human_size(record.output_size)})",
                    style="dim",
                )
            text.append("\n")
            error = record.status == "error"
            style = semantic_style(self.app, "tool-error") if error else Style()
            shown = visible_text(record.output, multiline=True)
            text.append(shown or "(empty)", style=style)
        elif record.tail and not record.tail_shell:
            self._tail(text, "output so far")
        if record.tail_shell:
            self._tail(text, f"{record.tail_shell}: latest output")
        return text

    def _tail(self, text: Text, title: str) -> None:
        """The last lines a command printed (the front end is sent no more than these)."""
        record = self.record
        if not text.plain.endswith("\n"):
            text.append("\n")
        text.append(title, style="bold dim")
        text.append(f"  (its last lines; {human_size(record.tail_chars)} in all)", style="dim")
        text.append("\n")
        text.append(visible_text(record.tail, multiline=True))

    def refresh_detail(self) -> None:
        self.query_one(".tool-detail--body", Static).update(self._body())
        if self.record.diff is not None and not self.query("DiffPanel"):
            self.mount(self._diff_panel())


class ToolRoundView(Vertical):
    """The calls of one model round, grouped under a thin rule."""

    def __init__(self, entry: ToolRoundEntry) -> None:
        # A round mounted again (resume, scrolling back) keeps its rule.
        super().__init__(classes="-multi" if len(entry.calls) > 1 else None)
        self.entry = entry
        # Made up front, so a call's line can be found by id before the round is composed.
        self.lines: dict[str, ToolCallLine] = {}
        self._shown = 0  # calls of the entry that have a line
        self._first_lines = self._make_lines()

    def _make_lines(self) -> list[ToolCallLine]:
        made = [ToolCallLine(record) for record in self.entry.calls[self._shown :]]
        self.lines.update((line.record.call_id, line) for line in made)
        self._shown = len(self.entry.calls)
        return made

    def compose(self) -> ComposeResult:
        for line in self._first_lines:
            yield line
            if line.record.expanded:
                yield ToolCallDetail(line.record)

    async def entry_changed(self) -> None:
        """Calls joined the round: mount their lines."""
        for line in self._make_lines():
            self.mount(line)
        self.set_class(self._shown > 1, "-multi")

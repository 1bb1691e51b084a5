"""The session picker for ``/resume`` and ``mewcode --resume`` (docs/manual.md#sessions-and-context).

Lists this project's saved sessions, newest first, as the session listed them
(``ListSessions``; before a session opens, the composition root reads them): first
prompt, how long ago, size and message count. Dismisses with the chosen id, or None.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.events import SessionSummary
from agent_core.terminal_text import visible_text
from mewcode_tui.transcript import human_size

PROMPT_CHARS = 120


def relative_time(then: float, now: float) -> str:
    """How long ago ``then`` was, in words: 'just now', '5 min ago', '3 days ago'."""
    seconds = now - then
    if seconds < 60:
        return "just now"  # also clock skew: a file "from the future"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min ago"
    hours = minutes // 60
    if hours < 24:
        return f"{hours} h ago"
    days = hours // 24
    if days == 1:
        return "yesterday"
    if days < 30:
        return f"{days} days ago"
    return time.strftime("%Y-%m-%d", time.localtime(then))


def one_line(text: str, width: int = PROMPT_CHARS) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis; a control
    character in it (a pasted escape sequence) is shown escaped."""
    flat = visible_text(" ".join(text.split()))
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def session_row(info: SessionSummary, now: float, *, current: bool) -> Table:
    """One picker line: marker, first prompt, age, size, messages."""
    row = Table.grid(expand=True, padding=(0, 1))
    row.add_column(width=1, no_wrap=True)
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_column(justify="right", no_wrap=True)
    row.add_column(justify="right", no_wrap=True, width=8)
    row.add_column(justify="right", no_wrap=True, width=12)
    prompt = Text(one_line(info.first_prompt)) if info.first_prompt else Text("(no prompt)", "dim")
    if current:
        prompt.append("  (this session)", style="bold")
    count = info.message_count
    row.add_row(
        Text("●" if current else " ", style="bold"),
        prompt,
        Text(relative_time(info.modified, now), style="dim"),
        Text(human_size(info.size_bytes), style="dim"),
        Text(f"{count} message{'' if count == 1 else 's'}", style="dim"),
    )
    return row


class SessionList(OptionList):
    """The picker's list; Enter is named in the footer."""

    # Not a screen binding: the list must see ↑/↓ typed just before Enter first.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Open", id="mewcode.resume.open")
    ]


class ResumeScreen(ModalScreen[str | None]):
    """Pick a saved session; dismisses with its id, or None on Esc."""

    CSS_PATH = "resume.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="mewcode.resume.cancel"),
    ]

    def __init__(
        self,
        sessions: Sequence[SessionSummary],
        *,
        current: str | None = None,
        now: float | None = None,
    ) -> None:
        super().__init__()
        self.sessions = list(sessions)
        self.current = current
        self.now = time.time() if now is None else now

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "Resume a session"
            yield Static(
                f"{len(self.sessions)} saved in this project, newest first. "
                "↑/↓ to choose, Enter to open, Esc to cancel.",
                id="hint",
            )
            yield SessionList(
                *(
                    Option(
                        session_row(s, self.now, current=s.session_id == self.current),
                        s.session_id,
                        # The one you are in is shown for orientation, not offered.
                        disabled=s.session_id == self.current,
                    )
                    for s in self.sessions
                ),
                id="sessions",
            )
        yield Footer()

    def on_mount(self) -> None:
        sessions = self.query_one(SessionList)
        sessions.focus()
        # Start on the newest session you are not already in.
        others = [i for i, s in enumerate(self.sessions) if s.session_id != self.current]
        if others:
            sessions.highlighted = others[0]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id != self.current:
            self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Close without switching."""
        self.dismiss(None)

"""The /bashes view: the session's background shells, the highlighted one's output as it comes.

One row per shell (id, state, command); below the list, the highlighted shell's last
lines, asked of the session again twice a second while the view is open, as an open
Bash call shows a running command's. ``k`` stops the highlighted shell, Esc closes.
Commands and output come from the shell: shown through ``visible_text``.
"""

from __future__ import annotations

import logging
from typing import ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.errors import MewCodeError
from agent_core.events import ShellInfo, ShellList
from agent_core.terminal_text import visible_text
from mewcode_tui.keymap import key_hint

log = logging.getLogger("mewcode.tui")

REFRESH_S = 0.5
COMMAND_CHARS = 200


class ShellSource(Protocol):
    """What the view needs of the session (commands/shells.py: two ops)."""

    async def shells(self) -> ShellList: ...

    async def stop(self, shell_id: str) -> ShellList:
        """Kill the shell; MewCodeError when the session refuses."""
        ...


def shell_row(shell: ShellInfo) -> Text:
    command = " ".join(visible_text(shell.command).split())[:COMMAND_CHARS]
    row = Text(f"{'◐' if shell.running else '■'} {shell.shell_id}  ", style="bold")
    row.append(f"{shell.status}  ", style="" if shell.running else "dim")
    row.append(command)
    row.no_wrap, row.overflow = True, "ellipsis"
    return row


def output_text(shell: ShellInfo) -> str:
    shown = visible_text(shell.output, multiline=True)
    if not shown:
        return "(no output yet)" if shell.running else "(no output)"
    if shell.total_chars > len(shell.output):
        shown = f"… the last lines of {shell.total_chars:,} characters\n{shown}"
    return shown


class ShellOptions(OptionList):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "screen.stop", "Stop shell", id="mewcode.shells.stop"),
    ]


class ShellsScreen(ModalScreen[None]):
    """Watch the background shells; stop one."""

    CSS_PATH = "shells.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="mewcode.shells.close"),
    ]

    def __init__(self, source: ShellSource, listing: ShellList) -> None:
        super().__init__()
        self.source = source
        self.listing = listing

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "Background shells"
            stop = key_hint(self.app, ShellOptions.BINDINGS, "mewcode.shells.stop")
            yield Static(
                f"↑/↓ choose · {stop} stop the shell and what it started · Esc close",
                id="hint",
            )
            yield ShellOptions(id="shells")
            with VerticalScroll(id="output-area", can_focus=False):
                yield Static(id="output")
        yield Footer()

    def on_mount(self) -> None:
        self.show(self.listing)
        self.query_one(ShellOptions).focus()
        self.set_interval(REFRESH_S, self.refresh_listing)

    @property
    def selected(self) -> ShellInfo | None:
        options = self.query_one(ShellOptions)
        index = options.highlighted
        shells = self.listing.shells
        return shells[index] if index is not None and index < len(shells) else None

    def show(self, listing: ShellList) -> None:
        """Show ``listing``, keeping the highlighted shell."""
        options = self.query_one(ShellOptions)
        before = [s.shell_id for s in self.listing.shells]
        kept = self.selected
        self.listing = listing
        if before == [s.shell_id for s in listing.shells] and options.option_count:
            for index, shell in enumerate(listing.shells):
                options.replace_option_prompt_at_index(index, shell_row(shell))
        else:
            options.set_options(Option(shell_row(s), s.shell_id) for s in listing.shells)
            ids = [s.shell_id for s in listing.shells]
            options.highlighted = (
                ids.index(kept.shell_id)
                if kept is not None and kept.shell_id in ids
                else (len(ids) - 1 if ids else None)
            )
        self.show_output()

    def show_output(self) -> None:
        shell = self.selected
        area = self.query_one("#output-area", VerticalScroll)
        at_end = area.scroll_y >= area.max_scroll_y
        self.query_one("#output", Static).update(output_text(shell) if shell else "")
        if at_end:  # following the output, as a terminal does
            area.call_after_refresh(area.scroll_end, animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.show_output()

    async def refresh_listing(self) -> None:
        try:
            listing = await self.source.shells()
        except MewCodeError as exc:  # the session closed or refused: the last view stays
            log.info("background shells not refreshed: %s", exc)
            return
        if self.is_attached and listing.shells != self.listing.shells:
            self.show(listing)  # unchanged (ended shells, a quiet second): nothing to redraw

    async def action_stop(self) -> None:
        """Stop the highlighted shell."""
        shell = self.selected
        if shell is None or not shell.running:
            self.notify("That shell has already ended.", severity="warning")
            return
        try:
            self.show(await self.source.stop(shell.shell_id))
        except MewCodeError as exc:
            self.notify(str(exc), severity="error")

    def action_close(self) -> None:
        self.dismiss(None)

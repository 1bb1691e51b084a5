"""The `/mcp` list: every configured MCP server, its state and tools; reconnect one.

One row per server (name, transport, scope, state, tools, the last error cut to a
line); the highlighted server's full details — file, command or URL, the whole
error — show below the list. Enter or ``r`` reconnects the highlighted server.
Names, commands and errors come from configuration files and the servers: they are
shown through ``visible_text`` (a server's stderr may hold escape sequences).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Protocol

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from agent_core.errors import MewCodeError
from agent_core.events import McpServerStatus
from agent_core.terminal_text import visible_text
from mewcode_tui.keymap import key_hint
from mewcode_tui.theme_styles import semantic_style
from mewcode_tui.widgets.status_bar import short_path

log = logging.getLogger("mewcode.mcp")

# Per state: the icon, its theme colour and the word shown.
STATE_LOOKS: dict[str, tuple[str, str, str]] = {
    "connected": ("✓", "tool-ok", "connected"),
    "failed": ("✗", "tool-error", "failed"),
    "pending": ("○", "tool-pending", "pending"),
    "connecting": ("◐", "tool-running", "connecting…"),
    "reconnecting": ("◐", "tool-running", "reconnecting…"),
    "needs-trust": ("⚠", "tool-awaiting", "needs trust"),
    "closed": ("■", "tool-cancelled", "closed"),
}
UNTRUSTED_HELP = (
    "Not started: this project is not trusted. Restart mewcode here and trust the "
    "project to start the servers of its .mcp.json."
)


class McpServerSource(Protocol):
    """What the list needs of the session (commands/mcp.py: its snapshot and an op)."""

    def mcp_servers(self) -> list[McpServerStatus]: ...

    async def mcp_reconnect(self, name: str) -> object:
        """Restart the server and wait for it; MewCodeError when the session refuses."""
        ...


def server_scope(status: McpServerStatus) -> str:
    """'project' for a server from a project's .mcp.json, else 'user' (~/.mewcode/mcp.json)."""
    return "project" if Path(status.source).name == ".mcp.json" else "user"


def tools_text(status: McpServerStatus) -> str:
    """'3 tools', plus '+res' and '+prompts' when the server offers them."""
    text = f"{status.tools} tool{'' if status.tools == 1 else 's'}"
    if status.resources:
        text += " +res"
    if status.prompts:
        text += " +prompts"
    return text


class McpServerList(OptionList):
    """The servers; Enter reconnects the highlighted one."""

    # Not a screen binding: the list must see ↑/↓ typed just before Enter first.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Reconnect", id="mewcode.mcp.select")
    ]


class McpServersScreen(ModalScreen[None]):
    """The MCP servers of this session; reconnects a server on request."""

    CSS_PATH = "mcp_servers.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "reconnect", "Reconnect", id="mewcode.mcp.reconnect"),
        Binding("escape", "close", "Close", id="mewcode.mcp.close"),
    ]

    def __init__(self, source: McpServerSource) -> None:
        super().__init__()
        self.source = source
        self.servers: list[McpServerStatus] = source.mcp_servers()
        self.reconnecting: set[str] = set()
        self.notes: dict[str, str] = {}  # per server: why the last reconnect was refused

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "MCP servers"
            yield Static(id="hint")
            yield McpServerList(*(Option(self.row(s), s.name) for s in self.servers), id="servers")
            yield Static(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        reconnect = key_hint(self.app, self.BINDINGS, "mewcode.mcp.reconnect")
        close = key_hint(self.app, self.BINDINGS, "mewcode.mcp.close")
        count = len(self.servers)
        self.query_one("#hint", Static).update(
            f"{count} server{'' if count == 1 else 's'}. ↑/↓ to choose, Enter or "
            f"{reconnect} to reconnect, {close} to close."
        )
        servers = self.query_one(McpServerList)
        servers.focus()
        if self.servers:
            servers.highlighted = 0
        self.show_detail()

    # --- drawing -------------------------------------------------------------

    def state_of(self, status: McpServerStatus) -> str:
        return "reconnecting" if status.name in self.reconnecting else status.state

    def row(self, status: McpServerStatus) -> RenderableType:
        """One server: icon, name, transport, scope, state, tools; the error under it."""
        icon, color, word = STATE_LOOKS[self.state_of(status)]
        style = semantic_style(self.app, color)
        line = Table.grid(expand=True, padding=(0, 1))
        line.add_column(width=1, no_wrap=True)
        line.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        line.add_column(width=5, no_wrap=True)
        line.add_column(width=7, no_wrap=True)
        line.add_column(width=14, no_wrap=True)
        line.add_column(width=20, no_wrap=True, overflow="ellipsis")
        line.add_row(
            Text(icon, style=style),
            Text(visible_text(status.name), style="bold"),
            Text(status.transport, style="dim"),
            Text(server_scope(status), style="dim"),
            Text(word, style=style),
            Text(tools_text(status), style="dim"),
        )
        error = self.notes.get(status.name) or status.error
        if not error:
            return line
        first = visible_text(" ".join(error.split()))
        cut = Text("  " + first, style=semantic_style(self.app, "tool-error") + Style(dim=True))
        cut.no_wrap, cut.overflow = True, "ellipsis"
        return Group(line, cut)

    def detail(self, status: McpServerStatus) -> Text:
        """Everything about one server: file, target, tools, restarts and the whole error."""
        text = Text()
        text.append(visible_text(status.name), style="bold")
        source = visible_text(short_path(Path(status.source)))
        text.append(f" · {status.transport} · {server_scope(status)} · {source}")
        if status.target:
            text.append("\n" + visible_text(status.target), style="dim")
        facts = [tools_text(status).replace("+res", "+resources")]
        if status.restarts:
            facts.append(f"restarted {status.restarts} time{'' if status.restarts == 1 else 's'}")
        text.append("\n" + " · ".join(facts))
        if status.state == "needs-trust":
            text.append("\n" + UNTRUSTED_HELP, style=semantic_style(self.app, "tool-awaiting"))
        error = self.notes.get(status.name) or status.error
        if error:
            shown = visible_text(error, multiline=True)
            text.append("\nerror: " + shown, style=semantic_style(self.app, "tool-error"))
        return text

    def highlighted(self) -> McpServerStatus | None:
        index = self.query_one(McpServerList).highlighted
        return self.servers[index] if index is not None and index < len(self.servers) else None

    def show_detail(self) -> None:
        status = self.highlighted()
        self.query_one("#detail", Static).update(self.detail(status) if status else "")

    def show_servers(self, servers: Sequence[McpServerStatus] | None = None) -> None:
        """Redraw every row from the session's current statuses (or ``servers``)."""
        self.servers = list(servers) if servers is not None else self.source.mcp_servers()
        listing = self.query_one(McpServerList)
        if listing.option_count == len(self.servers):
            for index, status in enumerate(self.servers):
                listing.replace_option_prompt_at_index(index, self.row(status))
            listing.refresh(layout=True)  # a row that gained or lost its error line
        else:  # the configuration changed under the list: rebuild it
            listing.clear_options()
            listing.add_options(Option(self.row(s), s.name) for s in self.servers)
            listing.highlighted = 0 if self.servers else None
        self.show_detail()

    # --- actions ---------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_reconnect()

    def action_reconnect(self) -> None:
        """Reconnect the highlighted server; its row says 'reconnecting…' until it is done."""
        status = self.highlighted()
        if status is None or status.name in self.reconnecting:
            return
        if status.state == "needs-trust":
            self.app.bell()  # never started here: the detail below says why
            return
        self.notes.pop(status.name, None)
        self.reconnecting.add(status.name)
        self.show_servers()
        self.run_worker(self._reconnect(status.name), group=f"mcp-{status.name}")

    async def _reconnect(self, name: str) -> None:
        try:
            await self.source.mcp_reconnect(name)
        except MewCodeError as exc:
            self.notes[name] = str(exc)
        except Exception as exc:  # the list stays up; the traceback goes to the debug log
            log.exception("reconnecting MCP server %s failed", name)
            self.notes[name] = f"{type(exc).__name__}: {exc}"
        finally:
            self.reconnecting.discard(name)
        if self.is_attached:
            self.show_servers()

    def action_close(self) -> None:
        self.dismiss(None)

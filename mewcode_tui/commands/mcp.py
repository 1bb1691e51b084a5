"""/mcp: the session's MCP servers, their state and tools; reconnect one from the list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core.events import McpServerStatus
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand
from mewcode_tui.widgets.status_bar import short_path

if TYPE_CHECKING:
    from mewcode_tui.session_client import SessionClient


class SessionMcpServers:
    """The /mcp list's view of the session: the servers of its snapshot, reconnect as an op."""

    def __init__(self, session: SessionClient) -> None:
        self.session = session

    def mcp_servers(self) -> list[McpServerStatus]:
        return list(self.session.snapshot().mcp)

    async def mcp_reconnect(self, name: str) -> object:
        # Answered once the server is up or failed; its new state is in the snapshot.
        return await self.session.request(ops.ReconnectMcp(name=name))


def mcp(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: the MCP servers are not known yet.", "warning")
        return
    if args:
        host.say("Usage: /mcp (the list reconnects a server: Enter or r)", "warning")
        return
    servers = SessionMcpServers(host.session)
    if not servers.mcp_servers():
        user_file = short_path(host.paths.home / "mcp.json")
        host.say(
            f"No MCP servers configured. Add them under mcpServers in {user_file} (user) "
            "or .mcp.json in the project."
        )
        return
    from mewcode_tui.screens.mcp_servers import McpServersScreen

    host.app.push_screen(McpServersScreen(servers))


COMMANDS = [
    SlashCommand("mcp", "ui", "List MCP servers, their tools and errors; reconnect one", mcp),
]

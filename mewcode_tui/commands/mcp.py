"""/mcp: the session's MCP servers, their state and tools; reconnect one from the list."""

from __future__ import annotations

from mewcode_tui.commands.registry import CommandHost, SlashCommand
from mewcode_tui.widgets.status_bar import short_path


def mcp(host: CommandHost, args: str) -> None:
    rt = host.runtime
    if rt is None:
        host.say("Still starting: the MCP servers are not known yet.", "warning")
        return
    if args:
        host.say("Usage: /mcp (the list reconnects a server: Enter or r)", "warning")
        return
    if not rt.mcp_servers():
        user_file = short_path(host.paths.home / "mcp.json")
        host.say(
            f"No MCP servers configured. Add them under mcpServers in {user_file} (user) "
            "or .mcp.json in the project."
        )
        return
    from mewcode_tui.screens.mcp_servers import McpServersScreen

    host.app.push_screen(McpServersScreen(rt))


COMMANDS = [
    SlashCommand("mcp", "ui", "List MCP servers, their tools and errors; reconnect one", mcp),
]

"""SVG snapshot of the /mcp server list at 80x24, the failed server highlighted.

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

import pytest

from agent_core.mcp.model import McpServerStatus
from mewcode_tui.screens.mcp_servers import McpServersScreen
from tests.snapshots.test_modal_snapshots import ScreenHost

SERVERS = [
    McpServerStatus(
        "github",
        "stdio",
        "connected",
        "/home/u/.mewcode/mcp.json",
        tools=12,
        resources=True,
        target="npx -y @modelcontextprotocol/server-github",
    ),
    McpServerStatus(
        "weather",
        "http",
        "failed",
        "/work/p/.mcp.json",
        error="did not start within 10 s: connection refused (https://weather.example/mcp)",
        restarts=3,
        target="https://weather.example/mcp",
    ),
    McpServerStatus("notes", "stdio", "pending", "/work/p/.mcp.json", prompts=True),
    McpServerStatus("shady", "stdio", "needs-trust", "/work/p/.mcp.json"),
]


class FixedServers:
    """The session as the list sees it: fixed statuses, reconnects never asked for."""

    def mcp_servers(self) -> list[McpServerStatus]:
        return list(SERVERS)

    async def mcp_reconnect(self, name: str) -> McpServerStatus:
        raise AssertionError("the snapshot presses no key")


@pytest.fixture(autouse=True)
def colors_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_mcp_server_list(snap_compare, paths) -> None:
    screen = McpServersScreen(FixedServers())
    assert snap_compare(ScreenHost(paths, screen), terminal_size=(80, 24), press=["down"])

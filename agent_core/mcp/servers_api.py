"""What the runtime and the front ends may do with the session's MCP servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agent_core.mcp.model import McpServerStatus
    from agent_core.tools.base import Tool


class McpServers(Protocol):
    """The configured servers of one mewcode process: connections, their tools, their status."""

    @property
    def version(self) -> int:
        """Goes up whenever ``tools()`` would answer differently (connect, crash, reconnect)."""
        ...

    def start(self) -> None:
        """Begin connecting every server that may start, in parallel, in the background.

        Idempotent. The UI calls it after its first frame; headless mode does not,
        and servers start on first need instead (``settle`` or a tool call).
        """
        ...

    async def settle(self) -> None:
        """Wait until every server whose tools are not yet known (connected, or listed by
        an earlier run's cache for the same configuration) is connected or has failed;
        starts those servers. Each wait is bounded by the start-up timeout."""
        ...

    def tools(self) -> list[Tool]:
        """Tool objects for every tool known now (live or cached), the resource and
        prompt virtual tools included, named ``mcp__<server>__<tool>``."""
        ...

    def statuses(self) -> list[McpServerStatus]:
        """Every configured server in configuration order, untrusted ones included."""
        ...

    async def reconnect(self, name: str) -> McpServerStatus:
        """Stop the server if running, start it again, wait for it (bounded); resets its
        restart budget. Raises MewCodeError for an unknown or untrusted name."""
        ...

    def watch(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) whenever a status changes."""
        ...

    async def aclose(self) -> None:
        """Stop every server; no child process is left. Idempotent."""
        ...

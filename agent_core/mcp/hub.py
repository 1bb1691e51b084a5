"""McpHub: the configured servers of one mewcode process, their tools and their calls.

Servers connect in parallel in the background (``start``) or on first need
(``settle``, a tool call). A server's tools are offered from its live listing
when connected, else from the cache of its last successful start with the
same configuration. Every failure of a server becomes its status or an error
result naming it; nothing a server does raises out of a tool call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_core.errors import MewCodeError
from agent_core.mcp import results
from agent_core.mcp.config import target_text
from agent_core.mcp.connection import McpConnection, leaf_error, one_line
from agent_core.mcp.model import McpServerSpec, McpServerStatus
from agent_core.mcp.tool_cache import CachedServer, load_cached, save_cached
from agent_core.mcp.tools import server_tool, virtual_tools
from agent_core.tools.base import Tool, ToolOutput

if TYPE_CHECKING:
    from agent_core.mcp.servers_api import McpServers

log = logging.getLogger("mewcode.mcp")

CANCEL_GRACE_S = 1.0  # time for the SDK to send the server its courtesy cancel
Operation = Callable[[Any], Awaitable[ToolOutput]]


class McpHub:
    """Connections to the session's MCP servers (implements ``McpServers``)."""

    def __init__(
        self,
        specs: Iterable[McpServerSpec],
        *,
        untrusted: Iterable[McpServerSpec] = (),
        home: Path,
        startup_timeout_s: float = 10.0,
        tool_timeout_s: float = 600.0,
        max_restarts: int = 3,
        problems: Iterable[str] = (),
    ) -> None:
        self.home = home
        self.tool_timeout_s = tool_timeout_s
        self.max_restarts = max_restarts
        self.problems = list(problems)
        self._untrusted = list(untrusted)
        self._connections = {
            spec.name: McpConnection(
                spec, home=home, startup_timeout_s=startup_timeout_s, on_change=self._changed
            )
            for spec in specs
        }
        self._known = {name: load_cached(home, c.spec) for name, c in self._connections.items()}
        self._restarts = dict.fromkeys(self._connections, 0)
        self._locks = {name: asyncio.Lock() for name in self._connections}
        self._watchers: list[Callable[[], None]] = []
        self._version = 0
        self._shape = self._tool_shape()
        self._tools: tuple[int, list[Tool]] | None = None
        self._closed = False

    # -- McpServers ------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return self._version

    def start(self) -> None:
        if self._closed:
            return
        for conn in self._connections.values():
            if conn.state == "pending":
                conn.start()

    async def settle(self) -> None:
        if self._closed:
            return
        waiting = []
        for name, conn in self._connections.items():
            if conn.state == "connected" or self._known[name] is not None:
                continue
            if conn.state == "pending":
                conn.start()
            waiting.append(conn.wait_ready())
        await asyncio.gather(*waiting)

    def tools(self) -> list[Tool]:
        if self._tools is not None and self._tools[0] == self._version:
            return self._tools[1]
        tools: list[Tool] = []
        for name, listing in self._tool_shape():
            if listing is None:
                continue
            names: set[str] = set()
            trust_hint = self._connections[name].spec.trust_read_only_hint
            for info in listing.tools:
                tool = server_tool(self, name, info, trust_hint=trust_hint)
                if tool.name not in names:
                    names.add(tool.name)
                    tools.append(tool)
            tools += virtual_tools(
                self, name, resources=listing.resources, prompts=listing.prompts, taken=names
            )
        self._tools = (self._version, tools)
        return tools

    def statuses(self) -> list[McpServerStatus]:
        out = []
        for name, conn in self._connections.items():
            listing = self._known[name]
            out.append(
                McpServerStatus(
                    name=name,
                    transport=conn.spec.transport,
                    state=conn.state,
                    source=conn.spec.source,
                    tools=len(listing.tools) if listing else 0,
                    resources=bool(listing and listing.resources),
                    prompts=bool(listing and listing.prompts),
                    error=conn.error,
                    restarts=self._restarts[name],
                    target=target_text(conn.spec),
                )
            )
        for spec in self._untrusted:
            out.append(
                McpServerStatus(
                    name=spec.name,
                    transport=spec.transport,
                    state="needs-trust",
                    source=spec.source,
                    target=target_text(spec),
                )
            )
        return out

    async def reconnect(self, name: str) -> McpServerStatus:
        conn = self._connections.get(name)
        if conn is None:
            if any(spec.name == name for spec in self._untrusted):
                raise MewCodeError(
                    f"MCP server '{name}' belongs to a project you have not trusted yet"
                )
            raise MewCodeError(f"no MCP server named '{name}'")
        if self._closed:
            raise MewCodeError("the MCP servers are shut down")
        async with self._locks[name]:
            self._restarts[name] = 0
            await conn.stop()
            conn.start()
            await conn.wait_ready()
        return next(s for s in self.statuses() if s.name == name)

    def watch(self, callback: Callable[[], None]) -> None:
        self._watchers.append(callback)

    async def aclose(self) -> None:
        self._closed = True
        await asyncio.gather(*(conn.stop() for conn in self._connections.values()))
        for conn in self._connections.values():
            if conn.state != "closed":
                conn.state, conn.error = "closed", ""
        self._changed()

    # -- McpCalls: what the tools call ----------------------------------------------------

    async def call_tool(
        self, server: str, tool: str, arguments: dict[str, Any], cancel: asyncio.Event
    ) -> ToolOutput:
        async def op(client: Any) -> ToolOutput:
            result = await client.call_tool(
                tool, arguments, read_timeout_seconds=self.tool_timeout_s
            )
            return results.call_output(result)

        return await self._invoke(server, f"tool '{tool}'", op, cancel, tool=tool)

    async def list_resources(self, server: str, cancel: asyncio.Event) -> ToolOutput:
        async def op(client: Any) -> ToolOutput:
            found: list[Any] = []
            cursor = None
            for _ in range(100):  # a pagination that never ends cannot hang the call
                page = await client.list_resources(cursor=cursor)
                found += page.resources
                cursor = page.next_cursor
                if not cursor:
                    break
            return results.resource_list_output(found)

        return await self._invoke(server, "list_resources", op, cancel)

    async def read_resource(self, server: str, uri: str, cancel: asyncio.Event) -> ToolOutput:
        async def op(client: Any) -> ToolOutput:
            return results.resource_output(await client.read_resource(uri))

        return await self._invoke(server, f"read_resource {uri}", op, cancel)

    async def get_prompt(
        self, server: str, name: str, arguments: dict[str, str], cancel: asyncio.Event
    ) -> ToolOutput:
        async def op(client: Any) -> ToolOutput:
            return results.prompt_output(await client.get_prompt(name, arguments))

        return await self._invoke(server, f"prompt '{name}'", op, cancel)

    # -- internals ---------------------------------------------------------------------------

    async def _invoke(
        self, server: str, what: str, op: Operation, cancel: asyncio.Event, *, tool: str = ""
    ) -> ToolOutput:
        """Run ``op`` on the server's client; Esc (``cancel``) abandons it promptly."""
        if cancel.is_set():
            return ToolOutput(f"MCP call to '{server}' cancelled", is_error=True)
        work = asyncio.ensure_future(self._call(server, what, op, tool))
        cancelled = asyncio.ensure_future(cancel.wait())
        try:
            await asyncio.wait({work, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
            if not work.done():
                work.cancel()
                await asyncio.wait({work}, timeout=CANCEL_GRACE_S)
        if work.cancelled():
            return ToolOutput(f"MCP call to '{server}' cancelled", is_error=True)
        error = work.exception()
        if error is not None:  # a bug of ours: still a result, never a stopped loop
            log.debug("MCP call to %s failed", server, exc_info=error)
            return ToolOutput(f"MCP server '{server}': {what} failed: {one_line(error)}", True)
        return work.result()

    async def _call(self, server: str, what: str, op: Operation, tool: str) -> ToolOutput:
        ready = await self._ready(server)
        if isinstance(ready, str):
            return ToolOutput(ready, is_error=True)
        conn = ready
        if tool and conn.listing and all(t.name != tool for t in conn.listing.tools):
            return ToolOutput(f"server {server} no longer offers tool {tool}", is_error=True)
        try:
            async with asyncio.timeout(self.tool_timeout_s):
                return await op(conn.client)
        except TimeoutError:
            return self._timed_out(server, what)
        except Exception as exc:
            return await self._call_failure(conn, what, exc)

    async def _ready(self, server: str) -> McpConnection | str:
        """The server's connection once connected (started or restarted as needed), or why not."""
        conn = self._connections.get(server)
        if conn is None:
            return f"no MCP server named '{server}'"
        async with self._locks[server]:
            if self._closed:
                return "the MCP servers are shut down"
            if conn.state == "pending":
                conn.start()
            elif conn.state == "failed":
                restarts = self._restarts[server]
                if restarts >= self.max_restarts:
                    return (
                        f"server {server} failed: {conn.error}; restarted {restarts} times, "
                        "use /mcp to reconnect"
                    )
                self._restarts[server] = restarts + 1
                log.debug("restarting MCP server %s (%d)", server, restarts + 1)
                await conn.stop()
                conn.start()
            await conn.wait_ready()
            if conn.state != "connected" or conn.client is None:
                return f"MCP server '{server}' failed: {conn.error or conn.state}"
            return conn

    def _timed_out(self, server: str, what: str) -> ToolOutput:
        limit = f"{self.tool_timeout_s:g}"
        return ToolOutput(
            f"MCP server '{server}' did not answer {what} within {limit} s", is_error=True
        )

    async def _call_failure(self, conn: McpConnection, what: str, exc: BaseException) -> ToolOutput:
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        leaf = leaf_error(exc)
        server = conn.spec.name
        if isinstance(leaf, MCPError) and leaf.code == REQUEST_TIMEOUT:
            return self._timed_out(server, what)
        if isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED:
            reason = await conn.exit_reason("during the call")
            conn.lost(reason)
            return ToolOutput(reason, is_error=True)
        if isinstance(leaf, MCPError):
            return ToolOutput(f"MCP server '{server}': {what} failed: {leaf.message}", True)
        log.debug("MCP call to %s failed", server, exc_info=True)
        if _is_transport_error(leaf):
            reason = f"MCP server '{server}' is unreachable: {one_line(leaf)}"
            conn.lost(reason)
            return ToolOutput(reason, is_error=True)
        return ToolOutput(f"MCP server '{server}': {what} failed: {one_line(leaf)}", True)

    def _tool_shape(self) -> list[tuple[str, CachedServer | None]]:
        """What ``tools()`` is built from: each server's live or remembered listing."""
        return [(name, self._known[name]) for name in self._connections]

    def _changed(self) -> None:
        """A connection's state changed: remember a fresh listing, bump, tell watchers."""
        for name, conn in self._connections.items():
            live = conn.listing
            if conn.state == "connected" and live is not None and live != self._known[name]:
                self._known[name] = live
                save_cached(self.home, conn.spec, live)
        shape = self._tool_shape()
        if shape != self._shape:
            self._shape = shape
            self._version += 1
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for callback in self._watchers:
            loop.call_soon(callback)


def _is_transport_error(exc: BaseException) -> bool:
    """An HTTP connection failure (the server went away), by the client library's types."""
    module = type(exc).__module__.split(".")[0]
    return isinstance(exc, OSError) or module in ("httpx", "httpx2", "httpcore", "anyio")


def _conforms(hub: McpHub) -> McpServers:
    return hub  # mypy checks that McpHub implements the whole McpServers protocol

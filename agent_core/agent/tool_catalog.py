"""Which tools a session has, which each mode offers, and which may run side by side.

The one place that knows the plan-mode rules: read-only tools are offered in
plan mode, tools with effects are not, and the plan-exit tool (ExitPlanMode)
is offered only there and is approved as a plan, not by permission rules.
Tools say which they are with their ``plan_mode`` trait; nothing here names one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_core.llm.base import ToolSpec
from agent_core.modes import Mode
from agent_core.tools.base import Tool
from agent_core.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from agent_core.mcp.servers_api import McpServers

PLAN = "plan"


class ToolCatalog:
    """The session's tools seen through the permission mode."""

    def __init__(self, registry: ToolRegistry, mcp: McpServers | None = None) -> None:
        self.registry = registry
        self.mcp = mcp
        self._mcp_names: list[str] = []
        self._mcp_version = -1

    async def refresh(self) -> None:
        """Bring the MCP servers' tools up to date before a request (waits for servers
        whose tools are not known yet, each bounded by the start-up timeout)."""
        if self.mcp is None:
            return
        await self.mcp.settle()
        self.sync_mcp()

    def sync_mcp(self) -> None:
        """Register the MCP tools known now in place of the ones registered before."""
        if self.mcp is None or self.mcp.version == self._mcp_version:
            return
        self._mcp_version = self.mcp.version
        for name in self._mcp_names:
            self.registry.unregister(name)
        tools = self.mcp.tools()
        for tool in tools:
            self.registry.register(tool)
        self._mcp_names = [t.name for t in tools]

    def get(self, name: str) -> Tool | None:
        return self.registry.get(name)

    def names(self) -> list[str]:
        return self.registry.names()

    def offered(self, mode: Mode) -> list[Tool]:
        """The tools the model is offered in ``mode`` (registration order: stable for caching)."""
        if mode == PLAN:
            return self.registry.tools(lambda t: t.plan_mode in ("offered", "only"))
        return self.registry.tools(lambda t: t.plan_mode != "only")

    def offered_names(self, mode: Mode) -> list[str]:
        return [t.name for t in self.offered(mode)]

    def specs(self, mode: Mode) -> list[ToolSpec]:
        """The definitions sent to the model in ``mode``."""
        offered = {t.name for t in self.offered(mode)}
        return self.registry.specs(lambda t: t.name in offered)

    def is_plan_exit(self, tool: Tool) -> bool:
        """The tool that leaves plan mode: the user approves its plan instead of a rule."""
        return tool.plan_mode == "only"

    def runs_in_batch(self, name: str) -> bool:
        """May this call run in parallel with other read-only calls?"""
        tool = self.registry.get(name)
        return tool is not None and tool.read_only and not self.is_plan_exit(tool)

"""Which tools a session has, which each mode offers, and which may run side by side.

The one place that knows the plan-mode rules: read-only tools are offered in
plan mode, tools with effects are not, and the plan-exit tool (ExitPlanMode)
is offered only there and is approved as a plan, not by permission rules.
Tools say which they are with their ``plan_mode`` trait; nothing here names one.
"""

from __future__ import annotations

from agent_core.llm.base import ToolSpec
from agent_core.tools.base import Tool
from agent_core.tools.registry import ToolRegistry

PLAN = "plan"


class ToolCatalog:
    """The session's tools seen through the permission mode."""

    def __init__(self, registry: ToolRegistry) -> None:
        self.registry = registry

    def get(self, name: str) -> Tool | None:
        return self.registry.get(name)

    def names(self) -> list[str]:
        return self.registry.names()

    def offered(self, mode: str) -> list[Tool]:
        """The tools the model is offered in ``mode`` (registration order: stable for caching)."""
        if mode == PLAN:
            return self.registry.tools(lambda t: t.plan_mode in ("offered", "only"))
        return self.registry.tools(lambda t: t.plan_mode != "only")

    def offered_names(self, mode: str) -> list[str]:
        return [t.name for t in self.offered(mode)]

    def specs(self, mode: str) -> list[ToolSpec]:
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

"""The tool registry: built-ins and MCP tools under one canonical name each."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from agent_core.llm.base import ToolSpec
from agent_core.tools.base import Tool, tool_schema


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        self._tools[tool.name] = tool

    def unregister(self, name: str) -> None:
        self._tools.pop(name, None)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def tools(self, keep: Callable[[Tool], bool] | None = None) -> list[Tool]:
        return [t for t in self._tools.values() if keep is None or keep(t)]

    def specs(self, keep: Callable[[Tool], bool] | None = None) -> list[ToolSpec]:
        """Tool definitions for the model, in registration order (stable for caching)."""
        return [ToolSpec(t.name, t.description, tool_schema(t)) for t in self.tools(keep)]

"""The Tool objects an MCP server's tools become, plus the resource and prompt tools.

Each server tool gets its own class (the Tool protocol's traits are class
variables), made with ``type(...)``; an instance holds the ``McpCalls`` that
reaches the server. Input is checked against the server's JSON Schema before
a call, so a bad argument is an error result naming the field.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar, Protocol

import msgspec

from agent_core.mcp.model import McpToolInfo
from agent_core.mcp.names import tool_name
from agent_core.tools.base import (
    PermissionKind,
    PlanMode,
    Tool,
    ToolContext,
    ToolError,
    ToolOutput,
)

MAX_DESCRIPTION = 2000
MAX_SUMMARY = 100


class McpCalls(Protocol):
    """Reaches a server for a tool: starts or restarts it as needed; never raises."""

    async def call_tool(
        self, server: str, tool: str, arguments: dict[str, Any], cancel: asyncio.Event
    ) -> ToolOutput: ...

    async def list_resources(self, server: str, cancel: asyncio.Event) -> ToolOutput: ...

    async def read_resource(self, server: str, uri: str, cancel: asyncio.Event) -> ToolOutput: ...

    async def get_prompt(
        self, server: str, name: str, arguments: dict[str, str], cancel: asyncio.Event
    ) -> ToolOutput: ...


class _Unused(msgspec.Struct):
    """``params`` of a schema tool: never used (its json_schema is)."""


class McpTool:
    """Traits shared by every MCP tool; subclasses set the server, schema and label."""

    name: ClassVar[str]
    description: ClassVar[str]
    params: ClassVar[type[msgspec.Struct]] = _Unused
    read_only: ClassVar[bool] = False
    permission_kind: ClassVar[PermissionKind] = "other"
    rule_field: ClassVar[str | None] = None
    plan_mode: ClassVar[PlanMode] = "hidden"
    # Whether read_only may let a call run unasked (tools/base.py read_only_trusted): the
    # virtual tools are MewCode's own; a server's readOnlyHint only when the user trusts it.
    read_only_trusted: ClassVar[bool] = True
    json_schema: ClassVar[dict[str, Any]]
    server: ClassVar[str]
    label: ClassVar[str]  # what the summary names: the server's tool name, or the virtual tool
    _checked_by: ClassVar[Any]

    def __init__(self, calls: McpCalls) -> None:
        self.calls = calls

    def check_input(self, raw: dict[str, Any]) -> dict[str, Any]:
        """``raw`` when it satisfies the schema; ToolError naming the path and problem."""
        errors = sorted(self._validator().iter_errors(raw), key=lambda e: list(e.path))
        if errors:
            error = errors[0]
            where = "/".join(str(part) for part in error.absolute_path) or "(input)"
            raise ToolError(f"invalid input at {where}: {error.message}")
        return raw

    @classmethod
    def _validator(cls) -> Any:
        """The schema's validator, built on first use and kept on the class."""
        validator = cls.__dict__.get("_checked_by")
        if validator is None:
            from jsonschema import exceptions, validators  # type: ignore[import-untyped]

            validator_class = validators.validator_for(cls.json_schema)
            try:
                validator_class.check_schema(cls.json_schema)
            except exceptions.SchemaError as exc:
                raise ToolError(
                    f"server '{cls.server}' gave an invalid input schema: {exc.message}"
                ) from None
            validator = validator_class(cls.json_schema)
            cls._checked_by = validator
        return validator

    def summary(self, args: dict[str, Any]) -> str:
        text = f"{self.server} › {self.label}"
        if args:
            text += " " + json.dumps(args, ensure_ascii=False, separators=(", ", ": "))
        text = " ".join(text.split())
        return text if len(text) <= MAX_SUMMARY else text[: MAX_SUMMARY - 1] + "…"


class ServerTool(McpTool):
    """A tool the server lists; ``remote`` is its own name for it."""

    remote: ClassVar[str]

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        return await self.calls.call_tool(self.server, self.remote, args, ctx.cancel)


class ListResourcesTool(McpTool):
    read_only: ClassVar[bool] = True
    plan_mode: ClassVar[PlanMode] = "offered"

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        return await self.calls.list_resources(self.server, ctx.cancel)


class ReadResourceTool(McpTool):
    read_only: ClassVar[bool] = True
    plan_mode: ClassVar[PlanMode] = "offered"

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        return await self.calls.read_resource(self.server, args["uri"], ctx.cancel)


class GetPromptTool(McpTool):
    read_only: ClassVar[bool] = True
    plan_mode: ClassVar[PlanMode] = "offered"

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        arguments = args.get("arguments") or {}
        return await self.calls.get_prompt(self.server, args["name"], arguments, ctx.cancel)


def object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The server's input schema as providers accept it: an object with properties."""
    fixed = {k: v for k, v in schema.items() if k not in ("$schema", "title")}
    if fixed.get("type") != "object":
        fixed["type"] = "object"
    if not isinstance(fixed.get("properties"), dict):
        fixed["properties"] = {}
    return fixed


def server_tool(
    calls: McpCalls, server: str, info: McpToolInfo, *, trust_hint: bool = False
) -> ServerTool:
    """The Tool for one tool a server lists. Its readOnlyHint decides batching and plan
    mode; it lets the tool run unasked only with ``trust_hint`` (the user's own setting)."""
    description = f"[MCP server '{server}'] {info.description or info.title or info.name}"
    read_only = info.read_only
    cls = type(
        f"McpTool_{server}_{info.name}",
        (ServerTool,),
        {
            "name": tool_name(server, info.name),
            "description": _trimmed(description),
            "json_schema": object_schema(info.input_schema),
            "read_only": read_only,
            "plan_mode": "offered" if read_only else "hidden",
            "read_only_trusted": trust_hint,
            "server": server,
            "label": info.name,
            "remote": info.name,
        },
    )
    tool: ServerTool = cls(calls)
    return tool


_URI_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"uri": {"type": "string", "description": "The resource's URI"}},
    "required": ["uri"],
    "additionalProperties": False,
}
_PROMPT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The prompt's name"},
        "arguments": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "The prompt's arguments, each a string",
        },
    },
    "required": ["name"],
    "additionalProperties": False,
}
_VirtualTool = type[ListResourcesTool] | type[ReadResourceTool] | type[GetPromptTool]
_VIRTUAL: dict[str, tuple[_VirtualTool, dict[str, Any], str]] = {
    "list_resources": (
        ListResourcesTool,
        {"type": "object", "properties": {}, "additionalProperties": False},
        "List the resources (documents, data) this MCP server offers, with their URIs.",
    ),
    "read_resource": (ReadResourceTool, _URI_SCHEMA, "Read one resource of this MCP server."),
    "get_prompt": (
        GetPromptTool,
        _PROMPT_SCHEMA,
        "Get one of this MCP server's prompts, filled with the given arguments.",
    ),
}


def virtual_tools(
    calls: McpCalls, server: str, *, resources: bool, prompts: bool, taken: set[str]
) -> list[Tool]:
    """The resource tools (when the server offers resources) and the prompt tool (when it
    offers prompts); a server tool of the same name keeps its name (``taken``)."""
    wanted = (["list_resources", "read_resource"] if resources else []) + (
        ["get_prompt"] if prompts else []
    )
    tools: list[Tool] = []
    for virtual in wanted:
        base, schema, text = _VIRTUAL[virtual]
        name = tool_name(server, virtual)
        if name in taken:
            continue
        cls = type(
            f"McpVirtual_{server}_{virtual}",
            (base,),
            {
                "name": name,
                "description": f"[MCP server '{server}'] {text}",
                "json_schema": schema,
                "server": server,
                "label": virtual,
            },
        )
        tools.append(cls(calls))
    return tools


def _trimmed(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"

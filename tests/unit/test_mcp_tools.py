"""MCP tool objects: traits, schema, input checks, summaries; the tool-list cache."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from agent_core.mcp.model import McpServerSpec, McpToolInfo
from agent_core.mcp.tool_cache import CachedServer, cache_path, load_cached, save_cached
from agent_core.mcp.tools import object_schema, server_tool, virtual_tools
from agent_core.tools.base import (
    SchemaTool,
    ToolContext,
    ToolError,
    ToolOutput,
    tool_arguments,
    tool_schema,
)


class RecordingCalls:
    """An McpCalls that records what the tools asked for."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    async def call_tool(
        self, server: str, tool: str, arguments: dict[str, Any], cancel: asyncio.Event
    ) -> ToolOutput:
        self.seen.append(("call", server, tool, arguments))
        return ToolOutput("ok")

    async def list_resources(self, server: str, cancel: asyncio.Event) -> ToolOutput:
        self.seen.append(("list", server))
        return ToolOutput("ok")

    async def read_resource(self, server: str, uri: str, cancel: asyncio.Event) -> ToolOutput:
        self.seen.append(("read", server, uri))
        return ToolOutput("ok")

    async def get_prompt(
        self, server: str, name: str, arguments: dict[str, str], cancel: asyncio.Event
    ) -> ToolOutput:
        self.seen.append(("prompt", server, name, arguments))
        return ToolOutput("ok")


ISSUE_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "labels": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["title"],
}


def issue_tool(calls: RecordingCalls, **info: Any) -> Any:
    fields = {"name": "create_issue", "description": "Open an issue.", "input_schema": ISSUE_SCHEMA}
    return server_tool(calls, "github", McpToolInfo(**{**fields, **info}))


def test_a_server_tool_has_the_traits_rules_and_plan_mode_need() -> None:
    tool = issue_tool(RecordingCalls())
    assert isinstance(tool, SchemaTool)
    assert tool.name == "mcp__github__create_issue"
    assert tool.description == "[MCP server 'github'] Open an issue."
    assert (tool.read_only, tool.plan_mode, tool.permission_kind, tool.rule_field) == (
        False,
        "hidden",
        "other",
        None,
    )
    reader = issue_tool(RecordingCalls(), name="get_issue", read_only=True)
    assert (reader.read_only, reader.plan_mode) == (True, "offered")
    assert type(tool) is not type(reader)  # traits are class variables: one class per tool


def test_the_offered_schema_is_an_object_without_schema_keys() -> None:
    schema = tool_schema(issue_tool(RecordingCalls()))
    assert "$schema" not in schema and schema["type"] == "object"
    assert object_schema({}) == {"type": "object", "properties": {}}
    assert object_schema({"type": "object", "title": "x"}) == {"type": "object", "properties": {}}


def test_input_is_checked_against_the_schema_naming_the_path() -> None:
    tool = issue_tool(RecordingCalls())
    assert tool_arguments(tool, {"title": "x"}) == {"title": "x"}
    with pytest.raises(ToolError, match=r"invalid input at labels/1: 2 is not of type 'string'"):
        tool_arguments(tool, {"title": "x", "labels": ["a", 2]})
    with pytest.raises(ToolError, match=r"invalid input at \(input\): 'title' is a required"):
        tool_arguments(tool, {})


def test_an_invalid_server_schema_is_a_tool_error() -> None:
    tool = issue_tool(
        RecordingCalls(), input_schema={"type": "object", "properties": {"x": {"type": "nonsense"}}}
    )
    with pytest.raises(ToolError, match="server 'github' gave an invalid input schema"):
        tool_arguments(tool, {})


def test_long_descriptions_are_trimmed_and_summaries_stay_short() -> None:
    tool = issue_tool(RecordingCalls(), description="d" * 5000)
    assert len(tool.description) == 2000
    assert tool.summary({"title": "x"}) == 'github › create_issue {"title": "x"}'
    long = tool.summary({"title": "line\n" * 100})
    assert len(long) == 100 and "\n" not in long and long.endswith("…")


async def test_tools_call_the_server_by_its_own_names(tmp_path: Path) -> None:
    calls = RecordingCalls()
    ctx = ToolContext(cwd=tmp_path, session_dir=tmp_path)
    odd = server_tool(calls, "fs", McpToolInfo(name="read.file", input_schema={}))
    assert odd.name.startswith("mcp__fs__read_file_")
    await odd.run({"p": 1}, ctx)
    virtual = {
        t.name: t for t in virtual_tools(calls, "fs", resources=True, prompts=True, taken=set())
    }
    assert all(t.read_only and t.plan_mode == "offered" for t in virtual.values())
    await virtual["mcp__fs__read_resource"].run({"uri": "a://b"}, ctx)
    await virtual["mcp__fs__get_prompt"].run({"name": "p", "arguments": {"x": "1"}}, ctx)
    await virtual["mcp__fs__list_resources"].run({}, ctx)
    assert calls.seen == [
        ("call", "fs", "read.file", {"p": 1}),
        ("read", "fs", "a://b"),
        ("prompt", "fs", "p", {"x": "1"}),
        ("list", "fs"),
    ]
    with pytest.raises(ToolError, match="arguments/x: 1 is not of type 'string'"):
        tool_arguments(virtual["mcp__fs__get_prompt"], {"name": "p", "arguments": {"x": 1}})


def test_virtual_tools_follow_the_capabilities_and_yield_to_real_tools() -> None:
    calls = RecordingCalls()
    names = [t.name for t in virtual_tools(calls, "s", resources=False, prompts=True, taken=set())]
    assert names == ["mcp__s__get_prompt"]
    taken = {"mcp__s__list_resources"}
    names = [t.name for t in virtual_tools(calls, "s", resources=True, prompts=False, taken=taken)]
    assert names == ["mcp__s__read_resource"]


def spec(**changes: Any) -> McpServerSpec:
    fields = {"name": "gh", "transport": "stdio", "source": "x", "scope": "user", "command": "gh"}
    return McpServerSpec(**{**fields, **changes})


def test_the_cache_is_per_spec_key_and_a_corrupt_file_is_ignored(tmp_path: Path) -> None:
    entry = CachedServer(tools=[McpToolInfo(name="t", read_only=True)], prompts=True)
    save_cached(tmp_path, spec(), entry)
    assert load_cached(tmp_path, spec()) == entry
    assert load_cached(tmp_path, spec(args=("--other",))) is None

    save_cached(tmp_path, spec(args=("--other",)), entry)  # the old key's file goes
    assert not cache_path(tmp_path, spec()).exists()
    assert cache_path(tmp_path, spec()).parent.stat().st_mode & 0o777 == 0o700

    cache_path(tmp_path, spec()).write_text("{not json")
    seen: list[str] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("mewcode.mcp")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        assert load_cached(tmp_path, spec()) is None
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    assert any("corrupt" in line for line in seen)


def test_the_cache_keeps_what_a_server_listed_without_its_secrets(tmp_path: Path) -> None:
    token = "gh" + "p_" + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"
    own = "tok-only-this-server-knows-1234"  # known from the server's env, not by format
    tool = McpToolInfo(
        name="deploy",
        title=f"Deploy as {own}",
        description=f"Calls the API with {token}.",
        input_schema={"type": "object", "properties": {"t": {"default": token}}},
    )
    with_env = spec(env={"DEPLOY_TOKEN": own})
    save_cached(tmp_path, with_env, CachedServer(tools=[tool]))
    data = cache_path(tmp_path, with_env).read_text()
    assert token not in data and own not in data
    (kept,) = load_cached(tmp_path, with_env).tools  # type: ignore[union-attr]
    assert kept.name == "deploy" and kept.description == "Calls the API with [REDACTED]."
    assert kept.title == "Deploy as [REDACTED]"
    assert kept.input_schema["properties"]["t"]["default"] == "[REDACTED]"


def test_a_big_server_log_is_rotated_when_the_server_starts(tmp_path) -> None:
    from agent_core.mcp.stderr_log import LOG_ROTATE_BYTES, _rotate

    log = tmp_path / "mcp-x.log"
    log.write_text("small\n")
    _rotate(log)
    assert log.read_text() == "small\n"
    log.write_bytes(b"x" * (LOG_ROTATE_BYTES + 1))
    _rotate(log)
    assert not log.exists() and (tmp_path / "mcp-x.log.1").stat().st_size == LOG_ROTATE_BYTES + 1

"""McpHub against real MCP servers (the SDK's, over stdio and Streamable HTTP)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from agent_core.errors import MewCodeError
from agent_core.mcp.hub import McpHub
from agent_core.mcp.model import McpServerSpec
from agent_core.messages import ImageBlock
from agent_core.tools.base import (
    Tool,
    ToolContext,
    ToolError,
    ToolOutput,
    read_only_trusted,
    tool_arguments,
)
from tests.mcp_servers.launch import http_server, http_spec, stdio_spec

PREFIX = "mcp__everything__"


async def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``predicate`` to hold (fails the test on timeout)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(cwd=tmp_path, session_dir=tmp_path)


def hub_for(home: Path, *specs: McpServerSpec, **limits: Any) -> McpHub:
    settings: dict[str, Any] = {"startup_timeout_s": 10.0, "tool_timeout_s": 30.0, **limits}
    return McpHub(list(specs), home=home, **settings)


@pytest.fixture
async def hubs(mewcode_home: Path) -> AsyncIterator[list[McpHub]]:
    """Hubs a test makes; each is closed at the end whatever happened."""
    made: list[McpHub] = []
    yield made
    for hub in made:
        await hub.aclose()


def tool(hub: McpHub, name: str) -> Tool:
    found = {t.name: t for t in hub.tools()}
    return found[PREFIX + name]


async def call(hub: McpHub, which: str, ctx: ToolContext, **args: Any) -> ToolOutput:
    """Run a tool as the executor does: check the input, then run."""
    t = tool(hub, which)
    return await t.run(tool_arguments(t, args), ctx)


@pytest.fixture(params=["stdio", "http"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "stdio":
        yield stdio_spec()
        return
    with http_server(tmp_path / "http-server.log") as url:
        yield http_spec(url)


async def test_tools_resources_and_prompts_through_the_tool_objects(
    spec: McpServerSpec, hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext, tmp_path: Path
) -> None:
    hub = hub_for(mewcode_home, spec)
    hubs.append(hub)
    await hub.settle()
    (status,) = hub.statuses()
    assert (status.state, status.tools, status.resources, status.prompts) == (
        "connected",
        10,
        True,
        True,
    )
    names = {t.name for t in hub.tools()}
    assert {PREFIX + n for n in ("echo", "list_resources", "read_resource", "get_prompt")} <= names

    echo = tool(hub, "echo")
    assert (echo.read_only, echo.plan_mode) == (True, "offered")
    assert not read_only_trusted(echo)  # the spec does not trust the server's hints
    assert echo.summary({"text": "hi"}) == 'everything › echo {"text": "hi"}'
    assert await call(hub, "echo", ctx, text="hi") == ToolOutput("echo: hi")

    witness = tmp_path / "witness.txt"
    writer = tool(hub, "write_witness")
    assert (writer.read_only, writer.plan_mode) == (False, "hidden")
    out = await call(hub, "write_witness", ctx, path=str(witness), text="done")
    assert not out.is_error and witness.read_text() == "done"

    image = await call(hub, "image", ctx)
    assert isinstance(image.content, list) and isinstance(image.content[0], ImageBlock)
    assert image.content[0].media_type == "image/png"
    structured = await call(hub, "structured", ctx, n=3)
    assert '"square": 9' in str(structured.content)
    failed = await call(hub, "fail", ctx)
    assert failed.is_error and "failed on purpose" in str(failed.content)

    listed = await call(hub, "list_resources", ctx)
    assert "note://readme" in str(listed.content)
    read = await call(hub, "read_resource", ctx, uri="note://readme")
    assert "The everything server's readme." in str(read.content)
    prompt = await call(hub, "get_prompt", ctx, name="greet", arguments={"name": "Bo"})
    assert "user: Please greet Bo warmly." in str(prompt.content)


async def test_input_that_breaks_the_schema_names_the_field(
    hubs: list[McpHub], mewcode_home: Path
) -> None:
    hub = hub_for(mewcode_home, stdio_spec())
    hubs.append(hub)
    await hub.settle()
    with pytest.raises(ToolError, match="text: 3 is not of type 'string'"):
        tool_arguments(tool(hub, "echo"), {"text": 3})
    with pytest.raises(ToolError, match="'text' is a required property"):
        tool_arguments(tool(hub, "echo"), {})


async def test_a_hanging_server_fails_at_the_timeout_without_delaying_a_healthy_one(
    hubs: list[McpHub], mewcode_home: Path
) -> None:
    hang = stdio_spec("hang", MCP_TEST_MODE="hang")
    hub = hub_for(mewcode_home, hang, stdio_spec(), startup_timeout_s=3.0)
    hubs.append(hub)
    started = time.monotonic()
    hub.start()
    await until(lambda: hub.statuses()[1].state == "connected")
    healthy_after = time.monotonic() - started
    assert hub.statuses()[0].state == "connecting"
    await hub.settle()
    hang_after = time.monotonic() - started
    states = [(s.state, s.error) for s in hub.statuses()]
    assert states == [("failed", "did not start within 3 s"), ("connected", "")]
    assert healthy_after < 3.0 <= hang_after < 4.0


async def test_a_server_that_dies_at_start_fails_with_its_last_stderr_line(
    hubs: list[McpHub], mewcode_home: Path
) -> None:
    hub = hub_for(mewcode_home, stdio_spec(MCP_TEST_MODE="die"))
    hubs.append(hub)
    await hub.settle()
    (status,) = hub.statuses()
    assert status.state == "failed"
    assert status.error.endswith("fatal: EVERYTHING_TOKEN is not set")
    log = mewcode_home / "logs" / "mcp-everything.log"
    assert "fatal: EVERYTHING_TOKEN is not set" in log.read_text()


async def test_the_servers_stderr_reaches_its_log_redacted_and_whole(
    hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext, tmp_path: Path
) -> None:
    token = "tok-only-this-server-knows-1234"  # known from the server's env, not by format
    password = "Pg-s3cret-" + "9" * 8
    said = tmp_path / "stderr.txt"
    said.write_text(f"using {token}\nconnect postgres://app:{password}@db/app\nready\n")
    spec = stdio_spec(MCP_TEST_STDERR_FILE=str(said), EVERYTHING_TOKEN=token)
    hub = hub_for(mewcode_home, spec)
    hubs.append(hub)
    await hub.settle()
    assert await call(hub, "echo", ctx, text="x") == ToolOutput("echo: x")  # logs it again
    await hub.aclose()  # the server stops: what it wrote last is in the log
    log = (mewcode_home / "logs" / "mcp-everything.log").read_text()
    assert token not in log and password not in log
    assert log.count("connect postgres://app:[REDACTED]@db/app\nready\n") == 2
    assert log.count("using [REDACTED]\n") == 2


async def test_a_crash_mid_session_is_an_error_then_the_next_call_restarts_it(
    hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext
) -> None:
    hub = hub_for(mewcode_home, stdio_spec(), max_restarts=1)
    hubs.append(hub)
    changes: list[str] = []
    hub.watch(lambda: changes.append(hub.statuses()[0].state))
    await hub.settle()
    crashed = await call(hub, "crash", ctx)
    assert crashed.is_error
    assert crashed.content == (
        "MCP server 'everything' exited during the call: crash tool called: exiting"
    )
    assert hub.statuses()[0].state == "failed"
    assert await call(hub, "echo", ctx, text="back") == ToolOutput("echo: back")
    assert hub.statuses()[0].restarts == 1
    await until(lambda: "failed" in changes and changes[-1] == "connected")

    await call(hub, "crash", ctx)
    refused = await call(hub, "echo", ctx, text="again")
    assert refused.is_error and str(refused.content).endswith(
        "restarted 1 times, use /mcp to reconnect"
    )
    status = await hub.reconnect("everything")
    assert (status.state, status.restarts) == ("connected", 0)
    assert await call(hub, "echo", ctx, text="x") == ToolOutput("echo: x")


async def test_cached_tools_are_offered_before_connecting_and_only_for_the_same_spec(
    hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext, tmp_path: Path
) -> None:
    hide = tmp_path / "hide.txt"
    spec = stdio_spec(MCP_TEST_HIDE_FILE=str(hide))
    first = hub_for(mewcode_home, spec)
    hubs.append(first)
    await first.settle()
    await first.aclose()

    hide.write_text("echo")  # the same configuration, but the server dropped a tool
    second = hub_for(mewcode_home, spec)
    hubs.append(second)
    assert PREFIX + "echo" in {t.name for t in second.tools()}
    version = second.version
    await second.settle()  # the cache makes the tools known: nothing starts
    assert second.statuses()[0].state == "pending"
    dropped = await call(second, "echo", ctx, text="x")
    assert dropped == ToolOutput("server everything no longer offers tool echo", is_error=True)
    assert second.statuses()[0].state == "connected"
    assert second.version > version
    assert PREFIX + "echo" not in {t.name for t in second.tools()}

    changed = hub_for(mewcode_home, stdio_spec(MCP_TEST_HIDE_FILE=str(hide), OTHER="1"))
    hubs.append(changed)
    assert changed.tools() == []


async def test_our_api_key_does_not_reach_the_server_but_its_own_env_does(
    hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    hub = hub_for(mewcode_home, stdio_spec(SERVER_TOKEN="t"))
    hubs.append(hub)
    await hub.settle()
    keys = str((await call(hub, "env_keys", ctx)).content).split()
    assert "SERVER_TOKEN" in keys and "PATH" in keys
    assert "ANTHROPIC_API_KEY" not in keys


async def test_aclose_leaves_no_server_process(
    hubs: list[McpHub], mewcode_home: Path, tmp_path: Path
) -> None:
    pid_files = [tmp_path / "ok.pid", tmp_path / "hang.pid"]
    hub = hub_for(
        mewcode_home,
        stdio_spec("ok", MCP_TEST_PID_FILE=str(pid_files[0])),
        stdio_spec("hang", MCP_TEST_PID_FILE=str(pid_files[1]), MCP_TEST_MODE="hang"),
    )
    hubs.append(hub)
    hub.start()
    await until(lambda: hub.statuses()[0].state == "connected" and pid_files[1].exists())
    pids = [int(p.read_text()) for p in pid_files]
    assert all(alive(pid) for pid in pids)
    await hub.aclose()
    assert [alive(pid) for pid in pids] == [False, False]
    assert {s.state for s in hub.statuses()} == {"closed"}


async def test_cancelling_a_slow_call_returns_promptly(
    hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext, tmp_path: Path
) -> None:
    hub = hub_for(mewcode_home, stdio_spec())
    hubs.append(hub)
    await hub.settle()
    started = tmp_path / "started"
    running = asyncio.ensure_future(call(hub, "sleep", ctx, seconds=30, started=str(started)))
    await until(started.exists)
    asked = time.monotonic()
    ctx.cancel.set()
    out = await running
    assert time.monotonic() - asked < 1.5
    assert out == ToolOutput("MCP call to 'everything' cancelled", is_error=True)
    ctx.cancel.clear()
    assert await call(hub, "echo", ctx, text="still") == ToolOutput("echo: still")


async def test_a_call_past_the_tool_timeout_is_an_error(
    hubs: list[McpHub], mewcode_home: Path, ctx: ToolContext
) -> None:
    hub = hub_for(mewcode_home, stdio_spec(), tool_timeout_s=1.0)
    hubs.append(hub)
    await hub.settle()
    out = await call(hub, "sleep", ctx, seconds=30)
    assert out == ToolOutput(
        "MCP server 'everything' did not answer tool 'sleep' within 1 s", is_error=True
    )


async def test_untrusted_servers_wait_for_trust_and_cannot_be_reconnected(
    mewcode_home: Path,
) -> None:
    hub = McpHub([], untrusted=[stdio_spec("proj")], home=mewcode_home)
    assert [(s.name, s.state) for s in hub.statuses()] == [("proj", "needs-trust")]
    with pytest.raises(MewCodeError, match="not trusted"):
        await hub.reconnect("proj")
    with pytest.raises(MewCodeError, match="no MCP server named 'nope'"):
        await hub.reconnect("nope")
    await hub.aclose()

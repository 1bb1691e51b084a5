"""-p: MCP servers settle before the first request; the init line lists them and their tools."""

from __future__ import annotations

import io
import json

from agent_core.mcp.model import McpServerStatus
from mewcode_tui.headless import run_headless
from tests.tui.fakes import FakeRuntime

USER_FILE = "/home/u/.mewcode/mcp.json"


class SettlingRuntime(FakeRuntime):
    """A session whose MCP servers connect (or fail) only when settle_tools is awaited."""

    def __init__(self, project) -> None:
        super().__init__(project)
        self.settled = False
        self.mcp = [McpServerStatus(name, "stdio", "pending", USER_FILE) for name in SERVER_NAMES]
        self.settings_problems = ["/p/.mcp.json: server 'bad name': may use only letters"]

    def tool_names(self) -> list[str]:
        mcp = ["mcp__github__create_issue"] if self.settled else []
        return [*super().tool_names(), *mcp]

    async def settle_tools(self) -> None:
        self.settled = True
        self.mcp = [
            McpServerStatus("github", "stdio", "connected", USER_FILE, tools=1),
            McpServerStatus("weather", "http", "failed", USER_FILE, error="refused"),
            McpServerStatus("cached", "stdio", "pending", USER_FILE, tools=3),
            McpServerStatus("shady", "stdio", "needs-trust", "/p/.mcp.json"),
        ]


SERVER_NAMES = ["github", "weather", "cached", "shady"]


async def test_the_init_line_lists_settled_servers_and_their_tools(project) -> None:
    runtime = SettlingRuntime(project)
    out, err = io.StringIO(), io.StringIO()
    code = await run_headless(runtime, "hi", "stream-json", out, err)
    assert code == 0
    init = json.loads(out.getvalue().splitlines()[0])
    assert init["subtype"] == "init"
    assert init["mcp_servers"] == [
        {"name": "github", "status": "connected"},
        {"name": "weather", "status": "failed"},
        {"name": "cached", "status": "pending"},
        {"name": "shady", "status": "needs-trust"},
    ]
    assert "mcp__github__create_issue" in init["tools"] and "Read" in init["tools"]
    # A config problem is a warning line, as a settings problem is; so is a server
    # that failed to start (-p has no /mcp list to show why).
    assert err.getvalue() == (
        "mewcode: warning: /p/.mcp.json: server 'bad name': may use only letters\n"
        "mewcode: warning: MCP server 'weather' failed: refused\n"
    )


async def test_text_output_settles_the_servers_before_the_turn(project) -> None:
    runtime = SettlingRuntime(project)
    seen: list[bool] = []
    original = runtime.run_turn

    async def run_turn(text, events=None, **options):
        seen.append(runtime.settled)
        return await original(text, events, **options)

    runtime.run_turn = run_turn  # type: ignore[method-assign]
    assert await run_headless(runtime, "hi", "text", io.StringIO(), io.StringIO()) == 0
    assert seen == [True]


async def test_no_servers_is_an_empty_list(project) -> None:
    out = io.StringIO()
    assert await run_headless(FakeRuntime(project), "hi", "stream-json", out, io.StringIO()) == 0
    assert json.loads(out.getvalue().splitlines()[0])["mcp_servers"] == []

"""/mcp lists the session's MCP servers and reconnects one; the status bar counts them."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.mcp.model import McpServerStatus
from agent_core.usage import Usage
from mewcode_tui.screens.mcp_servers import McpServersScreen
from mewcode_tui.widgets.tool_call_view import ToolCallDetail, ToolCallLine
from tests.tui.conftest import run_one_turn, session_started, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result
from tests.tui.test_main_commands import notices, run
from tests.tui.test_main_tools import screen_lines

LONG_ERROR = (
    "did not start within 10 s: npm ERR! could not determine executable to run; "
    "the package @acme/server-weather has no bin entry named server-weather"
)
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
        error=LONG_ERROR,
        restarts=3,
        target="https://weather.example/mcp",
    ),
    McpServerStatus("notes", "stdio", "pending", "/work/p/.mcp.json", prompts=True),
    McpServerStatus("shady", "stdio", "needs-trust", "/work/p/.mcp.json"),
]


class SlowReconnects(FakeRuntime):
    """Reconnects wait for the test to let them end, then report the server connected."""

    def __init__(self, project) -> None:
        super().__init__(project)
        self.mcp = list(SERVERS)
        self.release = asyncio.Event()

    async def mcp_reconnect(self, name: str) -> McpServerStatus:
        self.mcp_reconnects.append(name)
        await self.release.wait()
        self.mcp = [
            McpServerStatus(s.name, s.transport, "connected", s.source, tools=4)
            if s.name == name
            else s
            for s in self.mcp
        ]
        return next(s for s in self.mcp if s.name == name)


def text_of(app) -> str:
    return "\n".join(screen_lines(app))


def words_of(app) -> str:
    """The words inside the dialog's borders in reading order (wrapped text reads as one)."""
    inside = [
        line[line.index("│") + 1 : line.rindex("│")]
        for line in screen_lines(app)
        if line.count("│") >= 2
    ]
    return " ".join(" ".join(inside).split())


async def open_list(pilot, app, runtime) -> McpServersScreen:
    screen = await session_started(pilot, app)
    await run_without_notice(pilot, screen, "/mcp")
    await wait_until(pilot, lambda: isinstance(app.screen, McpServersScreen))
    await pilot.pause()
    return app.screen


async def run_without_notice(pilot, screen, text: str) -> None:
    await pilot.press(*text)
    screen.menu.hide()
    await pilot.press("enter")


async def test_the_list_shows_states_tools_and_errors_at_80x24(make_app, project):
    runtime = SlowReconnects(project)
    app = make_app(runtime)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_list(pilot, app, runtime)
        shown = text_of(app)
        for icon, name, state in [
            ("✓", "github", "connected"),
            ("✗", "weather", "failed"),
            ("○", "notes", "pending"),
            ("⚠", "shady", "needs trust"),
        ]:
            line = next(line for line in shown.splitlines() if f" {name} " in line)
            assert f"{icon} {name} " in line and f" {state} " in line, line
        github = next(line for line in shown.splitlines() if " github " in line)
        assert "stdio" in github and "user" in github and "12 tools +res" in github
        notes = next(line for line in shown.splitlines() if " notes " in line)
        assert "project" in notes and "0 tools +prompts" in notes
        # The error is cut to one line in the list, with an ellipsis inside the dialog.
        assert "did not start within 10 s: npm ERR!" in shown and "…" in shown
        assert "server-weather has no bin entry" not in shown
        # Selecting the failed server shows its whole error, file and restarts below.
        await pilot.press("down")
        await pilot.pause()
        shown = words_of(app)
        assert "no bin entry named server-weather" in shown
        assert "https://weather.example/mcp" in shown and "restarted 3 times" in shown
        assert "/work/p/.mcp.json" in shown
        # Nothing of the list is cut off at 80 columns: every row's last column is on screen.
        assert "0 tools +prompts" in text_of(app) and "Esc" in text_of(app)


async def test_reconnect_shows_reconnecting_then_the_new_state(make_app, project):
    runtime = SlowReconnects(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await open_list(pilot, app, runtime)
        await pilot.press("down")  # weather, failed
        await pilot.press("r")
        await wait_until(pilot, lambda: "reconnecting…" in text_of(app))
        assert runtime.mcp_reconnects == ["weather"]
        runtime.release.set()
        await wait_until(pilot, lambda: "reconnecting…" not in text_of(app))
        weather = next(line for line in screen_lines(app) if " weather " in line)
        assert "✓ weather" in weather and " connected " in weather and "4 tools" in weather
        assert "did not start" not in text_of(app)
        # Enter reconnects too; a server waiting for trust is never started from here.
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert runtime.mcp_reconnects == ["weather"]
        assert "not trusted" in words_of(app)
        await pilot.press("up", "enter")
        await wait_until(pilot, lambda: runtime.mcp_reconnects == ["weather", "notes"])
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not dialog)


async def test_the_open_list_and_the_status_bar_follow_the_servers(make_app, project):
    runtime = FakeRuntime(project)
    runtime.mcp = [
        McpServerStatus("github", "stdio", "pending", "/home/u/.mewcode/mcp.json"),
        McpServerStatus("weather", "http", "pending", "/work/p/.mcp.json"),
        McpServerStatus("shady", "stdio", "needs-trust", "/work/p/.mcp.json"),
    ]
    app = make_app(runtime)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await session_started(pilot, app)
        assert runtime.mcp_started == 1
        await wait_until(pilot, lambda: "MCP 0/2 +1 untrusted" in text_of(app))
        await run_without_notice(pilot, screen, "/mcp")
        await wait_until(pilot, lambda: isinstance(app.screen, McpServersScreen))
        # Servers connect after the first paint: the watcher redraws the list and the bar.
        runtime.mcp_changed(
            [
                McpServerStatus("github", "stdio", "connected", "/u/mcp.json", tools=2),
                McpServerStatus("weather", "http", "failed", "/p/.mcp.json", error="refused"),
                runtime.mcp[2],
            ]
        )
        await wait_until(pilot, lambda: "MCP 1/2 1 failed +1 untrusted" in text_of(app))
        assert "✗ weather" in text_of(app) and "⚠ shady" in text_of(app)
        assert screen.status.mcp_failed == 1
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        # The host tells each server that changed (servers never leave a session's list).
        weather = McpServerStatus("weather", "http", "connected", "/p/.mcp.json", tools=1)
        runtime.mcp_changed([runtime.mcp[0], weather, runtime.mcp[2]])
        await wait_until(pilot, lambda: "MCP 2/2 +1 untrusted" in text_of(app))
        assert "failed" not in screen_lines(app)[-2] + screen_lines(app)[-1]


async def test_no_servers_says_where_to_configure_them(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        assert "MCP 0" in text_of(app)
        await run(pilot, screen, "/mcp")
        assert "No MCP servers configured" in notices(screen)[-1]
        assert "mcp.json" in notices(screen)[-1] and ".mcp.json" in notices(screen)[-1]
        assert not isinstance(app.screen, McpServersScreen)


async def mcp_round(send, prompt):
    await send(ev.TurnStarted(turn_id="t", input=prompt))
    await send(ev.AssistantMessage(content=[], usage=Usage()))
    # As the hub's tools sum themselves up (server › tool, then the arguments), and bare.
    issue = 'github › create_issue {"title": "x"}'
    await send(tool_call("m1", "mcp__github__create_issue", issue, title="x"))
    await send(tool_call("m2", "mcp__notes__search", "", query="q"))
    await send(tool_result("m1", "mcp__github__create_issue", "created #7", 40))
    await send(tool_result("m2", "mcp__notes__search", "3 notes", 9))


async def test_an_mcp_call_line_names_the_server_and_opens_to_the_full_name(make_app, project):
    runtime = FakeRuntime(project, [mcp_round])
    app = make_app(runtime)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        lines = {line.record.call_id: line for line in screen.query(ToolCallLine)}
        issue = str(lines["m1"].render())
        assert 'github › create_issue {"title": "x"}' in issue and "40ms" in issue
        assert "mcp__" not in issue and issue.count("create_issue") == 1
        assert "notes › search" in str(lines["m2"].render())
        await pilot.press("tab")  # the latest call: notes › search
        await pilot.press("up", "right")
        await wait_until(pilot, lambda: bool(screen.query(ToolCallDetail)))
        assert "tool mcp__github__create_issue" in text_of(app)

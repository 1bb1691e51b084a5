"""Escape sequences in what the TUI shows are drawn escaped, never written to the terminal.

Textual passes ESC, C1 controls and bidirectional overrides through to the terminal
(it strips only BEL, BS, VT, FF and CR), so each place that shows text from a
repository, a server, a hook or the model must escape it. Each test repaints the
whole screen and checks what would be written, then that the escaped form is shown.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agent_core import events as ev
from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.config.settings import load_settings
from agent_core.events import SessionSummary
from agent_core.mcp.hub import McpHub
from agent_core.mcp.model import McpServerSpec, McpServerStatus
from agent_core.usage import Usage
from mewcode_tui.app import MewCodeApp
from mewcode_tui.screens.approval import ApprovalScreen
from mewcode_tui.screens.mcp_servers import McpServersScreen
from mewcode_tui.screens.resume import ResumeScreen
from mewcode_tui.screens.trust import TrustScreen
from mewcode_tui.session_start import TuiOptions
from mewcode_tui.transcript import NoticeEntry
from mewcode_tui.widgets.completion_menu import CompletionMenu
from mewcode_tui.widgets.tool_call_view import ToolCallDetail
from tests.helpers.escapes import (
    ERASE,
    OSC52,
    PAYLOAD,
    SHOWN,
    SHOWN_PAYLOAD,
    write_hostile_hooks,
    written_controls,
)
from tests.helpers.scripted import EchoTool, ScriptedProvider, Step
from tests.mcp_servers.launch import HOSTILE
from tests.tui.conftest import ask_until_approval, run_one_turn, session_started, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result
from tests.tui.test_main_tools import screen_lines

SIZE = (120, 60)


def shown(app) -> str:
    """The screen's words in reading order: text wrapped inside a dialog reads as one."""
    inside = [
        line[line.index("│") + 1 : line.rindex("│")] if line.count("│") >= 2 else line
        for line in screen_lines(app)
    ]
    return " ".join(" ".join(inside).split())


def notices(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]


async def hostile_turn(send, prompt):
    """A hook's notice, a listing of hostile file names, a hook's denial and an answer."""
    await send(ev.TurnStarted(turn_id="t", input=prompt))
    await send(ev.Notice(level="info", message="hook says " + PAYLOAD))
    await send(ev.AssistantMessage(content=[], usage=Usage()))
    await send(tool_call("l1", "LS", f"src{ERASE}", path=f"src{ERASE}"))
    await send(tool_result("l1", "LS", f"a.py\nevil{PAYLOAD}.py\n"))
    await send(tool_call("b1", "Bash", f"echo {OSC52}", command=f"echo {PAYLOAD}"))
    await send(
        ev.PermissionDecision(call_id="b1", decision="deny", layer="hook", reason="no " + PAYLOAD)
    )
    await send(ev.MessageDelta(text="The file is called evil" + PAYLOAD))
    text = [{"type": "text", "text": "The file is called evil" + PAYLOAD}]
    await send(ev.AssistantMessage(content=text, usage=Usage()))


async def test_a_turns_notices_tool_calls_and_answer_are_drawn_escaped(make_app, project):
    runtime = FakeRuntime(project, [hostile_turn])
    app = make_app(runtime)
    async with app.run_test(size=SIZE) as pilot:
        await run_one_turn(pilot, app, runtime)
        await pilot.press("ctrl+o")  # every call's input and output on screen
        await wait_until(pilot, lambda: len(app.main_screen.query(ToolCallDetail)) == 2)
        await pilot.pause()
        assert written_controls(app) == []
        screen = shown(app)
        assert "evil" + SHOWN_PAYLOAD + ".py" in screen  # the listing, expanded
        assert "hook says " + SHOWN_PAYLOAD in screen  # the notice
        assert "LS src\\x1b[2J" in screen  # the call line
        assert "denied: no " + SHOWN in screen  # the hook's reason
        assert "echo \\u001b]52;c;" in screen and "\\u202e" in screen  # the input (JSON)
        assert "The file is called evil" + SHOWN_PAYLOAD in screen  # the answer


async def open_mcp_list(pilot, app, screen) -> None:
    screen.prompt.insert("/mcp")
    await pilot.pause()
    screen.menu.hide()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, McpServersScreen))


def crashing_server(home: Path) -> McpServerSpec:
    return McpServerSpec(
        name="hostile",
        transport="stdio",
        source=str(home / "mcp.json"),
        scope="user",
        command=sys.executable,
        args=(str(HOSTILE),),
        env={"HOSTILE_CRASH": "cannot start " + PAYLOAD},
    )


def real_app(paths, project, *, mcp: McpHub | None = None, steps: list[Step] | None = None):
    settings = load_settings(paths)
    options = TuiOptions(cwd=project, paths=paths, settings=settings)

    async def opener(opts, provider):
        return await Runtime.open(
            RuntimeOptions(
                cwd=opts.cwd,
                paths=opts.paths,
                settings=opts.settings,
                provider=provider,
                tools=[EchoTool()],
                mcp=mcp,
            )
        )

    provider = ScriptedProvider(steps or [Step(text="hi")])
    return MewCodeApp(options, provider=provider, opener=opener, clock=lambda: 0.0)


@pytest.mark.slow
async def test_a_crashed_mcp_servers_stderr_is_drawn_escaped_in_the_mcp_list(
    paths, project, mewcode_home
):
    hub = McpHub([crashing_server(mewcode_home)], home=mewcode_home, startup_timeout_s=30)
    app = real_app(paths, project, mcp=hub)
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_started(pilot, app)

        def failed() -> bool:
            return [s.state for s in screen.starter.runtime.mcp_servers()] == ["failed"]

        await wait_until(pilot, failed, timeout=30)
        await open_mcp_list(pilot, app, screen)
        await wait_until(pilot, lambda: "cannot start" in shown(app))
        assert written_controls(app) == []
        assert "exited during start-up: cannot start " + SHOWN_PAYLOAD in shown(app)


@pytest.mark.slow
async def test_hook_output_is_drawn_escaped(paths, project, mewcode_home, tmp_path):
    write_hostile_hooks(paths.user_settings, tmp_path)
    app = real_app(paths, project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_started(pilot, app)
        await wait_until(pilot, lambda: any("broke" in n for n in notices(screen)))
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: any("refused" in n for n in notices(screen)))
        await wait_until(pilot, lambda: "refused" in shown(app))
        assert written_controls(app) == []
        assert "note " + SHOWN_PAYLOAD in shown(app)  # systemMessage
        assert "exited 1: broke " + SHOWN_PAYLOAD in shown(app)  # a failing hook's stderr


async def test_the_mcp_list_draws_names_commands_and_errors_escaped(make_app, project):
    runtime = FakeRuntime(project)
    runtime.mcp = [
        McpServerStatus(
            "notes",
            "stdio",
            "failed",
            str(project / ".mcp.json"),
            error="bad " + PAYLOAD,
            target=f"npx {OSC52}",
        )
    ]
    app = make_app(runtime)
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_started(pilot, app)
        await open_mcp_list(pilot, app, screen)
        await wait_until(pilot, lambda: "error: bad" in shown(app))
        assert written_controls(app) == []
        assert "npx " + SHOWN in shown(app) and "error: bad " + SHOWN_PAYLOAD in shown(app)


async def test_the_approval_dialog_shows_a_hidden_escape_in_the_command(make_app, project):
    async def asks(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        request = ev.ApprovalRequested(
            approval_id="a1",
            call_id="b1",
            tool="Bash",
            input={"command": f"echo hi {PAYLOAD}# rm -rf ~"},
            reason="asked by " + PAYLOAD,
            layer="hook",
            suggested_rules=[f"Bash(echo {ERASE}:*)"],
        )
        await runtime.ask(send, request)

    runtime = FakeRuntime(project, [asks])
    app = make_app(runtime)
    async with app.run_test(size=SIZE) as pilot:
        await ask_until_approval(pilot, app, "go")
        assert isinstance(app.screen, ApprovalScreen)
        await pilot.pause()
        assert written_controls(app) == []
        assert "command: echo hi " + SHOWN_PAYLOAD + "# rm -rf ~" in shown(app)
        assert "asked by " + SHOWN in shown(app) and "Bash(echo \\x1b[2J:*)" in shown(app)


async def test_the_trust_dialog_shows_a_cloned_servers_command_escaped(paths, project):
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"notes": {"command": "npx", "args": [PAYLOAD]}}})
    )
    settings = load_settings(paths)
    options = TuiOptions(cwd=project, paths=paths, settings=settings, ask_trust=True)
    runtime = FakeRuntime(project)

    async def opener(opts, provider):
        return runtime

    app = MewCodeApp(options, provider=ScriptedProvider([]), opener=opener, clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        await pilot.pause()
        assert written_controls(app) == []
        assert "MCP server notes (npx '" + SHOWN_PAYLOAD + "')" in shown(app)


@pytest.mark.slow
async def test_the_resume_picker_and_the_at_completion_show_names_escaped(make_app, project):
    (project / f"evil{ERASE}.py").write_text("x = 1\n")
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_started(pilot, app)
        menu = screen.query_one(CompletionMenu)
        await pilot.press(*"look at @evil")
        await wait_until(pilot, lambda: menu.is_open)
        assert menu.candidates[0].value == f"@evil{ERASE}.py"  # the prompt gets the real name
        await pilot.pause()
        assert written_controls(app) == []
        assert "evil\\x1b[2J.py" in shown(app)
        await pilot.press("escape")
        prompt = "fix the bug in " + PAYLOAD
        listing = [SessionSummary("s1", prompt, 999.0, 2, 1_000)]
        app.push_screen(ResumeScreen(listing, now=1000.0))
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.pause()
        assert written_controls(app) == []
        assert "fix the bug in " + SHOWN in shown(app)

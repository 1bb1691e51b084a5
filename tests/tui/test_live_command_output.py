"""A running command's output shows in its opened tool line, and stays after Esc and a resume
(issue 25, item 1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_core.messages import ToolResultBlock
from mewcode_tui.app import MewCodeApp
from mewcode_tui.widgets.tool_call_view import ToolCallDetail
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import wait_until
from tests.tui.test_resume_looks_live import app_over_runtime as resumable_app

TICKS = "for i in $(seq 1 400); do echo tick $i; sleep 0.05; done"


def app_over_runtime(options, provider: ScriptedProvider) -> MewCodeApp:
    return resumable_app(options, provider, allow=("Bash",))


async def start_ticking(pilot, app: MewCodeApp) -> None:
    """Ask for the ticking command and wait until it runs."""
    screen = app.main_screen
    await wait_until(pilot, lambda: screen.session_ready)
    await pilot.press(*"tick please", "enter")
    await wait_until(pilot, lambda: "b1" in screen.transcript.calls)
    await wait_until(pilot, lambda: screen.transcript.calls["b1"].status == "running")


def shown(app: MewCodeApp, call_id: str) -> str:
    """The opened call's detail as painted ("" while it is not open)."""
    line = app.main_screen.chat.line_for(call_id)
    detail = line.detail if line is not None else None
    if not isinstance(detail, ToolCallDetail):
        return ""
    return str(detail.query_one(".tool-detail--body").render())


def tick_number(text: str) -> int:
    numbers = [
        int(w) for line in text.splitlines() if line.startswith("tick ") for w in line.split()[1:2]
    ]
    return max(numbers, default=0)


@pytest.mark.slow
async def test_an_opened_command_shows_its_ticks_while_it_runs_and_after_esc(options) -> None:
    provider = ScriptedProvider(
        [Step(calls=[("b1", "Bash", {"command": TICKS})]), Step(text="ok, stopped")]
    )
    app = app_over_runtime(options, provider)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.main_screen
        await start_ticking(pilot, app)
        await pilot.press("tab", "enter")  # into the tree, open the call
        await wait_until(pilot, lambda: tick_number(shown(app, "b1")) >= 3, timeout=15)
        first = tick_number(shown(app, "b1"))
        assert "output so far" in shown(app, "b1")
        # Updated while it runs, not only once.
        await wait_until(pilot, lambda: tick_number(shown(app, "b1")) > first + 2, timeout=15)

        await pilot.press("escape")  # back to the prompt
        await pilot.press("escape")  # cancel the turn
        await wait_until(pilot, lambda: not screen.turn_active, timeout=15)
        record = screen.transcript.calls["b1"]
        assert record.status == "cancelled"
        body = shown(app, "b1")
        assert "Interrupted by the user after" in body and "Output so far:" in body
        last = tick_number(body)
        assert last > first + 2

        # What the line shows is what the model got.
        await pilot.press(*"what happened", "enter")
        await wait_until(pilot, lambda: len(provider.requests) == 2)
        results = [
            b
            for m in provider.requests[1].messages
            for b in m.content
            if isinstance(b, ToolResultBlock)
        ]
        got = results[-1].content
        assert isinstance(got, str) and f"tick {last}\n" in got + "\n"
        assert tick_number(got) == last


@pytest.mark.slow
async def test_a_resumed_session_shows_the_interrupted_output_as_live(options) -> None:
    provider = ScriptedProvider([Step(calls=[("b1", "Bash", {"command": TICKS})])])
    app = app_over_runtime(options, provider)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.main_screen
        await start_ticking(pilot, app)
        await wait_until(
            pilot, lambda: tick_number(screen.transcript.calls["b1"].tail) >= 3, timeout=15
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.turn_active, timeout=15)
        live = screen.transcript.calls["b1"]
        live_view = (live.status, live.output)
        session_id = screen.session.session_id
    assert live_view[0] == "cancelled" and "tick 3" in live_view[1]

    again = app_over_runtime(replace(options, resume_id=session_id), ScriptedProvider([]))
    async with again.run_test(size=(100, 40)) as pilot:
        screen = again.main_screen
        await wait_until(pilot, lambda: "b1" in screen.transcript.calls)
        resumed = screen.transcript.calls["b1"]
        assert (resumed.status, resumed.output) == live_view
        await pilot.press("tab", "enter")
        await wait_until(pilot, lambda: "Output so far:" in shown(again, "b1"))
        assert f"tick {tick_number(live_view[1])}" in shown(again, "b1")


async def test_an_opened_bash_output_call_shows_the_shells_last_lines(make_app, project) -> None:
    from agent_core import events as ev
    from tests.tui.fakes import FakeRuntime, tool_call, tool_result

    async def script(send, _text: str) -> None:
        await send(tool_call("o1", "BashOutput", "bash_1", bash_id="bash_1"))
        await send(ev.PermissionDecision(call_id="o1", decision="allow", layer="mode", reason=""))
        lines = "\n".join(f"server line {i}" for i in range(61, 101))
        await send(ev.ToolOutputUpdate("o1", lines, 5_000, shell_id="bash_1"))
        await send(tool_result("o1", "BashOutput", "Shell bash_1: running (3 s)\n(no new output)"))
        # A late update for a finished call changes nothing.
        await send(ev.ToolOutputUpdate("o1", "too late", 9_000))

    app = make_app(FakeRuntime(project, [script]))
    async with app.run_test(size=(100, 60)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"check the server", "enter")
        await wait_until(pilot, lambda: not screen.turn_active and "o1" in screen.transcript.calls)
        await pilot.press("tab", "enter")
        await wait_until(pilot, lambda: "bash_1: latest output" in shown(app, "o1"))
        body = shown(app, "o1")
        assert "(no new output)" in body and "server line 100" in body and "5.0 KB" in body
        assert "too late" not in body


@pytest.mark.slow
async def test_a_command_that_times_out_keeps_its_ticks_in_the_opened_line(options) -> None:
    command = {"command": TICKS, "timeout": 2_000}
    provider = ScriptedProvider([Step(calls=[("b1", "Bash", command)]), Step(text="too slow")])
    app = app_over_runtime(options, provider)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.main_screen
        await start_ticking(pilot, app)
        await pilot.press("tab", "enter")
        await wait_until(pilot, lambda: "output so far" in shown(app, "b1"), timeout=15)
        await wait_until(pilot, lambda: screen.transcript.calls["b1"].status == "error", timeout=15)
        body = shown(app, "b1")
        assert "Command timed out after 2 s" in body and tick_number(body) >= 3
        assert "output so far" not in body  # the result, as the model got it

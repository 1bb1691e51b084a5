"""The working indicator above the prompt, and the Bash line's command and description."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.tools.bash import BashParams, BashTool
from agent_core.usage import Usage
from mewcode_tui.widgets.working_indicator import WorkingIndicator
from tests.tui.conftest import session_started, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result


class SteppedClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def shown(app) -> str:
    """The indicator's line as drawn, or "" when it is not on screen."""
    indicator = app.main_screen.query_one(WorkingIndicator)
    if not indicator.display or indicator.region.height == 0:
        return ""
    return str(indicator.render())


async def test_the_indicator_counts_while_waiting_and_goes_when_text_streams(make_app, project):
    clock = SteppedClock()
    first_delta, tools, tool_done, finish = (asyncio.Event() for _ in range(4))

    async def slow_start(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.Status(phase="thinking"))
        await first_delta.wait()
        await send(ev.Status(phase="streaming"))
        await send(ev.MessageDelta(text="Looking."))
        await tools.wait()
        await send(ev.AssistantMessage(content=[], usage=Usage()))
        await send(tool_call("c1", "Bash", "pytest -q"))
        await send(ev.Status(phase="tool", detail="pytest -q"))
        await tool_done.wait()
        await send(tool_result("c1", "Bash", "ok"))
        await send(ev.Status(phase="thinking"))
        await finish.wait()

    runtime = FakeRuntime(project, [slow_start])
    app = make_app(runtime, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        assert shown(app) == ""
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: "Thinking…" in shown(app))
        clock.now += 3
        await wait_until(pilot, lambda: "3s" in shown(app))  # the screen's clock, ticking
        assert "Esc to interrupt" in shown(app)
        indicator = screen.query_one(WorkingIndicator)
        assert indicator.region.bottom <= screen.prompt.region.y  # just above the prompt
        first_delta.set()
        await wait_until(pilot, lambda: shown(app) == "")
        tools.set()
        await wait_until(pilot, lambda: "Running pytest -q" in shown(app))
        tool_done.set()
        await wait_until(pilot, lambda: "Thinking…" in shown(app))  # between rounds
        finish.set()
        await wait_until(pilot, lambda: not screen.turn_active)
        await pilot.pause()
        assert shown(app) == ""
        assert indicator._timer is None  # nothing ticks while idle


async def test_a_cancelled_wait_leaves_no_indicator(make_app, project):
    async def never_answers(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await asyncio.Event().wait()

    runtime = FakeRuntime(project, [never_answers])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: "Thinking…" in shown(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.turn_active)
        await pilot.pause()
        assert shown(app) == ""


async def test_the_bash_line_shows_the_command_and_the_description(make_app, project):
    args = BashParams(command="pytest -q tests/unit", description="Run the unit tests")
    summary = BashTool().summary(args)

    async def one_call(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(
            ev.ToolCall(
                call_id="b1",
                tool="Bash",
                input={"command": args.command, "description": args.description},
                read_only=False,
                summary=summary,
            )
        )
        await send(tool_result("b1", "Bash", "12 passed"))
        await send(ev.AssistantMessage(content=[], usage=Usage()))

    runtime = FakeRuntime(project, [one_call])
    app = make_app(runtime)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: screen.chat.line_for("b1") is not None)
        line = screen.chat.line_for("b1")
        rendered = line.render()
        assert "pytest -q tests/unit" in rendered.plain
        assert "Run the unit tests" in rendered.plain
        start = rendered.plain.index("Run the unit tests")
        dim = [s for s in rendered.spans if s.start <= start < s.end and "dim" in str(s.style)]
        assert dim, "the description is secondary (dim) text"

"""Approvals: the modal opens, the agent waits, and the answer reaches the ticket."""

from __future__ import annotations

from agent_core import events as ev
from mewcode_tui.transcript import ToolCallRecord
from tests.tui.conftest import ask_until_approval, past_key_guard, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result


def approval_script(runtime: FakeRuntime, tool: str = "Edit", plan: str = ""):
    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(tool_call("c1", tool, "a.py", file_path="a.py", plan=plan))
        reply = await runtime.ask(
            send,
            ev.ApprovalRequested(
                approval_id="a1",
                call_id="c1",
                tool=tool,
                input={"file_path": "a.py", "plan": plan},
                reason="edits need approval",
                layer="mode",
                suggested_rules=["Edit(a.py)"],
                kind="plan" if tool == "ExitPlanMode" else "tool",
            ),
        )
        if reply.answer == "deny":
            await send(tool_result("c1", tool, f"denied: {reply.feedback}", is_error=True))
        else:
            await send(tool_result("c1", tool, "edited a.py"))

    return script


def record(screen, call_id: str) -> ToolCallRecord:
    return screen.transcript.calls[call_id]


async def test_allow_once_releases_the_waiting_agent(make_app, project):

    runtime = FakeRuntime(project)
    runtime.scripts.append(approval_script(runtime))
    app = make_app(runtime)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await ask_until_approval(pilot, app, "edit it")
        # The agent is blocked on the ticket: the call waits, the turn is still running.
        assert record(screen, "c1").status == "awaiting"
        assert runtime.running and not runtime.replies
        await past_key_guard(pilot, app)
        await pilot.press("y")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert [r.answer for r in runtime.replies] == ["allow_once"]
        assert record(screen, "c1").status == "ok"
        assert app.screen is screen


async def test_deny_with_feedback_reaches_the_agent(make_app, project):

    runtime = FakeRuntime(project)
    runtime.scripts.append(approval_script(runtime))
    app = make_app(runtime)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await ask_until_approval(pilot, app, "edit it")
        await past_key_guard(pilot, app)
        await pilot.press("n", *"use b.py", "enter")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert runtime.replies[0].answer == "deny"
        assert runtime.replies[0].feedback == "use b.py"
        assert record(screen, "c1").status == "error"

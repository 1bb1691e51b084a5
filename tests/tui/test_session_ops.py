"""The screen drives its session through ops: what the host's event stream shows for each."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.sandbox.status import SandboxStatus
from mewcode_tui.transcript import NoticeEntry
from tests.tui.conftest import confirm_bypass, past_key_guard, session_started, wait_until
from tests.tui.fakes import FakeRuntime, tool_call, tool_result


def record_stream(app) -> list[ev.Event]:
    """Every event of the host's stream the screen is handed, in order."""
    screen = app.main_screen
    seen: list[ev.Event] = []
    deliver = screen.session_event

    async def recording(event: ev.Event) -> None:
        seen.append(event)
        await deliver(event)

    screen.session_event = recording  # the starter hands this to the session client
    return seen


def done_ops(seen: list[ev.Event]) -> list[str]:
    return [e.op for e in seen if isinstance(e, ev.OpDone)]


def notices(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]


async def test_shift_tab_asks_the_session_and_the_bar_follows_its_mode_changed(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    seen = record_stream(app)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await wait_until(pilot, lambda: "set_mode" in done_ops(seen))  # the start mode
        await pilot.press("shift+tab")
        await wait_until(pilot, lambda: screen.status.mode == "acceptEdits")
        changed = [e for e in seen if isinstance(e, ev.ModeChanged)]
        assert [e.mode for e in changed] == ["acceptEdits"]
        assert done_ops(seen).count("set_mode") == 2
        assert runtime.mode == "acceptEdits" and screen.mode == "acceptEdits"


async def test_a_refused_mode_is_said_and_the_bar_keeps_the_mode(make_app, project):
    runtime = FakeRuntime(project)
    runtime.sandbox = SandboxStatus("none", False)  # bypass needs a sandbox here
    app = make_app(runtime)
    seen = record_stream(app)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await wait_until(pilot, lambda: "set_mode" in done_ops(seen))
        screen.run_command_text("/mode bypassPermissions")
        await confirm_bypass(pilot, app)
        await wait_until(pilot, lambda: any("kept" in n for n in notices(screen)))
        said = next(n for n in notices(screen) if "kept" in n)
        assert said.startswith("Mode default kept:") and "sandbox" in said
        assert any(isinstance(e, ev.OpRefused) and e.op == "set_mode" for e in seen)
        assert not any(isinstance(e, ev.ModeChanged) for e in seen)
        assert screen.status.mode == "default" and runtime.mode == "default"
        assert "Mode bypassPermissions." not in notices(screen)


def asking_script(runtime: FakeRuntime, kind: str):
    tool = "ExitPlanMode" if kind == "plan" else "Edit"

    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(tool_call("c1", tool, "a.py", file_path="a.py", plan="1. edit a.py"))
        await runtime.ask(
            send,
            ev.ApprovalRequested(
                approval_id="a1",
                call_id="c1",
                tool=tool,
                input={"file_path": "a.py", "plan": "1. edit a.py"},
                reason="needs approval",
                layer="mode",
                suggested_rules=[],
                kind=kind,  # type: ignore[arg-type]
            ),
        )
        await send(tool_result("c1", tool, "done"))

    return script


async def test_an_approval_answered_in_the_dialog_reaches_the_host_as_approval_reply(
    make_app, project
):
    from mewcode_tui.screens.approval import ApprovalScreen

    runtime = FakeRuntime(project)
    runtime.scripts.append(asking_script(runtime, "tool"))
    app = make_app(runtime)
    seen = record_stream(app)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"edit", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await past_key_guard(pilot, app)
        await pilot.press("y")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert "approval_reply" in done_ops(seen) and "plan_reply" not in done_ops(seen)
        assert runtime.replies == [ev.ApprovalReply("allow_once")]


async def test_a_plan_answered_in_the_dialog_reaches_the_host_as_plan_reply(make_app, project):
    from mewcode_tui.screens.plan_approval import PlanApprovalScreen

    runtime = FakeRuntime(project)
    runtime.scripts.append(asking_script(runtime, "plan"))
    app = make_app(runtime)
    seen = record_stream(app)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"plan", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PlanApprovalScreen))
        await past_key_guard(pilot, app)
        await pilot.press("a")  # approve, auto-accept edits
        await wait_until(pilot, lambda: not screen.turn_active)
        assert "plan_reply" in done_ops(seen) and "approval_reply" not in done_ops(seen)
        assert runtime.replies == [ev.PlanAnswer("accept_edits")]


async def test_esc_interrupts_the_turn_through_the_session(make_app, project):
    import asyncio

    release = asyncio.Event()

    async def stuck(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await release.wait()

    runtime = FakeRuntime(project, scripts=[stuck])
    app = make_app(runtime)
    seen = record_stream(app)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: runtime.running)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert "interrupt" in done_ops(seen)
        ended = [e for e in seen if isinstance(e, ev.TurnCompleted)]
        assert [e.stop_reason for e in ended] == ["cancelled"]

"""The plan dialog against the real runtime: a 15-step plan fits 80x24, and each answer sets the mode.

Approving switches the runtime to ``default``, approving with auto-accepted edits to
``acceptEdits``; keeping planning stays in ``plan`` and the model reads the feedback.
"""

from __future__ import annotations

import pytest

from mewcode_tui.screens.plan_approval import PlanApprovalScreen
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import past_key_guard, session_started, wait_until
from tests.tui.dialog_checks import choice_lines, make_builtin_tools_app, rows_on_screen

PLAN = "# Plan\n\n" + "\n".join(f"{n}. Step {n}: change part {n} of a.py" for n in range(1, 16))


def plan_then_answer() -> ScriptedProvider:
    return ScriptedProvider(
        [
            Step(text="Here is my plan.", calls=[("p1", "ExitPlanMode", {"plan": PLAN})]),
            Step(text="Understood."),
        ]
    )


async def open_plan_dialog(pilot, app, provider):
    """Enter plan mode with a prompt and wait for the model's plan dialog; returns the main screen."""
    screen = await session_started(pilot, app)
    await pilot.press(*"/plan fix a.py", "enter")
    await wait_until(pilot, lambda: isinstance(app.screen, PlanApprovalScreen))
    assert screen.starter.runtime.mode == "plan" and screen.status.mode == "plan"
    prompt = str(provider.requests[0].messages[-1].content)
    assert "fix a.py" in prompt and "/plan" not in prompt
    return screen


@pytest.mark.slow
async def test_a_15_step_plan_keeps_its_choices_on_screen_at_80x24(options):
    provider = plan_then_answer()
    app = make_builtin_tools_app(options, provider)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_plan_dialog(pilot, app, provider)
        choices = app.screen.query_one("#options")
        await wait_until(pilot, lambda: rows_on_screen(app, choices) == 3)
        # The status bar's two lines (mode, cost, timer) stay in view under the dialog.
        assert app.screen.query_one("#dialog").region.bottom <= screen.status.region.y
        assert [line[2:] for line in choice_lines(app)] == [
            "1 Yes, start coding (ask before edits)",
            "2 Yes, and auto-accept edits",
            "n No, keep planning (then optional feedback)",
        ]
        plan = app.screen.query_one("#plan")
        assert plan.scroll_y == 0 and plan.max_scroll_y > 0
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: plan.scroll_y > 0)
        assert rows_on_screen(app, choices) == 3

        await past_key_guard(pilot, app)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert screen.starter.runtime.mode == "acceptEdits"


@pytest.mark.parametrize(
    ("keys", "mode"),
    [
        (["enter"], "default"),
        (["1"], "default"),
        (["a"], "acceptEdits"),
        (["down", "down", "up", "enter"], "acceptEdits"),
    ],
)
@pytest.mark.slow
async def test_approving_the_plan_sets_the_runtime_mode(options, keys, mode):
    provider = plan_then_answer()
    app = make_builtin_tools_app(options, provider)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_plan_dialog(pilot, app, provider)
        await past_key_guard(pilot, app)
        await pilot.press(*keys)
        await wait_until(pilot, lambda: not screen.turn_active)
        assert screen.starter.runtime.mode == mode
        assert screen.status.mode == mode
        assert screen.transcript.calls["p1"].status == "ok"


@pytest.mark.slow
async def test_keep_planning_stays_in_plan_mode_and_the_model_gets_the_feedback(options):
    provider = plan_then_answer()
    app = make_builtin_tools_app(options, provider)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_plan_dialog(pilot, app, provider)
        await past_key_guard(pilot, app)
        await pilot.press("down", "down", "enter")  # the third choice: keep planning
        assert app.screen.query_one("#feedback-input").has_focus
        await pilot.press(*"add tests first", "enter")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert screen.starter.runtime.mode == "plan"
        feedback = provider.requests[1].messages[-1]
        assert "keep planning" in str(feedback.content)
        assert "add tests first" in str(feedback.content)

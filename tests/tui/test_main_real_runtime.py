"""The main screen driving the real Runtime with a scripted provider and real gate."""

from __future__ import annotations

import pytest

from agent_core.agent.runtime import Runtime, RuntimeOptions
from mewcode_tui.app import MewCodeApp
from mewcode_tui.transcript import AssistantEntry
from tests.helpers.scripted import EchoTool, ScriptedProvider, Step, TouchTool
from tests.tui.conftest import ask_until_approval, past_key_guard, wait_until


def make_real_app(options, provider) -> MewCodeApp:
    async def opener(opts, prov):
        return await Runtime.open(
            RuntimeOptions(
                cwd=opts.cwd,
                paths=opts.paths,
                settings=opts.settings,
                provider=prov,
                mode=opts.mode,
                tools=[EchoTool(), TouchTool()],
            )
        )

    return MewCodeApp(options, provider=provider, opener=opener, clock=lambda: 0.0)


def touch_then_answer() -> ScriptedProvider:
    return ScriptedProvider(
        [
            Step(text="Let me touch it.", calls=[("t1", "Touch", {"text": "a.txt"})]),
            Step(text="All done."),
        ]
    )


@pytest.mark.slow
async def test_approve_from_the_modal_while_the_runtime_waits(options):

    provider = touch_then_answer()
    app = make_real_app(options, provider)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await ask_until_approval(pilot, app, "touch a.txt")
        # The runtime is blocked on the ticket: one request so far, turn still running.
        await past_key_guard(pilot, app)
        assert screen.starter.runtime.running and len(provider.requests) == 1
        assert screen.transcript.calls["t1"].status == "awaiting"
        await pilot.press("2")  # allow for this session
        await wait_until(pilot, lambda: not screen.turn_active)
        record = screen.transcript.calls["t1"]
        assert record.status == "ok" and "touched a.txt" in record.output
        answers = [e.text for e in screen.transcript.entries if isinstance(e, AssistantEntry)]
        assert answers[-1].strip() == "All done."
        assert any(r.source == "session" for r in screen.starter.runtime.rules())
        assert screen.status.input_tokens == 20  # two requests x 10 (scripted usage)


@pytest.mark.slow
async def test_deny_from_the_modal_reaches_the_model(options):

    provider = touch_then_answer()
    app = make_real_app(options, provider)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await ask_until_approval(pilot, app, "touch a.txt")
        await past_key_guard(pilot, app)
        await pilot.press("n", *"not that file", "enter")
        await wait_until(pilot, lambda: not screen.turn_active)
        assert screen.transcript.calls["t1"].status == "denied"
        # The model's next request carries the denial and the user's feedback.
        second = provider.requests[1].messages[-1]
        assert "not that file" in str(second.content)


@pytest.mark.slow
async def test_escape_cancels_a_real_turn_and_history_stays_usable(options):
    provider = ScriptedProvider(
        [
            Step(text="thinking about it", hang_after_text=True),
            Step(text="second answer"),
        ]
    )
    app = make_real_app(options, provider)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"first", "enter")
        # Escape while the provider hangs, its first words shown.
        await wait_until(
            pilot,
            lambda: any(
                "thinking about it" in getattr(e, "text", "") for e in screen.transcript.entries
            ),
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.turn_active, timeout=15)
        assert "Turn cancelled." in [getattr(e, "text", "") for e in screen.transcript.entries]
        await pilot.press(*"again", "enter")
        await wait_until(pilot, lambda: len(provider.requests) == 2 and not screen.turn_active)
        answers = [e.text for e in screen.transcript.entries if isinstance(e, AssistantEntry)]
        assert answers[-1].strip() == "second answer"

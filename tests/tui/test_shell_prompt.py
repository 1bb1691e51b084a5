"""`!command` in the prompt runs in the shell, through the permission engine, and the model
reads it next turn (issue 25, item 7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_core.messages import TextBlock
from mewcode_tui.transcript import ToolRoundEntry, UserEntry
from tests.helpers.scripted import ScriptedProvider, Step
from tests.tui.conftest import ask_until_approval, past_key_guard, session_started, wait_until
from tests.tui.fakes import FakeRuntime
from tests.tui.test_resume_looks_live import app_over_runtime, seen


def screen_text(screen) -> str:
    """What the chat pane's mounted views draw, as plain text."""
    return "\n".join(str(w.render()) for w in screen.chat.query("*") if hasattr(w, "render"))


def shell_calls(screen) -> list:
    return [
        call
        for entry in screen.transcript.entries
        if isinstance(entry, ToolRoundEntry)
        for call in entry.calls
        if call.call_id.startswith("shell_")
    ]


@pytest.mark.slow
async def test_a_bang_prompt_runs_the_command_shows_its_output_and_tells_the_model(
    options,
) -> None:
    provider = ScriptedProvider([Step(text="I saw it.")])
    app = app_over_runtime(options, provider, allow=("Bash(echo:*)",))
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"! echo hi-from-shell", "enter")
        await wait_until(pilot, lambda: shell_calls(screen) and not screen.turn_active, timeout=15)
        (call,) = shell_calls(screen)
        assert (call.tool, call.status) == ("Bash", "ok")
        assert call.output.strip() == "hi-from-shell"
        assert call.expanded  # shown open: the output is what the user asked for
        await wait_until(pilot, lambda: "hi-from-shell" in screen_text(screen))
        assert UserEntry("! echo hi-from-shell") in screen.transcript.entries
        assert not provider.requests  # it did not go to the model

        await pilot.press(*"what did it say", "enter")
        await wait_until(pilot, lambda: provider.requests and not screen.turn_active)
        texts = [
            b.text
            for m in provider.requests[0].messages
            for b in m.content
            if isinstance(b, TextBlock)
        ]
        assert (
            "<bash-input>echo hi-from-shell</bash-input>\n"
            "<bash-stdout>hi-from-shell</bash-stdout><bash-stderr></bash-stderr>"
        ) in texts


@pytest.mark.slow
async def test_a_bang_command_that_needs_approval_asks_in_the_usual_dialog(
    options, project
) -> None:
    witness = project / "made-by-bang"
    app = app_over_runtime(options, ScriptedProvider([]), allow=())
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await ask_until_approval(pilot, app, f"!touch {witness}")
        assert not witness.exists()
        await past_key_guard(pilot, app)
        await pilot.press("1")  # allow once
        await wait_until(pilot, lambda: not screen.turn_active and witness.exists(), timeout=15)
        assert shell_calls(screen)[0].status == "ok"


async def test_a_bang_prompt_never_reaches_the_model(make_app, project) -> None:
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test() as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"! git status", "enter")
        await wait_until(pilot, lambda: runtime.shell_commands and not screen.turn_active)
        assert runtime.shell_commands == ["git status"] and runtime.prompts == []


@pytest.mark.slow
async def test_a_resumed_session_shows_bang_commands_as_they_were_seen(options, project) -> None:
    witness = project / "never"
    app = app_over_runtime(options, ScriptedProvider([]), allow=("Bash(echo:*)",))
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"! echo first", "enter")
        await wait_until(pilot, lambda: len(shell_calls(screen)) == 1 and not screen.turn_active)
        await pilot.press(*f"!touch {witness} && rm -rf /", "enter")  # the blacklist stops it
        await wait_until(pilot, lambda: len(shell_calls(screen)) == 2 and not screen.turn_active)
        live = seen(screen.transcript)
        live_outputs = [c.output for c in shell_calls(screen)]
        session_id = screen.session.session_id
    assert [c[2] for c in live if c[0] == "Bash"] == ["ok", "denied"]
    assert not witness.exists()

    again = app_over_runtime(replace(options, resume_id=session_id), ScriptedProvider([]))
    async with again.run_test(size=(100, 34)) as pilot:
        screen = await session_started(pilot, again)
        await wait_until(pilot, lambda: len(shell_calls(screen)) == 2)
        assert seen(screen.transcript) == live
        assert [c.output for c in shell_calls(screen)] == live_outputs
        assert all(c.expanded for c in shell_calls(screen))  # open, as live

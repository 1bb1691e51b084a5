"""The prompt: sending, newlines, history, completion, mode cycling and Esc cancel."""

from __future__ import annotations

import asyncio

import pytest

from agent_core import events as ev
from mewcode_tui.widgets.completion_menu import CompletionMenu
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime, plain_answer


async def ready(pilot, app):
    screen = app.main_screen
    await wait_until(pilot, lambda: screen.session_ready)
    return screen


async def test_enter_sends_and_shift_enter_or_ctrl_j_add_newlines(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        await pilot.press("a", "shift+enter", "b", "ctrl+j", "c")
        assert screen.prompt.text == "a\nb\nc"
        await pilot.press("enter")
        await wait_until(pilot, lambda: runtime.prompts == ["a\nb\nc"])
        assert screen.prompt.text == ""


async def test_up_and_down_walk_the_history(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        for text in ("first", "second"):
            await pilot.press(*text, "enter")
            await wait_until(
                pilot, lambda t=text: not screen.turn_active and runtime.prompts[-1] == t
            )
        await pilot.press(*"draft", "up")
        assert screen.prompt.text == "second"
        await pilot.press("up")
        assert screen.prompt.text == "first"
        await pilot.press("down", "down")
        assert screen.prompt.text == "draft"


async def test_slash_opens_command_completion_and_tab_accepts(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        menu = screen.query_one(CompletionMenu)
        await pilot.press("/")
        await wait_until(pilot, lambda: menu.is_open)
        assert "/help" in [c.value for c in menu.candidates]
        await pilot.press("p", "e")
        await wait_until(pilot, lambda: [c.value for c in menu.candidates] == ["/permissions"])
        await pilot.press("tab")
        assert screen.prompt.text == "/permissions "
        assert not menu.is_open
        await pilot.press("escape")  # nothing open, no turn: harmless


@pytest.mark.slow
async def test_at_completes_project_files(make_app, project):
    (project / "src").mkdir()
    (project / "src" / "widget.py").write_text("x = 1\n")
    (project / "notes.txt").write_text("n\n")
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        menu = screen.query_one(CompletionMenu)
        await pilot.press(*"look at @wid")
        await wait_until(pilot, lambda: menu.is_open)
        assert menu.candidates[0].value == "@src/widget.py"
        await pilot.press("enter")  # accepts the completion, does not send
        assert screen.prompt.text == "look at @src/widget.py "
        assert screen.starter.runtime.prompts == []


async def test_shift_tab_cycles_modes_and_the_status_bar_shows_it(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        seen = []
        for _ in range(3):
            await pilot.press("shift+tab")
            seen.append((screen.status.mode, runtime.mode))
        assert seen == [("acceptEdits", "acceptEdits"), ("plan", "plan"), ("default", "default")]
        await pilot.press("shift+tab", "shift+tab")
        assert "plan" in str(screen.status.render())


async def test_escape_cancels_a_running_turn(make_app, project):
    async def slow(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.MessageDelta(text="working"))
        await asyncio.sleep(30)

    runtime = FakeRuntime(project, [slow])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: runtime.running)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.turn_active, timeout=15)
        notices = [getattr(e, "text", "") for e in screen.transcript.entries]
        assert "Turn cancelled." in notices
        assert screen.status.phase == "idle"


async def test_prompt_sent_during_a_turn_waits_for_it(make_app, project):
    gate = asyncio.Event()

    async def held(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await gate.wait()

    runtime = FakeRuntime(project, [held, plain_answer("second answer")])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press(*"one", "enter")
        await wait_until(pilot, lambda: runtime.running)
        await pilot.press(*"two", "enter")
        await pilot.pause(0.1)
        assert runtime.prompts == ["one"]
        gate.set()
        await wait_until(pilot, lambda: runtime.prompts == ["one", "two"])


async def test_enter_on_a_command_completion_runs_it(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        menu = screen.query_one(CompletionMenu)
        await pilot.press(*"/cos")
        await wait_until(pilot, lambda: menu.is_open)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Cost this session" in str(screen.transcript.last))
        assert screen.prompt.text == ""


async def test_a_prompt_typed_while_the_session_opens_is_sent_once_it_is_open(options, project):
    from types import SimpleNamespace

    from mewcode_tui.app import MewCodeApp

    runtime = FakeRuntime(project, [plain_answer("hello back")])
    opened = asyncio.Event()

    async def slow_opener(_options, _provider):
        await opened.wait()
        return runtime

    app = MewCodeApp(
        options,
        provider=SimpleNamespace(name="fake", model="fake-model"),
        opener=slow_opener,
        clock=lambda: 1000.0,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        screen.prompt.insert("early question")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.pending == ["early question"])
        assert runtime.prompts == [] and screen.starter.runtime is None
        opened.set()
        await wait_until(pilot, lambda: runtime.prompts == ["early question"])
        await wait_until(pilot, lambda: not screen.turn_active and screen.pending == [])


async def test_a_backslash_then_enter_is_a_new_line_without_the_backslash(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        await pilot.press(*"first", "backslash", "enter", *"second")
        assert screen.prompt.text == "first\nsecond"
        await pilot.press("enter")
        await wait_until(pilot, lambda: runtime.prompts == ["first\nsecond"])


async def test_alt_enter_is_a_new_line(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        await pilot.press("a", "alt+enter", "b")
        assert screen.prompt.text == "a\nb"
        assert runtime.prompts == []


async def test_a_backslash_inside_a_line_stays_and_enter_sends(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot, app)
        await pilot.press(*"C:", "backslash", *"dir", "enter")
        await wait_until(pilot, lambda: runtime.prompts == ["C:\\dir"])
        assert screen.prompt.text == ""


async def test_the_hint_in_the_empty_prompt_names_the_new_line_keys(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot, app)
        hint = str(screen.prompt.placeholder)
        assert "\\ Enter" in hint and "Alt+Enter" in hint
        assert len(hint) <= screen.prompt.content_size.width  # whole at 80 columns

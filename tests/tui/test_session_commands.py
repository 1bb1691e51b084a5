"""/resume, /compact, /context and `--resume` without an id, driven through the main screen."""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace

import pytest
from textual import events

from agent_core.agent.runtime import Runtime, RuntimeOptions
from agent_core.context import SUMMARY_HEADINGS
from agent_core.messages import Message, TextBlock, user_text
from agent_core.session.store import SessionStore
from mewcode_tui.app import MewCodeApp
from mewcode_tui.screens.resume import ResumeScreen
from mewcode_tui.transcript import AssistantEntry, NoticeEntry, UserEntry
from tests.helpers.scripted import EchoTool, ScriptedProvider, Step
from tests.tui.conftest import wait_until
from tests.tui.fakes import FakeRuntime, Send

SUMMARY = "\n\n".join(f"{h}\nDetails for {h[3:].lower()}." for h in SUMMARY_HEADINGS)


def answer(text: str) -> Message:
    return Message(role="assistant", content=[TextBlock(text)])


def saved_session(paths, exchanges: list[tuple[str, str]], mtime: float) -> str:
    """A session file on disk with the given (prompt, answer) pairs; returns its id."""
    store = SessionStore.create(paths, model="scripted-model", provider="scripted")
    for prompt, reply in exchanges:
        store.append_message(user_text(prompt))
        store.append_message(answer(reply))
    store.close()
    os.utime(store.path, (mtime, mtime))
    return store.session_id


def real_app(options, provider: ScriptedProvider | None = None) -> MewCodeApp:
    """The app over a real Runtime (real session files) with a scripted provider."""

    async def opener(opts, prov):
        return await Runtime.open(
            RuntimeOptions(
                cwd=opts.cwd,
                paths=opts.paths,
                settings=opts.settings,
                provider=prov,
                mode=opts.mode,
                resume_id=opts.resume_id or None,
                continue_latest=opts.continue_latest,
                tools=[EchoTool()],
            )
        )

    return MewCodeApp(
        options, provider=provider or ScriptedProvider([]), opener=opener, clock=lambda: 0.0
    )


def notices(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)]


def shown_text(screen) -> list[str]:
    return [e.text for e in screen.transcript.entries if isinstance(e, UserEntry | AssistantEntry)]


async def started(pilot, app):
    screen = app.main_screen
    await wait_until(pilot, lambda: screen.session_ready)
    return screen


async def command(pilot, screen, text: str) -> None:
    await pilot.press(*text)
    screen.menu.hide()
    await pilot.press("enter")
    await pilot.pause()


async def wait_for_notice(pilot, screen, start: str) -> str:
    await wait_until(pilot, lambda: any(n.startswith(start) for n in notices(screen)))
    return next(n for n in notices(screen) if n.startswith(start))


# --- /resume ------------------------------------------------------------------


@pytest.mark.slow
async def test_resume_picker_lists_sessions_and_enter_reshows_the_old_conversation(options, paths):
    older = saved_session(paths, [("fix the parser", "Parser fixed.")], mtime=1_000_000)
    newer = saved_session(paths, [("add a --verbose flag", "Flag added.")], mtime=2_000_000)
    app = real_app(options)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/resume")
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        picker = app.screen
        listed = [s.session_id for s in picker.sessions]
        # Newest first; the current session has no messages yet, so it is not a session yet.
        assert listed == [newer, older]
        assert picker.current == screen.starter.runtime.session_id
        await pilot.press("down", "enter")  # the cursor starts on `newer`
        await wait_until(pilot, lambda: screen.starter.runtime.session_id == older)
        await wait_until(pilot, lambda: "Parser fixed." in shown_text(screen))
        assert shown_text(screen) == ["fix the parser", "Parser fixed."]
        assert f"Resumed session {older} (2 messages)." in notices(screen)
        assert screen.chat.query("UserMessageView")  # the old conversation is on screen
        assert screen.status.context_tokens > 0
        # The switched-to session keeps going: a new turn is appended to it.
        screen.starter.runtime.provider.steps.append(Step(text="Still fixed."))
        await pilot.press(*"and now?", "enter")
        await wait_until(
            pilot, lambda: not screen.turn_active and len(screen.starter.runtime.history) == 4
        )
        request = screen.starter.runtime.provider.requests[-1]
        assert request.messages[0].text() == "fix the parser"


async def test_esc_closes_the_picker_without_switching(options, paths):
    saved_session(paths, [("old work", "Done.")], mtime=1_000_000)
    app = real_app(options)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        current = screen.starter.runtime.session_id
        await command(pilot, screen, "/resume")
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ResumeScreen))
        assert screen.starter.runtime.session_id == current and shown_text(screen) == []


async def test_resume_with_an_id_or_prefix_switches_directly(options, paths):
    target = saved_session(paths, [("write the docs", "Docs written.")], mtime=1_000_000)
    app = real_app(options)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/resume nosuch")
        text = await wait_for_notice(pilot, screen, "Cannot resume")
        assert text == "Cannot resume: no session nosuch in this project (/resume lists them)."
        await command(pilot, screen, f"/resume {target[:-2]}")
        await wait_until(pilot, lambda: screen.starter.runtime.session_id == target)
        await wait_until(pilot, lambda: "Docs written." in shown_text(screen))
        assert not isinstance(app.screen, ResumeScreen)


async def test_resume_without_other_sessions_says_so(options):
    app = real_app(options)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/resume")
        await wait_for_notice(pilot, screen, "No other saved sessions")
        assert not isinstance(app.screen, ResumeScreen)


async def test_resume_flag_without_an_id_opens_the_picker_at_start(options, paths):
    older = saved_session(paths, [("first task", "First done.")], mtime=1_000_000)
    saved_session(paths, [("second task", "Second done.")], mtime=2_000_000)
    app = real_app(replace(options, resume_id=""))
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        screen = app.main_screen
        assert screen.starter.runtime is None  # nothing opened (and no empty session made) yet
        assert [s.first_prompt for s in app.screen.sessions] == ["second task", "first task"]
        # Both keys arrive in one read, as from a fast typist: Enter must see the move.
        app.post_message(events.Key("down", None))
        app.post_message(events.Key("enter", "\r"))
        await wait_until(pilot, lambda: screen.session_ready)
        assert screen.starter.runtime.session_id == older
        await wait_until(pilot, lambda: "First done." in shown_text(screen))


async def test_resume_flag_picker_cancelled_starts_a_new_session(options, paths):
    saved_session(paths, [("first task", "First done.")], mtime=1_000_000)
    app = real_app(replace(options, resume_id=""))
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("escape")
        screen = await started(pilot, app)
        assert screen.starter.runtime.history == []
        assert "No session picked: starting a new one." in notices(screen)


async def test_continue_still_opens_the_latest_without_a_picker(options, paths):
    saved_session(paths, [("old", "Old.")], mtime=1_000_000)
    latest = saved_session(paths, [("latest", "Latest.")], mtime=2_000_000)
    app = real_app(replace(options, continue_latest=True))
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        assert screen.starter.runtime.session_id == latest
        assert not isinstance(app.screen, ResumeScreen)


# --- /compact -----------------------------------------------------------------


async def test_compact_summarises_and_reports_tokens(options, paths):
    exchanges = [(f"step {i}: " + "explain the code " * 40, "Explained. " * 60) for i in range(6)]
    session = saved_session(paths, exchanges, mtime=1_000_000)
    provider = ScriptedProvider([Step(text=SUMMARY)])
    app = real_app(replace(options, resume_id=session), provider)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/compact keep the parser details")
        text = await wait_for_notice(pilot, screen, "Compacted:")
        before, after = (int(n.replace(",", "")) for n in text.split()[1:4:2])
        assert after < before
        # The summary request carried the user's focus, and history now starts with the summary.
        assert "keep the parser details" in provider.requests[0].messages[0].text()
        assert "Primary request and intent" in screen.starter.runtime.history[0].text()
        assert not screen.turn_active and screen.status.phase == "idle"
        # The status bar shows the estimate for the new history, not the pre-summary figure.
        assert screen.status.context_tokens == screen.starter.runtime.context_breakdown()["total"]


async def test_compact_keeps_the_history_when_the_summary_would_not_be_smaller(options, paths):
    exchanges = [(f"question {i}", f"answer {i}") for i in range(6)]
    session = saved_session(paths, exchanges, mtime=1_000_000)
    long_summary = SUMMARY + "\n" + "a detail the model thought worth keeping " * 300
    provider = ScriptedProvider([Step(text=long_summary)])
    app = real_app(replace(options, resume_id=session), provider)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        history = list(screen.starter.runtime.history)
        await command(pilot, screen, "/compact")
        text = await wait_for_notice(pilot, screen, "not compacted: the summary (")
        assert "would not be smaller than what it replaces (" in text
        assert not any(n.startswith("Compacted:") for n in notices(screen))
        assert screen.starter.runtime.history == history  # nothing was replaced
        assert not screen.turn_active


async def test_compact_with_too_little_history_shows_the_reason(options):
    app = real_app(options)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/compact")
        text = await wait_for_notice(pilot, screen, "Nothing to compact yet")
        assert text == "Nothing to compact yet: the conversation has 0 messages"
        assert not screen.turn_active


class SlowCompactRuntime(FakeRuntime):
    """A FakeRuntime whose compaction waits until the test releases it."""

    def __init__(self, cwd) -> None:
        super().__init__(cwd)
        self.release = asyncio.Event()
        self.compacted = False
        self.context_tokens = 9_000

    async def compact(self, instructions: str = ""):
        from agent_core.context import CompactionOutcome

        await self.release.wait()
        self.compacted = True
        self.context_tokens = 1_000
        return CompactionOutcome([], 8_000, 700, summarised_messages=12)


async def test_compact_shows_progress_and_queues_prompts_typed_meanwhile(make_app, project):
    runtime = SlowCompactRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/compact")
        await wait_until(pilot, lambda: screen.status.phase == "compacting")
        await pilot.press(*"next question", "enter")
        await pilot.pause()
        assert runtime.prompts == []  # held back while the history is being replaced
        runtime.release.set()
        text = await wait_for_notice(pilot, screen, "Compacted:")
        assert text == "Compacted: 8,000 → 700 tokens (12 messages summarised)."
        await wait_until(pilot, lambda: runtime.prompts == ["next question"])
        await wait_until(pilot, lambda: not screen.turn_active)


async def test_compact_and_resume_are_refused_while_a_turn_runs(make_app, project):
    gate = asyncio.Event()

    async def slow_turn(send: Send, text: str) -> None:
        await gate.wait()

    runtime = FakeRuntime(project, scripts=[slow_turn])
    app = make_app(runtime)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await pilot.press(*"work", "enter")
        await wait_until(pilot, lambda: runtime.running)
        await command(pilot, screen, "/compact")
        await command(pilot, screen, "/resume")
        await wait_until(pilot, lambda: len(notices(screen)) >= 3)
        refusals = notices(screen)[-2:]
        assert refusals == [
            "Wait for the turn to finish (or press Esc) before /compact.",
            "Wait for the turn to finish (or press Esc) before /resume.",
        ]
        assert not isinstance(app.screen, ResumeScreen)
        gate.set()
        await wait_until(pilot, lambda: not screen.turn_active)


# --- /context and /help ---------------------------------------------------------


async def test_context_shows_each_category_with_share_of_the_window(options, paths):
    session = saved_session(paths, [("hello " * 200, "Hi there. " * 100)], mtime=1_000_000)
    app = real_app(replace(options, resume_id=session))
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/context")
        text = await wait_for_notice(pilot, screen, "Context: about")
        window = screen.starter.runtime.context_window
        assert f" of {window:,} tokens" in text.splitlines()[0]
        rows = {}
        for line in text.splitlines()[1:-1]:
            label, figures = line[:19].strip(), line[19:].split()
            rows[label] = (int(figures[0].replace(",", "")), figures[1])
        assert list(rows) == [
            "System prompt",
            "Tool definitions",
            "Summary",
            "Messages",
            "Tool results",
            "Free",
        ]
        assert rows["Messages"][0] > 400  # ~1 800 characters of conversation
        assert rows["Tool definitions"][0] > 0 and rows["Summary"] == (0, "0.0%")
        assert sum(tokens for tokens, _ in rows.values()) == window
        assert "█" in next(line for line in text.splitlines() if line.lstrip().startswith("Free"))


async def test_help_lists_the_session_commands(make_app, project):
    app = make_app(FakeRuntime(project))
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await started(pilot, app)
        await command(pilot, screen, "/help")
        text = await wait_for_notice(pilot, screen, "Commands:")
        assert "/resume [ID]" in text and "/compact [FOCUS]" in text and "/context" in text

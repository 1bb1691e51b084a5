"""A burst of streamed text that fills screens on its own mounts only its tail."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.usage import Usage
from bench.bench_tui import markdown_answer
from mewcode_tui.transcript import AssistantEntry
from tests.tui.conftest import run_one_turn, session_started, wait_until, window_mounted
from tests.tui.fakes import FakeRuntime, plain_answer
from tests.tui.test_answer_measuring import load_all


def mounted_entries(chat) -> list:
    return [child.entry for child in chat.children]


async def test_a_burst_mounts_its_tail_and_older_text_comes_back_in_order(make_app, project):
    text = markdown_answer(60_000)
    runtime = FakeRuntime(project, [plain_answer(text, chunk=64)])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime, timeout=30)
        chat = screen.chat
        await wait_until(pilot, lambda: chat.at_bottom and window_mounted(chat))
        entries = screen.transcript.entries
        # Far fewer views than segments, and they are the transcript's newest, in order.
        assert chat.first_mounted > 0
        assert len(chat.children) < chat.window
        assert mounted_entries(chat) == entries[chat.first_mounted :]
        assert chat.at_bottom
        # Scrolling up brings back everything that streamed past, in order.
        await load_all(pilot, chat)
        assert mounted_entries(chat) == entries
        shown = "".join(e.text for e in entries if isinstance(e, AssistantEntry))
        assert shown == text


async def test_a_reader_scrolled_up_keeps_every_view_during_a_burst(make_app, project):
    first, second = markdown_answer(8_000), markdown_answer(60_000)
    scrolled_up = asyncio.Event()

    async def burst_after_the_reader_scrolls_up(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.MessageDelta(text=second[:64]))
        await scrolled_up.wait()
        for i in range(64, len(second), 64):
            await send(ev.MessageDelta(text=second[i : i + 64]))
        await send(ev.AssistantMessage(content=[], usage=Usage()))

    runtime = FakeRuntime(
        project, [plain_answer(first, chunk=64), burst_after_the_reader_scrolls_up]
    )
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, chat = app.main_screen, app.main_screen.chat
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"one", "enter")
        await wait_until(pilot, lambda: len(runtime.prompts) == 1 and not screen.turn_active)
        await load_all(pilot, chat)
        await pilot.press(*"two", "enter")
        # The second answer's first words are on screen before the reader scrolls up.
        await wait_until(
            pilot,
            lambda: (
                getattr(screen.transcript.last, "text", "") == second[:64] and window_mounted(chat)
            ),
        )
        chat.scroll_home(animate=False, immediate=True)
        await wait_until(pilot, lambda: chat.scroll_y == 0 and not chat.following)
        top = chat.children[0]
        scrolled_up.set()
        await wait_until(pilot, lambda: not screen.turn_active and window_mounted(chat))
        # The reader's view was not replaced: what they were reading is still mounted, on top.
        assert chat.children[0] is top
        assert chat.first_mounted == 0
        assert mounted_entries(chat) == screen.transcript.entries


async def test_segments_of_one_answer_keep_one_blank_row_between_them(make_app, project):
    from mewcode_tui.widgets.assistant_view import AssistantTextView

    runtime = FakeRuntime(project, [plain_answer(markdown_answer(12_000), chunk=64)])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, chat = app.main_screen, app.main_screen.chat
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active)
        await load_all(pilot, chat)
        views = list(chat.query(AssistantTextView))
        assert len(views) > 3
        await wait_until(pilot, lambda: all(v.measured for v in views), timeout=10)

        def gaps() -> list[int]:
            pairs = zip(views, views[1:], strict=False)
            return [below.virtual_region.y - above.virtual_region.bottom for above, below in pairs]

        # Segments are cut at blank lines: the blank row stays, as within a segment
        # (once the measured heights are laid out).
        await wait_until(pilot, lambda: set(gaps()) == {1})


async def test_an_entry_added_during_a_burst_stays_mounted_after_it(make_app, project):
    from mewcode_tui.transcript import NoticeEntry

    runtime = FakeRuntime(project, [])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)  # the welcome line is mounted: not racing us
        chat, transcript = screen.chat, screen.transcript
        text = markdown_answer(1_000)
        burst = [
            transcript.add(AssistantEntry([text], continued=True, done=True)) for _ in range(12)
        ]
        # A notice lands while the burst's views are being mounted (say() from elsewhere).
        notice = transcript.add(NoticeEntry("info", "theme saved"))
        assert await chat.append_all(burst) is True
        await pilot.pause()
        assert mounted_entries(chat) == transcript.entries[chat.first_mounted :]
        assert mounted_entries(chat)[-1] is notice


async def test_tab_finds_the_last_tool_call_even_after_a_burst_scrolled_it_away(make_app, project):
    from mewcode_tui.widgets.tool_call_view import ToolCallLine
    from tests.tui.fakes import tool_call, tool_result

    text = markdown_answer(40_000)

    async def read_then_explain(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(tool_call("r1", "Read", "a.py", file_path="a.py"))
        await send(tool_result("r1", "Read", "x = 1\n", 4))
        await send(ev.AssistantMessage(content=[], usage=Usage()))
        for i in range(0, len(text), 64):
            await send(ev.MessageDelta(text=text[i : i + 64]))
        await send(ev.AssistantMessage(content=[], usage=Usage()))

    runtime = FakeRuntime(project, [read_then_explain])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime, timeout=30)
        assert not screen.chat.tool_lines()  # the answer pushed the call out of the window
        await pilot.press("tab")
        await wait_until(pilot, lambda: isinstance(screen.focused, ToolCallLine))
        assert screen.focused.record.call_id == "r1"


async def test_an_answer_that_arrives_whole_is_shown_in_segments(make_app, project):
    text = markdown_answer(40_000)

    async def not_streamed(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.AssistantMessage(content=[{"type": "text", "text": text}], usage=Usage()))

    runtime = FakeRuntime(project, [not_streamed])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        chat = screen.chat
        answers = [e for e in screen.transcript.entries if isinstance(e, AssistantEntry)]
        assert len(answers) > 10 and "".join(e.text for e in answers) == text
        assert mounted_entries(chat) == screen.transcript.entries[chat.first_mounted :]
        await wait_until(pilot, lambda: chat.at_bottom)


async def test_a_notice_whose_append_waits_while_a_burst_restarts_the_window_shows_once(
    make_app, project
):
    # say() adds a notice to the transcript at once and mounts its view from a worker: a
    # burst that restarts the window in between mounts it already, in its place.
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        chat = screen.chat
        from mewcode_tui.transcript import NoticeEntry, answer_entries

        notice = screen.transcript.add(NoticeEntry("info", "typed while streaming"))
        burst = [screen.transcript.add(e) for e in answer_entries(markdown_answer(60_000))]
        assert await chat.append_all(burst)  # the window restarted at the burst's tail
        await chat.append(notice)  # the notice's worker runs late
        await wait_until(pilot, lambda: window_mounted(chat))
        views = [child for child in chat.children if child.entry is notice]
        assert len(views) <= 1
        assert mounted_entries(chat) == screen.transcript.entries[chat.first_mounted :]


async def test_a_late_notice_is_mounted_in_its_place_not_below_later_entries(make_app, project):
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        chat = screen.chat
        from mewcode_tui.transcript import NoticeEntry, UserEntry

        notice = screen.transcript.add(NoticeEntry("warning", "said before the prompt"))
        await chat.append(screen.transcript.add(UserEntry("a prompt typed right after")))
        await chat.append(notice)  # its worker ran after the prompt's view was mounted
        assert mounted_entries(chat) == screen.transcript.entries[chat.first_mounted :]
        await chat.append(notice)  # a second append changes nothing
        assert [c for c in chat.children if c.entry is notice] == [chat.children[-2]]

"""Streaming answers into the chat pane, and following (or not) the bottom."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.usage import Usage
from mewcode_tui.transcript import AssistantEntry, NoticeEntry, ThinkingEntry
from mewcode_tui.widgets.assistant_view import AssistantMessageView, AssistantTextView
from mewcode_tui.widgets.message_view import UserMessageView
from tests.tui.conftest import run_one_turn, session_started, wait_until
from tests.tui.fakes import FakeRuntime, paced_answer, plain_answer, shown_answer

ANSWER = "# Result\n\nHere is `code`:\n\n```python\nprint('hi')\n```\n\nDone, **bold** end."


async def test_answer_streams_into_one_markdown_view(make_app, project):
    runtime = FakeRuntime(project, [plain_answer(ANSWER, chunk=3)])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"hello", "enter")
        await wait_until(pilot, lambda: not screen.turn_active and runtime.prompts)
        await pilot.pause()
        assert runtime.prompts == ["hello"]
        users = list(screen.query(UserMessageView))
        assert [u.entry.text for u in users] == ["hello"]
        views = list(screen.query(AssistantMessageView))
        assert len(views) == 1
        # The stream delivered every chunk: the widget's source is the whole answer.
        assert views[0].source == ANSWER
        # The code fence split across chunks became one code block.
        assert len(views[0].query("MarkdownFence")) == 1
        assert screen.status.phase == "idle"


async def test_scrolled_up_view_does_not_jump(make_app, project):
    long_text = "\n\n".join(f"paragraph {i}" for i in range(80))
    gate = asyncio.Event()

    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.MessageDelta(text=long_text))
        await gate.wait()  # the user scrolls up meanwhile
        for i in range(20):
            await send(ev.MessageDelta(text=f"\n\nmore {i}"))
        await send(ev.AssistantMessage(content=[], usage=runtime.usage))

    runtime = FakeRuntime(project, [script])
    app = make_app(runtime)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.main_screen
        chat = screen.chat
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"first", "enter")
        await wait_until(pilot, lambda: chat.max_scroll_y > 50 and chat.at_bottom)
        chat.scroll_to(y=5, animate=False)
        await wait_until(pilot, lambda: chat.scroll_y == 5)
        height_before = chat.max_scroll_y
        gate.set()
        await wait_until(pilot, lambda: not screen.turn_active)
        # The new text did arrive (once laid out)...
        await wait_until(pilot, lambda: chat.max_scroll_y > height_before)
        assert chat.scroll_y == 5  # ...but the view stayed where the user put it
        chat.scroll_end(animate=False)  # back at the bottom: following again
        await wait_until(pilot, lambda: chat.at_bottom)
        await pilot.press(*"again", "enter")
        await wait_until(pilot, lambda: len(runtime.prompts) == 2 and not screen.turn_active)
        await wait_until(pilot, lambda: chat.at_bottom)


async def test_long_fast_answer_arrives_whole_in_compact_segments(make_app, project):
    from bench.bench_tui import markdown_answer
    from mewcode_tui.transcript import AssistantEntry
    from mewcode_tui.widgets.assistant_view import AssistantTextView

    text = markdown_answer(60_000)
    runtime = FakeRuntime(project, [plain_answer(text, chunk=64)])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"long", "enter")
        await wait_until(pilot, lambda: runtime.prompts and not screen.turn_active, timeout=30)
        segments = [e for e in screen.transcript.entries if isinstance(e, AssistantEntry)]
        assert "".join(s.text for s in segments) == text
        assert len(segments) > 1
        # Each segment boundary is a blank line outside code fences.
        for segment in segments[:-1]:
            assert segment.text.endswith("\n\n") and segment.text.count("```") % 2 == 0
        # Finished segments are one widget each; the widget count stays small.
        assert screen.query(AssistantTextView)
        assert len(list(screen.chat.walk_children())) < 300


async def test_table_split_across_flushes_renders_as_a_table(make_app, project):
    pieces = [
        "## Tour\n\n| What | Where |\n|--",
        "-|---|\n| one | here |\n",
        "| two | there |\n\nDone.\n",
    ]
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    runtime.scripts.append(paced_answer(pieces, shown_answer(app)))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        view = screen.query_one(AssistantMessageView)
        tables = list(view.query("MarkdownTable"))
        assert len(tables) == 1
        table = tables[0]
        assert [str(h) for h in table._headers] == ["What", "Where"]
        assert len(table._rows) == 2


async def test_a_fence_whose_language_has_not_arrived_is_never_guessed(
    make_app, project, monkeypatch
):
    import pygments.lexers

    guesses: list[str] = []

    def guess_lexer(code, **options):
        guesses.append(code)
        raise AssertionError("guess_lexer tries every Pygments lexer: far too slow mid-stream")

    monkeypatch.setattr(pygments.lexers, "guess_lexer", guess_lexer)
    pieces = ["Run this:\n\n```", "\nmake test\n", "```\n\nThen:\n\n```", "python\nprint(1)\n```\n"]
    runtime = FakeRuntime(project)
    app = make_app(runtime)
    runtime.scripts.append(paced_answer(pieces, shown_answer(app)))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime)
        fences = list(screen.query_one(AssistantMessageView).query("MarkdownFence"))
        assert guesses == []
        assert [fence.code.strip() for fence in fences] == ["make test", "print(1)"]
        assert [fence.lexer for fence in fences] == ["", "python"]


async def test_an_answer_restarted_after_a_dropped_stream_replaces_the_half_shown(
    make_app, project
):
    half = "The first half of an answer, with a long paragraph " * 30 + "\n\nand then"
    whole = "The whole answer, streamed again."
    shown = {"half": False}

    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.ThinkingDelta(text="pondering"))
        for i in range(0, len(half), 200):
            await send(ev.MessageDelta(text=half[i : i + 200]))
        while not shown["half"]:  # the half answer is on screen before the stream breaks
            await asyncio.sleep(0.01)
        await send(
            ev.AnswerRestarted(
                message="the connection dropped mid-answer, retrying in 1 s", delay_s=1.0
            )
        )
        await send(ev.MessageDelta(text=whole))
        await send(ev.AssistantMessage(content=[{"type": "text", "text": whole}], usage=Usage()))

    runtime = FakeRuntime(project, [script])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await session_started(pilot, app)
        await pilot.press(*"hello", "enter")
        await wait_until(pilot, lambda: "and then" in shown_answer(app)())
        shown["half"] = True
        await wait_until(pilot, lambda: not screen.turn_active)
        await pilot.pause()
        assert shown_answer(app)() == whole  # the half answer is gone, not doubled
        texts = [e.text for e in screen.transcript.entries if isinstance(e, AssistantEntry)]
        assert texts == [whole]
        assert not [e for e in screen.transcript.entries if isinstance(e, ThinkingEntry)]
        assert "the connection dropped mid-answer, retrying in 1 s" in [
            e.text for e in screen.transcript.entries if isinstance(e, NoticeEntry)
        ]
        views = list(screen.query(AssistantMessageView)) + list(screen.query(AssistantTextView))
        assert [v.entry.text for v in views] == [whole]

"""A burst of streamed text: segments end at the last safe paragraph, the bottom is measured up front."""

from __future__ import annotations

import asyncio

from agent_core import events as ev
from agent_core.usage import Usage
from mewcode_tui.transcript import split_segments
from mewcode_tui.widgets.assistant_view import AssistantMessageView, AssistantTextView
from tests.tui.conftest import wait_until


def paragraphs(count: int) -> str:
    return "".join(f"Paragraph {n} says something.\n\n" for n in range(count))


def test_a_burst_leaves_only_the_last_paragraph_live():
    text = paragraphs(20) + "The last one, still streaming"
    pieces = split_segments("", text, limit=100)
    assert "".join(pieces) == text
    assert pieces[-1] == "The last one, still streaming"
    assert all(piece.endswith("\n\n") for piece in pieces[:-1])


def test_a_burst_never_ends_a_segment_inside_an_open_fence_or_before_indented_code():
    fenced = paragraphs(20) + "```python\nx = 1\n\ny = 2\n"
    assert split_segments("", fenced, limit=100)[-1] == "```python\nx = 1\n\ny = 2\n"
    indented = paragraphs(20) + "Code:\n\n    x = 1\n\nafter"
    assert split_segments("", indented, limit=100)[-1] == "after"
    # Text that never reached the limit stays one live piece.
    assert split_segments("", "short\n\ntext", limit=100) == ["short\n\ntext"]


async def test_segments_finished_in_a_burst_are_measured_before_they_are_shown(
    make_app, project, monkeypatch
):
    from bench.bench_tui import markdown_answer
    from tests.tui.fakes import FakeRuntime

    estimated: set[int] = set()  # views laid out from an estimate at least once
    real = AssistantTextView.get_content_height

    def spy(view, container, viewport, width):
        if view._key != view._theme_key(max(1, width)):
            estimated.add(id(view))
        return real(view, container, viewport, width)

    monkeypatch.setattr(AssistantTextView, "get_content_height", spy)

    burst = markdown_answer(12_000)
    intro = paragraphs(25)  # taller than the screen: the scrollbar is there before the burst

    intro_shown, checked = asyncio.Event(), asyncio.Event()

    async def script(send, prompt):
        await send(ev.TurnStarted(turn_id="t", input=prompt))
        await send(ev.MessageDelta(text=intro))
        await intro_shown.wait()  # shown and laid out: the live view has a width
        await send(ev.MessageDelta(text=burst))
        await checked.wait()  # the answer is still streaming while the test looks
        await send(ev.AssistantMessage(content=[], usage=Usage()))

    runtime = FakeRuntime(project, [script])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, chat = app.main_screen, app.main_screen.chat
        chat.QUIET_AFTER_STREAM = 60.0  # no idle measuring: only what the burst did
        await wait_until(pilot, lambda: screen.session_ready)
        await pilot.press(*"go", "enter")
        await wait_until(
            pilot,
            lambda: (
                chat.max_scroll_y > 0
                and all(view.size.width > 0 for view in chat.query(AssistantMessageView))
            ),
        )
        intro_shown.set()
        await wait_until(pilot, lambda: chat.first_mounted > 0, timeout=10)
        views = list(chat.query(AssistantTextView))
        # The newest finished segment got its real height at its first layout
        # (no estimate, so no second layout when it is drawn)...
        newest = views[-1]
        await wait_until(pilot, lambda: newest.size.height == newest.plain_text().count("\n") + 1)
        assert newest.measured and id(newest) not in estimated
        # ...while the burst's segments far above the screen are not even mounted.
        assert chat.first_mounted > 1
        assert len(views) < 5
        await wait_until(pilot, lambda: chat.at_bottom)
        checked.set()
        await wait_until(pilot, lambda: not screen.turn_active, timeout=10)
        shown = "".join(
            e.text for e in screen.transcript.entries if type(e).__name__ == "AssistantEntry"
        )
        assert shown == intro + burst

"""Finished answer segments render lazily: exact once idle, and scrolling up keeps its place."""

from __future__ import annotations

from mewcode_tui.transcript import AssistantEntry, estimated_height
from mewcode_tui.widgets.assistant_view import AssistantTextView
from tests.tui.conftest import run_one_turn, wait_until
from tests.tui.fakes import FakeRuntime, plain_answer


def test_estimate_wraps_long_lines():
    assert estimated_height("short\n\n" + "x" * 25, 10) == 1 + 1 + 3


async def load_all(pilot, chat) -> None:
    """Scroll up until every entry of the transcript is mounted."""
    while chat.first_mounted:
        before = chat.first_mounted
        chat.scroll_home(animate=False, immediate=True)
        await wait_until(pilot, lambda before=before: chat.first_mounted < before)
        # The reader's place is restored after a refresh (the view leaves the top); scrolling
        # before that would be undone by it, and scrolling home again would load nothing.
        await wait_until(pilot, lambda: chat.scroll_y > 0)


async def test_segments_are_measured_once_the_stream_is_quiet(make_app, project):
    from bench.bench_tui import markdown_answer

    text = markdown_answer(30_000)
    runtime = FakeRuntime(project, [plain_answer(text, chunk=64)])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime, timeout=30)
        chat = screen.chat
        await load_all(pilot, chat)
        chat.scroll_end(animate=False, immediate=True)
        views = list(chat.query(AssistantTextView))
        assert len(views) > 3
        await wait_until(pilot, lambda: all(v.measured for v in views), timeout=10)
        # Views are measured ahead of layout at the width they all share.
        await wait_until(pilot, lambda: {view.size.width for view in views} == {chat.answer_width})
        # Measured heights are the rendered Markdown's, and the view still follows the bottom.
        await wait_until(
            pilot,
            lambda: all(view.size.height == view.plain_text().count("\n") + 1 for view in views),
        )
        await wait_until(pilot, lambda: chat.at_bottom)
        # What is shown is the answer's own text (code keeps its content).
        shown = views[1].plain_text()
        assert "def load_" in shown and "##" not in shown


async def test_reading_position_kept_when_a_segment_above_is_measured(make_app, project):
    from bench.bench_tui import markdown_answer

    text = markdown_answer(30_000)
    runtime = FakeRuntime(project, [plain_answer(text, chunk=64)])
    app = make_app(runtime)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_one_turn(pilot, app, runtime, timeout=30)
        chat = screen.chat
        await load_all(pilot, chat)
        views = list(chat.query(AssistantTextView))
        middle = len(views) // 2
        above, target = views[middle - 1], views[middle]
        await wait_until(pilot, lambda: all(v.measured for v in views), timeout=10)
        chat.QUIET_AFTER_STREAM = 60.0
        chat.note_streaming()  # as if a stream went on: no idle measuring meanwhile
        above._key = None  # as if never rendered: laid out from its estimate
        above.refresh(layout=True)
        await wait_until(
            pilot,
            lambda: above.size.height == estimated_height(above.entry.text, above.size.width),
        )
        chat.scroll_to(y=target.virtual_region.y + 3, animate=False, immediate=True)
        await wait_until(pilot, lambda: chat.scroll_y == target.virtual_region.y + 3)
        offset = chat.scroll_y - target.virtual_region.y
        height = above.size.height
        change = above.measure()
        assert change  # the estimate was off
        chat.view_resized(above, change)
        await wait_until(pilot, lambda: above.size.height == height + change)
        # The segment above grew or shrank, but the text being read did not move.
        await wait_until(pilot, lambda: chat.scroll_y - target.virtual_region.y == offset)
        assert isinstance(target.entry, AssistantEntry)

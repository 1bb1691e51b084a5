"""A finished answer rendered at last tells the chat log by message, which keeps the reader's place."""

from __future__ import annotations

from mewcode_tui.transcript import estimated_height
from mewcode_tui.widgets.assistant_view import AssistantTextView
from tests.tui.conftest import run_one_turn, wait_until
from tests.tui.fakes import FakeRuntime, plain_answer
from tests.tui.test_answer_measuring import load_all


async def test_a_segment_rendered_on_screen_posts_resized_and_the_text_below_stays(
    make_app, project
):
    from bench.bench_tui import markdown_answer

    runtime = FakeRuntime(project, [plain_answer(markdown_answer(30_000), chunk=64)])
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
        chat.note_streaming()  # no idle measuring: only painting renders the view
        resized: list[int] = []
        original = chat.view_resized
        chat.view_resized = lambda view, change: (resized.append(change), original(view, change))
        above._key = None  # laid out from its estimate again
        above.refresh(layout=True)
        await wait_until(
            pilot,
            lambda: above.size.height == estimated_height(above.entry.text, above.size.width),
        )
        # The estimate's last row at the top of the screen: painting it renders the view.
        chat.scroll_to(y=above.virtual_region.bottom - 1, animate=False, immediate=True)
        offset = chat.scroll_y - target.virtual_region.y
        await wait_until(pilot, lambda: above.measured and resized)
        await pilot.pause(0.1)
        assert resized[0] != 0
        assert chat.scroll_y - target.virtual_region.y == offset  # the text read did not move
